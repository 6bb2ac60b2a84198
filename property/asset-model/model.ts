// The model of the asset lifecycle (seed 2.5, 3, 4.5 to 4.7): what one command sequence has
// uploaded, who owns each asset and what state it is in. A plain object, deliberately small:
// the commands read it to predict what the server must answer, and update it afterwards.
import type { Asset } from '../../conformance/assets-support.ts';

/** A and B: the two projects of the isolation keys; S: the project whose assets expire quickly. */
export type Project = 'A' | 'B' | 'S';

/** Seed 3: active after upload; deleted by its owner; expired once time reaches expires_at. */
export type AssetState = 'active' | 'deleted' | 'expired';

export interface ModelAsset {
  id: string;
  owner: Project;
  state: AssetState;
  /** The Asset as the upload answered it (mime_type, sha256, expires_at, ...): every read must return it. */
  uploaded: Asset;
  /** A WaitForExpiry has slept past this asset's expires_at. */
  waitedFor: boolean;
}

export interface AssetModel {
  /** Every asset this sequence uploaded, in upload order: asset #1 is assets[0]. */
  assets: ModelAsset[];
  /** Expiry waits this sequence may still make: 0 or 1 (one batch wait per sequence, within the check's budget). */
  waitsLeft: number;
}

export function emptyModel(waitsLeft: number): AssetModel {
  return { assets: [], waitsLeft };
}

/**
 * How far the kit's clock and the server's may disagree about expires_at (servers may also round
 * times to the second). Within this distance of expires_at an asset may be either active or
 * expired, and the model accepts both.
 */
export const CLOCK_TOLERANCE_MS = 1_000;

/** What the model knows about an asset while a request was in flight (sent at `sentAt`, answered at `answeredAt`). */
export type Phase = AssetState | 'active-or-expired';

/**
 * The asset's phase during a request. Deletion is known from the model; expiry from the clock
 * (expires_at is the server's own statement, seed 2.5). Updates the state to expired once that is certain.
 */
export function phaseDuring(asset: ModelAsset, sentAt: number, answeredAt: number): Phase {
  if (asset.state !== 'active') return asset.state;
  const expiresAt = Date.parse(asset.uploaded.expires_at);
  if (answeredAt + CLOCK_TOLERANCE_MS < expiresAt) return 'active';
  if (sentAt - CLOCK_TOLERANCE_MS >= expiresAt) {
    asset.state = 'expired';
    return 'expired';
  }
  return 'active-or-expired';
}

/** "#1" for the first asset of a sequence. */
export function refLabel(ref: number): string {
  return `#${ref + 1}`;
}

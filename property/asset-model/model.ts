// The model of the asset lifecycle (seed 2.5, 3, 4.5 to 4.7): what one command sequence has
// uploaded, who owns each asset and what state it is in. A plain object, deliberately small:
// the commands read it to predict what the server must answer, and update it afterwards.
import type { Asset } from '../../harness/assets-support.ts';

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
  /**
   * When the asset expires on the kit's clock: its lifetime (expires_at − created_at, both the
   * server's) after the upload was sent at the earliest, after it was answered at the latest.
   * Relative times make the model immune to a server clock set differently from the kit's.
   */
  expires: { earliest: number; latest: number };
  /** A WaitForExpiry has slept past this asset's expires_at. */
  waitedFor: boolean;
  /**
   * Deletions by the owner in flight (no answeredAt yet) and the one that succeeded, on the kit's
   * clock. Run one at a time they never overlap another request; run together, a request that
   * overlaps one may meet the asset either active or deleted (the server orders the two).
   */
  deletions: Deletion[];
}

/** An owner's DELETE: sent at `sentAt`, answered at `answeredAt` once its answer reached the model. */
export interface Deletion {
  sentAt: number;
  answeredAt?: number;
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
 * How far the server may be off in its own expiry, beyond the upload's round trip (it may round
 * created_at or expires_at to the second). Within this distance of the expiry an asset may be
 * either active or expired, and the model accepts both.
 */
export const CLOCK_TOLERANCE_MS = 1_000;

/**
 * What the model knows about an asset while a request was in flight: its state, "active or
 * expired" near its expiry, or "active or deleted" while its owner's deletion was in flight.
 */
export type Phase = AssetState | 'active-or-expired' | 'active-or-deleted';

/** The request [sentAt, answeredAt] overlaps a deletion other than its own. */
function overlapsDeletion(asset: ModelAsset, sentAt: number, answeredAt: number, own: Deletion | undefined): boolean {
  return asset.deletions.some(
    (deletion) => deletion !== own && answeredAt >= deletion.sentAt && (deletion.answeredAt === undefined || sentAt < deletion.answeredAt),
  );
}

/**
 * The asset's phase during a request sent at `sentAt` and answered at `answeredAt` (`own`: the
 * request is that deletion). Deletion is known from the model, expiry from the clock; the state
 * becomes expired once that is certain. A deletion overlapping the request leaves both open, and
 * dominates expiry: it allows at least what "active or expired" allows.
 */
export function phaseDuring(asset: ModelAsset, sentAt: number, answeredAt: number, own?: Deletion): Phase {
  if (overlapsDeletion(asset, sentAt, answeredAt, own)) return 'active-or-deleted';
  if (asset.state !== 'active') return asset.state;
  if (answeredAt + CLOCK_TOLERANCE_MS < asset.expires.earliest) return 'active';
  if (sentAt - CLOCK_TOLERANCE_MS >= asset.expires.latest) {
    asset.state = 'expired';
    return 'expired';
  }
  return 'active-or-expired';
}

/** When an expiry wait for these assets may end: each is then surely expired. */
export function surelyExpiredAt(assets: readonly ModelAsset[]): number {
  return Math.max(...assets.map((asset) => asset.expires.latest)) + CLOCK_TOLERANCE_MS;
}

/** "#1" for the first asset of a sequence. */
export function refLabel(ref: number): string {
  return `#${ref + 1}`;
}

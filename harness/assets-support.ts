// What the asset, isolation, errors, feedback, models and service checks share: storing a sample
// as an asset (or failing the check that needs one), referencing an asset from a decision (with
// the body builders of requests.ts), recognising a sha256 value in any of the encodings a server
// may choose, and a short form of a reply for observations.
import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { defaultAssetLifetimeMs, errorCode, type Schemas } from '../spec/index.ts';
import { CheckFailure } from './check.ts';
import type { ApiClient, CheckContext } from './context.ts';
import { describeReply } from './expect.ts';
import type { Reply } from './http.ts';
import { decideBody, mediaPart, textPart, type MediaPartType } from './requests.ts';
import { familyOfType, sampleFor, type SampleMimeType } from './samples/media.ts';

export { sleep };

export type Asset = Schemas['Asset'];

/** Seed 2.5 and 8: an asset expires 24 hours after upload by default. */
export const DEFAULT_ASSET_LIFETIME_MS = defaultAssetLifetimeMs;

export interface StoredAsset {
  asset: Asset;
  /** The bytes that were uploaded. */
  bytes: Uint8Array;
  mimeType: SampleMimeType;
  reply: Reply;
}

/**
 * Uploads a valid file of `mimeType` (the kit's sample unless bytes are given) and returns the
 * Asset. A check that needs a stored asset fails here, saying so, when the upload is refused.
 */
export async function uploadSample(client: ApiClient, mimeType: SampleMimeType = 'image/png', bytes: Uint8Array = sampleFor(mimeType)): Promise<StoredAsset> {
  const reply = await client.upload(bytes, mimeType);
  if (reply.status !== 201 || typeof reply.json?.id !== 'string') {
    throw new CheckFailure(`201 with an Asset for a valid ${mimeType} upload (this check needs a stored asset)`, describeReply(reply));
  }
  return { asset: reply.json as Asset, bytes, mimeType, reply };
}

/** The content part type that references a file of this type (seed 2.2). */
export function partTypeFor(mimeType: SampleMimeType): MediaPartType {
  return familyOfType(mimeType);
}

/** POST /v1/decide whose context is a text part followed by one `partType` part referencing `assetId`. */
export function decideReferencing(client: ApiClient, assetId: string, partType: MediaPartType): Promise<Reply> {
  return client.decide(decideBody([textPart('Please look at the attached file about my order.'), mediaPart(partType, assetId, 'attachment')]));
}

/** A well-formed asset id (seed 2.2 pattern) that no server has handed out. */
export function unknownAssetId(): string {
  return `asset_unknown${randomBytes(8).toString('hex')}`;
}

export type Sha256Encoding = 'lowercase hex' | 'uppercase hex' | 'mixed-case hex' | 'base64' | 'base64url';

/** How `value` encodes the SHA-256 of `bytes`, or undefined when it is not their SHA-256 at all. */
export function sha256EncodingOf(value: unknown, bytes: Uint8Array): Sha256Encoding | undefined {
  if (typeof value !== 'string') return undefined;
  const digest = createHash('sha256').update(bytes).digest();
  const hex = digest.toString('hex');
  if (value === hex) return 'lowercase hex';
  if (value === hex.toUpperCase()) return 'uppercase hex';
  if (value.toLowerCase() === hex) return 'mixed-case hex';
  const unpadded = value.replace(/=+$/, '');
  if (unpadded === digest.toString('base64').replace(/=+$/, '')) return 'base64';
  if (unpadded === digest.toString('base64url')) return 'base64url';
  return undefined;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** expires_at − created_at in milliseconds; NaN when either is not a date-time. */
export function assetLifetimeMs(asset: Pick<Asset, 'created_at' | 'expires_at'>): number {
  return Date.parse(asset.expires_at) - Date.parse(asset.created_at);
}

const ASSET_FIELDS = ['id', 'object', 'mime_type', 'size_bytes', 'sha256', 'created_at', 'expires_at'] as const;
const TIME_FIELDS = new Set<string>(['created_at', 'expires_at']);

/** Fields of the Asset (seed 2.5) on which two descriptions differ; times compare as instants. */
export function assetDifferences(expected: Asset, actual: unknown): string[] {
  const other = (actual ?? {}) as Record<string, unknown>;
  return ASSET_FIELDS.filter((field) => {
    const a = expected[field];
    const b = other[field];
    if (TIME_FIELDS.has(field) && typeof b === 'string') return Date.parse(String(a)) !== Date.parse(b);
    return a !== b;
  }).map((field) => `${field} ${JSON.stringify(other[field])} instead of ${JSON.stringify(expected[field])}`);
}

/** "status 404 with code ASSET_NOT_FOUND", or "status 200": a reply in a few words, for observations. */
export function statusWithCode(reply: Reply): string {
  const code = reply.json?.error?.code;
  return `status ${reply.status}${typeof code === 'string' ? ` with code ${code}` : ''}`;
}

/** Records what a server answers where the seed names a code only (open point name-only-statuses), beside the reference status. */
export function observeNameOnly(t: CheckContext, reply: Reply, code: string): void {
  const status = errorCode(code).referenceStatus;
  t.observe({ summary: statusWithCode(reply), reference: `${status} ${code}`, matchesReference: reply.status === status && reply.json?.error?.code === code });
}

/** The start of an MP4 file (an ftyp box and an empty mdat box): video, a type the seed does not accept. */
export function mp4Sample(): Uint8Array {
  const box = (type: string, payload: Buffer) => {
    const size = Buffer.alloc(4);
    size.writeUInt32BE(8 + payload.length);
    return Buffer.concat([size, Buffer.from(type, 'latin1'), payload]);
  };
  const brands = Buffer.concat([Buffer.from('isom', 'latin1'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2avc1mp41', 'latin1')]);
  return new Uint8Array(Buffer.concat([box('ftyp', brands), box('free', Buffer.alloc(0)), box('mdat', Buffer.alloc(16))]));
}

// A small pool of assets the caller really uploaded, for media parts to reference (seed 2.2:
// an asset_id must belong to an asset uploaded by the same project). Uploaded once at the start
// of a property from the kit's tiny valid samples, drawn from during generation, deleted at the
// end. An upload the target refuses leaves its type out of the pool: the assets area judges
// uploads; here they only prepare requests.
import fc from 'fast-check';
import { partFamilies } from '../../spec/index.ts';
import type { CheckContext } from '../../harness/context.ts';
import type { MediaPartType } from '../../harness/requests.ts';
import { sampleFor, type SampleMimeType } from '../../harness/samples/media.ts';
import { isSuccess } from '../../harness/status.ts';

/** The sample types uploaded for each part type: one of each image type, three document types, two audio types. */
export const POOL_SAMPLE_TYPES: Readonly<Record<MediaPartType, readonly SampleMimeType[]>> = {
  image: ['image/png', 'image/jpeg', 'image/webp'],
  document: ['text/plain', 'application/pdf', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  audio: ['audio/wav', 'audio/ogg'],
};

export interface PooledAsset {
  id: string;
  mimeType: SampleMimeType;
}

export type AssetPool = Readonly<Record<MediaPartType, readonly PooledAsset[]>>;

export const EMPTY_POOL: AssetPool = { image: [], document: [], audio: [] };

/** Uploads the pool with the first project's key when the target claims assets and multimodal input; otherwise the pool is empty. */
export async function uploadAssetPool(t: CheckContext): Promise<AssetPool> {
  if (!t.target.capabilities.has('assets') || !t.target.capabilities.has('multimodal')) return EMPTY_POOL;
  const pool: Record<MediaPartType, PooledAsset[]> = { image: [], document: [], audio: [] };
  const refused: string[] = [];
  for (const [family, types] of Object.entries(POOL_SAMPLE_TYPES) as Array<[MediaPartType, readonly SampleMimeType[]]>) {
    for (const mimeType of types) {
      const reply = await t.a.upload(sampleFor(mimeType), mimeType);
      const id = reply.json?.id;
      if (isSuccess(reply) && typeof id === 'string') pool[family].push({ id, mimeType });
      else refused.push(`${mimeType} (status ${reply.status})`);
    }
  }
  if (refused.length > 0) t.note(`Uploads left out of the asset pool: ${refused.join(', ')}.`);
  return pool;
}

/** Deletes the pool's assets, except those in `keep` (a failing case's curl still needs them). */
export async function releaseAssetPool(t: CheckContext, pool: AssetPool, keep: ReadonlySet<string> = new Set()): Promise<void> {
  for (const asset of Object.values(pool).flat()) {
    if (!keep.has(asset.id)) await t.a.deleteAsset(asset.id).catch(() => undefined);
  }
  if (keep.size > 0) t.note(`Kept for reproduction (they expire on the server's schedule): ${[...keep].join(', ')}.`);
}

/** The asset ids a part of this type may reference: its own family, and page images for documents (seed 2.2, x-part-families). */
export function referenceableIds(pool: AssetPool, partType: MediaPartType): string[] {
  return partFamilies[partType].flatMap((family) => pool[family].map((asset) => asset.id));
}

/** An arbitrary over the ids a part of this type may reference; undefined when there are none. */
export function assetIdFrom(pool: AssetPool, partType: MediaPartType): fc.Arbitrary<string> | undefined {
  const ids = referenceableIds(pool, partType);
  return ids.length > 0 ? fc.constantFrom(...ids) : undefined;
}

/** Every pooled asset id that occurs in a text (a request body), for keeping them after a failure. */
export function pooledIdsIn(pool: AssetPool, text: string): Set<string> {
  return new Set(
    Object.values(pool)
      .flat()
      .map((asset) => asset.id)
      .filter((id) => text.includes(id)),
  );
}

// The reference server's asset store: durable, on disk, one process.
//
// Layout: <dataDir>/assets/<id>.bin holds the file, <id>.json its record (asset-record.ts). Both are
// written atomically (temporary file + rename), the bytes first, so a record never points at
// missing bytes; everything is reloaded on open, so assets survive a restart.
//
// Lookup order, first match wins:
//   1. unknown id                      'not_found'  -> 404 ASSET_NOT_FOUND
//   2. another project's asset         'forbidden'  -> 403 ASSET_FORBIDDEN, whatever its state:
//      seed section 3 gives 403 to any other project using, reading or deleting an asset, and a
//      403 that turned into 404 or 410 would tell a stranger when someone else's asset was
//      deleted or expired. Tombstones keep the owner for this reason.
//   3. deleted by its project          'deleted'    -> 404 ASSET_NOT_FOUND (open point asset-after-delete)
//   4. past expires_at (purged or not) 'expired'    -> 410 ASSET_EXPIRED
//
// Concurrency: every state change (active -> deleted, active -> purged) is decided synchronously
// in memory before any await, and each asset changes state at most once, so two operations never
// write the same record. A new asset becomes visible only once both of its files are on disk.
// Tombstones are kept for as long as the data directory lives; they are a few hundred bytes each.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Schemas } from '../../spec/index.ts';
import { assetFailure, type AssetFailure, type AssetLookupFailure } from './asset-failure.ts';
import { newAssetId } from './asset-ids.ts';
import { parseRecord, serializeRecord, type AssetRecord } from './asset-record.ts';
import { syncDirectory, temporarySuffix, writeFileAtomic } from './atomic-file.ts';
import type { AcceptedMimeType } from './families.ts';

export { assetFailure };
export type { AssetFailure, AssetLookupFailure };

export interface AssetStoreOptions {
  dataDir: string;
  /** Lifetime of a new asset (open point asset-ttl: server configuration, 24 hours by default). */
  ttlMs: number;
  /** Milliseconds since the epoch; injectable so tests can move time. */
  now?: () => number;
  /** Problems the store works around (an unreadable record on open, bytes it could not remove). Never carries file content. */
  onWarning?: (message: string) => void;
}

export type LookupResult = { ok: true; asset: Schemas['Asset'] } | { ok: false; reason: AssetLookupFailure };
export type ReadBytesResult = { ok: true; asset: Schemas['Asset']; bytes: Uint8Array } | { ok: false; reason: AssetLookupFailure };
export type RemoveResult = { ok: true; deleted: Schemas['DeletedAsset'] } | { ok: false; reason: AssetLookupFailure };

export interface AssetStore {
  /** Stores a file; `ttlMs` overrides the store's lifetime (a project configured with a shorter one). */
  put(projectId: string, bytes: Uint8Array, mimeType: AcceptedMimeType, ttlMs?: number): Promise<Schemas['Asset']>;
  lookup(projectId: string, assetId: string): LookupResult;
  readBytes(projectId: string, assetId: string): Promise<ReadBytesResult>;
  remove(projectId: string, assetId: string): Promise<RemoveResult>;
  /** Deletes the bytes of every expired asset, keeping its record as a tombstone. Returns the purged ids. */
  purgeExpired(): Promise<string[]>;
}

function isMissingFile(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

export async function openAssetStore(options: AssetStoreOptions): Promise<AssetStore> {
  const now = options.now ?? Date.now;
  const warn = options.onWarning ?? ((message: string) => process.emitWarning(message, 'AssetStoreWarning'));
  const directory = join(options.dataDir, 'assets');
  const bytesPath = (id: string): string => join(directory, `${id}.bin`);
  const recordPath = (id: string): string => join(directory, `${id}.json`);

  await mkdir(directory, { recursive: true });
  const records = await loadRecords(directory, warn);

  const isExpired = (record: AssetRecord): boolean => now() >= Date.parse(record.asset.expires_at);

  function find(projectId: string, assetId: string): { ok: true; record: AssetRecord } | { ok: false; reason: AssetLookupFailure } {
    const record = records.get(assetId);
    if (!record) return { ok: false, reason: 'not_found' };
    if (record.projectId !== projectId) return { ok: false, reason: 'forbidden' };
    if (record.state === 'deleted') return { ok: false, reason: 'deleted' };
    if (record.state === 'purged' || isExpired(record)) return { ok: false, reason: 'expired' };
    return { ok: true, record };
  }

  /** Moves an active record to a tombstone state: record first, then the bytes go. */
  async function retire(record: AssetRecord, state: 'deleted' | 'purged'): Promise<void> {
    const id = record.asset.id;
    const tombstone: AssetRecord = { ...record, state, stateChangedAt: new Date(now()).toISOString() };
    records.set(id, tombstone);
    try {
      await writeFileAtomic(recordPath(id), serializeRecord(tombstone));
    } catch (error) {
      records.set(id, record); // the change did not reach the disk; do not pretend it happened
      throw error;
    }
    // The record already says the bytes are gone; bytes left behind are removed on the next open.
    await unlink(bytesPath(id)).catch((error: unknown) => {
      if (!isMissingFile(error)) warn(`Could not remove the bytes of asset ${id}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
    });
    await syncDirectory(directory);
  }

  return {
    async put(projectId, bytes, mimeType, ttlMs = options.ttlMs) {
      if (projectId === '') throw new Error('An asset needs a project');
      const id = newAssetId();
      const createdAt = now();
      const asset: Schemas['Asset'] = {
        id,
        object: 'asset',
        mime_type: mimeType,
        size_bytes: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        created_at: new Date(createdAt).toISOString(),
        expires_at: new Date(createdAt + ttlMs).toISOString(),
      };
      const record: AssetRecord = { projectId, asset, state: 'active' };
      await writeFileAtomic(bytesPath(id), bytes);
      await writeFileAtomic(recordPath(id), serializeRecord(record));
      records.set(id, record);
      return { ...asset };
    },

    lookup(projectId, assetId) {
      const found = find(projectId, assetId);
      return found.ok ? { ok: true, asset: { ...found.record.asset } } : found;
    },

    async readBytes(projectId, assetId) {
      const found = find(projectId, assetId);
      if (!found.ok) return found;
      try {
        const bytes: Uint8Array = await readFile(bytesPath(assetId));
        return { ok: true, asset: { ...found.record.asset }, bytes };
      } catch (error) {
        // Deleted or purged while the file was being opened: answer as the lookup now does.
        const again = find(projectId, assetId);
        if (isMissingFile(error) && !again.ok) return again;
        throw error;
      }
    },

    async remove(projectId, assetId) {
      const found = find(projectId, assetId);
      if (!found.ok) return found;
      await retire(found.record, 'deleted');
      return { ok: true, deleted: { id: assetId, object: 'asset', deleted: true } };
    },

    async purgeExpired() {
      const expired = [...records.values()].filter((record) => record.state === 'active' && isExpired(record));
      // All are marked before the first await, so a concurrent purge or remove skips them.
      const done = expired.map((record) => retire(record, 'purged').then(() => record.asset.id));
      return Promise.all(done);
    },
  };
}

/**
 * Reads every record in the directory. Unreadable records are skipped with a warning and left on
 * disk for a person to inspect, with their bytes. Leftovers of interrupted writes are cleaned up:
 * temporary files, bytes without any record (a put that never finished, so its id was never
 * handed out) and bytes of tombstones (a delete or purge that stopped half way).
 */
async function loadRecords(directory: string, warn: (message: string) => void): Promise<Map<string, AssetRecord>> {
  const names = await readdir(directory);
  const records = new Map<string, AssetRecord>();
  const recordNames = new Set(names.filter((name) => name.endsWith('.json')));

  for (const name of recordNames) {
    const id = name.slice(0, -'.json'.length);
    let text: string;
    try {
      text = await readFile(join(directory, name), 'utf8');
    } catch (error) {
      warn(`Skipped asset record ${name}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
      continue;
    }
    const parsed = parseRecord(text, id);
    if ('problem' in parsed) {
      warn(`Skipped asset record ${name}: ${parsed.problem}`);
      continue;
    }
    records.set(id, parsed);
  }

  const remove = (name: string): Promise<void> => unlink(join(directory, name)).catch(() => undefined);
  for (const name of names) {
    if (name.endsWith(temporarySuffix)) {
      await remove(name);
    } else if (name.endsWith('.bin')) {
      const id = name.slice(0, -'.bin'.length);
      const record = records.get(id);
      if (record ? record.state !== 'active' : !recordNames.has(`${id}.json`)) await remove(name);
    }
  }
  const bytesPresent = new Set(names.filter((name) => name.endsWith('.bin')));
  for (const [id, record] of records) {
    if (record.state === 'active' && !bytesPresent.has(`${id}.bin`)) warn(`Asset ${id} has a record but no bytes`);
  }
  return records;
}

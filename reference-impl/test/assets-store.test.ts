// The on-disk asset store: put/lookup/readBytes/remove, project isolation, expiry on an injected
// clock, purging with tombstones, restart, and recovery from damaged files.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorCode, referenceChoice, schemaValidator } from '../../spec/index.ts';
import { assetFailure, openAssetStore, type AssetStore } from '../assets/store.ts';

const hour = 60 * 60 * 1000;
const ttlMs = 24 * hour;
const start = Date.UTC(2026, 10, 22, 9, 30, 0);
const validAsset = schemaValidator('Asset', 'reference');
const validDeletedAsset = schemaValidator('DeletedAsset', 'reference');

let dataDir: string;
let clock: number;
let warnings: string[];

const open = (): Promise<AssetStore> => openAssetStore({ dataDir, ttlMs, now: () => clock, onWarning: (message) => warnings.push(message) });
const bytesOf = (text: string): Uint8Array => new TextEncoder().encode(text);
const assetFiles = async (): Promise<string[]> => (await readdir(join(dataDir, 'assets'))).sort();

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'asset-store-'));
  clock = start;
  warnings = [];
});

afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('put', () => {
  it('returns an Asset that meets the schema, with a lowercase hex sha256 and the configured lifetime', async () => {
    const store = await open();
    const bytes = bytesOf('Invoice 2031');
    const asset = await store.put('project-a', bytes, 'text/plain');

    expect(validAsset(asset)).toEqual({ valid: true, issues: [] });
    expect(asset.id).toMatch(/^asset_[A-Za-z0-9_-]{24}$/);
    expect(asset).toMatchObject({ object: 'asset', mime_type: 'text/plain', size_bytes: bytes.length });
    expect(asset.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(asset.sha256).toMatch(new RegExp(referenceChoice<string>('sha256-encoding', 'pattern')));
    expect(asset.created_at).toBe('2026-11-22T09:30:00.000Z');
    expect(asset.expires_at).toBe('2026-11-23T09:30:00.000Z');
  });

  it('keeps bytes and record as <id>.bin and <id>.json under <dataDir>/assets', async () => {
    const store = await open();
    const asset = await store.put('project-a', bytesOf('x'), 'text/plain');
    expect(await assetFiles()).toEqual([`${asset.id}.bin`, `${asset.id}.json`]);
  });

  it('gives every asset its own id, also under concurrent uploads', async () => {
    const store = await open();
    const assets = await Promise.all(Array.from({ length: 25 }, (_, i) => store.put('project-a', bytesOf(`file ${i}`), 'text/plain')));
    expect(new Set(assets.map((asset) => asset.id)).size).toBe(25);
    for (const [i, asset] of assets.entries()) {
      const read = await store.readBytes('project-a', asset.id);
      expect(read.ok && new TextDecoder().decode(read.bytes)).toBe(`file ${i}`);
    }
  });
});

describe('lookup and readBytes', () => {
  it('returns the asset and its bytes to the owning project', async () => {
    const store = await open();
    const bytes = new Uint8Array([0, 1, 2, 255]);
    const asset = await store.put('project-a', bytes, 'image/png');
    expect(store.lookup('project-a', asset.id)).toEqual({ ok: true, asset });
    expect(await store.readBytes('project-a', asset.id)).toEqual({ ok: true, asset, bytes: expect.any(Uint8Array) });
    const read = await store.readBytes('project-a', asset.id);
    expect(read.ok && [...read.bytes]).toEqual([0, 1, 2, 255]);
  });

  it('hands out copies: changing a returned asset does not change the store', async () => {
    const store = await open();
    const asset = await store.put('project-a', bytesOf('x'), 'text/plain');
    asset.mime_type = 'image/png';
    const found = store.lookup('project-a', asset.id);
    expect(found.ok && found.asset.mime_type).toBe('text/plain');
  });

  it("answers 'not_found' for an unknown or malformed id", async () => {
    const store = await open();
    expect(store.lookup('project-a', 'asset_doesnotexist000000')).toEqual({ ok: false, reason: 'not_found' });
    expect(store.lookup('project-a', '../../etc/passwd')).toEqual({ ok: false, reason: 'not_found' });
    expect(await store.readBytes('project-a', 'asset_doesnotexist000000')).toEqual({ ok: false, reason: 'not_found' });
  });
});

describe('project isolation', () => {
  it("answers 'forbidden' to another project reading, fetching bytes or deleting, and leaves the asset alone", async () => {
    const store = await open();
    const asset = await store.put('project-a', bytesOf('secret'), 'text/plain');
    expect(store.lookup('project-b', asset.id)).toEqual({ ok: false, reason: 'forbidden' });
    expect(await store.readBytes('project-b', asset.id)).toEqual({ ok: false, reason: 'forbidden' });
    expect(await store.remove('project-b', asset.id)).toEqual({ ok: false, reason: 'forbidden' });
    expect(store.lookup('project-a', asset.id)).toEqual({ ok: true, asset });
  });

  it("keeps answering 'forbidden' to other projects after the asset expired or was deleted", async () => {
    const store = await open();
    const deleted = await store.put('project-a', bytesOf('one'), 'text/plain');
    const expiring = await store.put('project-a', bytesOf('two'), 'text/plain');
    await store.remove('project-a', deleted.id);
    clock = start + ttlMs;
    await store.purgeExpired();
    expect(store.lookup('project-b', deleted.id)).toEqual({ ok: false, reason: 'forbidden' });
    expect(store.lookup('project-b', expiring.id)).toEqual({ ok: false, reason: 'forbidden' });
  });
});

describe('remove', () => {
  it('deletes the bytes, answers a DeletedAsset, and remembers the id as deleted', async () => {
    const store = await open();
    const asset = await store.put('project-a', bytesOf('x'), 'text/plain');
    const removed = await store.remove('project-a', asset.id);
    expect(removed).toEqual({ ok: true, deleted: { id: asset.id, object: 'asset', deleted: true } });
    expect(removed.ok && validDeletedAsset(removed.deleted).valid).toBe(true);
    expect(existsSync(join(dataDir, 'assets', `${asset.id}.bin`))).toBe(false);
    expect(store.lookup('project-a', asset.id)).toEqual({ ok: false, reason: 'deleted' });
    expect(await store.readBytes('project-a', asset.id)).toEqual({ ok: false, reason: 'deleted' });
    expect(await store.remove('project-a', asset.id)).toEqual({ ok: false, reason: 'deleted' });
  });

  it('lets exactly one of two concurrent deletes succeed', async () => {
    const store = await open();
    const asset = await store.put('project-a', bytesOf('x'), 'text/plain');
    const results = await Promise.all([store.remove('project-a', asset.id), store.remove('project-a', asset.id)]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok)).toEqual([{ ok: false, reason: 'deleted' }]);
  });

  it("answers 'expired' for deleting an expired asset (open point asset-read-after-expiry)", async () => {
    const store = await open();
    const asset = await store.put('project-a', bytesOf('x'), 'text/plain');
    clock = start + ttlMs;
    expect(await store.remove('project-a', asset.id)).toEqual({ ok: false, reason: 'expired' });
  });
});

describe('expiry', () => {
  it('expires an asset when the clock reaches expires_at, not before', async () => {
    const store = await open();
    const asset = await store.put('project-a', bytesOf('x'), 'text/plain');
    clock = start + ttlMs - 1;
    expect(store.lookup('project-a', asset.id).ok).toBe(true);
    clock = start + ttlMs;
    expect(store.lookup('project-a', asset.id)).toEqual({ ok: false, reason: 'expired' });
    expect(await store.readBytes('project-a', asset.id)).toEqual({ ok: false, reason: 'expired' });
  });

  it('purges the bytes of expired assets only, and keeps their ids as tombstones', async () => {
    const store = await open();
    const old = await store.put('project-a', bytesOf('old'), 'text/plain');
    clock = start + 2 * hour;
    const fresh = await store.put('project-a', bytesOf('fresh'), 'text/plain');
    clock = start + ttlMs + hour;

    expect(await store.purgeExpired()).toEqual([old.id]);
    expect(await assetFiles()).toEqual([`${fresh.id}.bin`, `${fresh.id}.json`, `${old.id}.json`].sort());
    expect(store.lookup('project-a', old.id)).toEqual({ ok: false, reason: 'expired' });
    expect(store.lookup('project-a', fresh.id).ok).toBe(true);
    expect(await store.purgeExpired()).toEqual([]);
  });

  it('does not purge a deleted asset as if it had expired', async () => {
    const store = await open();
    const asset = await store.put('project-a', bytesOf('x'), 'text/plain');
    await store.remove('project-a', asset.id);
    clock = start + ttlMs;
    expect(await store.purgeExpired()).toEqual([]);
    expect(store.lookup('project-a', asset.id)).toEqual({ ok: false, reason: 'deleted' });
  });
});

describe('restart', () => {
  it('keeps active assets, deleted and purged tombstones across a reopen', async () => {
    const first = await open();
    const deleted = await first.put('project-a', bytesOf('deleted'), 'text/plain');
    const purged = await first.put('project-b', bytesOf('purged'), 'text/plain');
    await first.remove('project-a', deleted.id);
    clock = start + hour;
    const kept = await first.put('project-a', bytesOf('kept'), 'text/markdown');
    clock = start + ttlMs; // `purged` is due now, `kept` an hour later
    expect(await first.purgeExpired()).toEqual([purged.id]);

    // Back before the purge time: a tombstone does not depend on the clock.
    clock = start + 2 * hour;
    const second = await open();
    expect(warnings).toEqual([]);
    expect(second.lookup('project-a', kept.id)).toEqual({ ok: true, asset: kept });
    const read = await second.readBytes('project-a', kept.id);
    expect(read.ok && new TextDecoder().decode(read.bytes)).toBe('kept');
    expect(second.lookup('project-a', deleted.id)).toEqual({ ok: false, reason: 'deleted' });
    expect(second.lookup('project-b', purged.id)).toEqual({ ok: false, reason: 'expired' });
    expect(second.lookup('project-a', purged.id)).toEqual({ ok: false, reason: 'forbidden' });
  });

  it('skips a corrupt record with a warning, keeps its bytes, and loses no other asset', async () => {
    const first = await open();
    const good = await first.put('project-a', bytesOf('good'), 'text/plain');
    const broken = await first.put('project-a', bytesOf('broken'), 'text/plain');
    const wrongShape = await first.put('project-a', bytesOf('wrong'), 'text/plain');
    await writeFile(join(dataDir, 'assets', `${broken.id}.json`), '{"format": 1, "project_id": "proj');
    await writeFile(
      join(dataDir, 'assets', `${wrongShape.id}.json`),
      JSON.stringify({ format: 1, project_id: 'project-a', state: 'active', asset: { id: wrongShape.id, object: 'asset' } }),
    );

    const second = await open();
    expect(warnings).toHaveLength(2);
    expect(warnings).toContainEqual(`Skipped asset record ${broken.id}.json: not valid JSON`);
    expect(warnings.find((message) => message.includes(wrongShape.id))).toMatch(/does not match the Asset schema/);
    expect(second.lookup('project-a', good.id)).toEqual({ ok: true, asset: good });
    expect(second.lookup('project-a', broken.id)).toEqual({ ok: false, reason: 'not_found' });
    expect(existsSync(join(dataDir, 'assets', `${broken.id}.bin`))).toBe(true);
  });

  it('rejects a record whose id does not match its file name', async () => {
    const first = await open();
    const asset = await first.put('project-a', bytesOf('x'), 'text/plain');
    const record = await readFile(join(dataDir, 'assets', `${asset.id}.json`), 'utf8');
    await writeFile(join(dataDir, 'assets', 'asset_renamedrenamedrenamed.json'), record);
    await open();
    expect(warnings).toEqual(['Skipped asset record asset_renamedrenamedrenamed.json: asset id does not match the file name']);
  });

  it('cleans up leftovers of interrupted writes: temporary files, bytes without a record, bytes of a tombstone', async () => {
    const first = await open();
    const asset = await first.put('project-a', bytesOf('x'), 'text/plain');
    const deleted = await first.put('project-a', bytesOf('y'), 'text/plain');
    await first.remove('project-a', deleted.id);
    const folder = join(dataDir, 'assets');
    await writeFile(join(folder, `${asset.id}.json.1a2b3c.tmp`), 'half written');
    await writeFile(join(folder, 'asset_neverfinishedupload0.bin'), 'orphan');
    await writeFile(join(folder, `${deleted.id}.bin`), 'left behind by an interrupted delete');

    await open();
    expect(await assetFiles()).toEqual([`${asset.id}.bin`, `${asset.id}.json`, `${deleted.id}.json`].sort());
  });

  it('warns about an active record whose bytes are missing', async () => {
    const first = await open();
    const asset = await first.put('project-a', bytesOf('x'), 'text/plain');
    await rm(join(dataDir, 'assets', `${asset.id}.bin`));
    const second = await open();
    expect(warnings).toEqual([`Asset ${asset.id} has a record but no bytes`]);
    await expect(second.readBytes('project-a', asset.id)).rejects.toThrow(/ENOENT/);
  });
});

describe('assetFailure', () => {
  it('maps the stated reasons to the seed statuses', () => {
    expect(assetFailure('forbidden')).toMatchObject({ status: 403, code: 'ASSET_FORBIDDEN' });
    expect(assetFailure('not_found')).toMatchObject({ status: 404, code: 'ASSET_NOT_FOUND' });
    expect(assetFailure('expired')).toMatchObject({ status: 410, code: 'ASSET_EXPIRED' });
    for (const code of ['ASSET_FORBIDDEN', 'ASSET_NOT_FOUND', 'ASSET_EXPIRED']) {
      expect(errorCode(code).statedStatus).not.toBeNull();
    }
  });

  it('maps a deleted asset as open point asset-after-delete chooses (404 ASSET_NOT_FOUND)', () => {
    expect(assetFailure('deleted', 'asset_abcdefgh')).toEqual({
      status: referenceChoice<number>('asset-after-delete', 'status'),
      code: referenceChoice<string>('asset-after-delete', 'code'),
      message: 'Asset asset_abcdefgh does not exist.',
    });
    expect(assetFailure('deleted')).toMatchObject({ status: 404, code: 'ASSET_NOT_FOUND' });
  });

  it('agrees with open point asset-read-after-expiry for reading and deleting expired assets', () => {
    expect(assetFailure('expired')).toMatchObject({
      status: referenceChoice<number>('asset-read-after-expiry', 'status'),
      code: referenceChoice<string>('asset-read-after-expiry', 'code'),
    });
  });
});

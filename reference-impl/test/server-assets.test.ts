// Assets over HTTP (seed 2.5, 3, 4.5 to 4.7): upload, read, delete, expiry, isolation, restart.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { validateResponseBody } from '../../spec/index.ts';
import { acceptedSamples, mismatchedSample, oversizeSample, pdfWithPages, pngImage, truncatedSample, wavSeconds } from '../../harness/samples/media.ts';
import { call, choiceQuestion, KEY_B, startServer, type RunningServer } from './support/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server.stop());

const upload = (target: RunningServer, bytes: Uint8Array | string, contentType: string, key?: string) =>
  call(target, 'POST', '/v1/assets', { raw: bytes, contentType, ...(key ? { key } : {}) });
const decideWith = (target: RunningServer, part: Record<string, unknown>, key?: string) =>
  call(target, 'POST', '/v1/decide', {
    body: { context: [{ type: 'text', text: 'Please look at this.' }, part], questions: { q: choiceQuestion() } },
    ...(key ? { key } : {}),
  });

describe('upload (seed 4.5)', () => {
  test.each(Object.entries(acceptedSamples))('%s is accepted: 201 with the Asset', async (mimeType, bytes) => {
    const reply = await upload(server, bytes, mimeType);
    expect(reply.status).toBe(201);
    expect(validateResponseBody('uploadAsset', 201, reply.json, 'reference')?.valid).toBe(true);
    expect(reply.json).toMatchObject({ object: 'asset', mime_type: mimeType, size_bytes: bytes.byteLength });
    expect(reply.json.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(Date.parse(reply.json.expires_at) - Date.parse(reply.json.created_at)).toBe(24 * 3600 * 1000);
  });

  test('unsupported types, mismatched content and missing types: 415 UNSUPPORTED_MIME_TYPE', async () => {
    const mismatch = mismatchedSample();
    for (const [bytes, type] of [
      [pngImage(), 'video/mp4'],
      [mismatch.bytes, mismatch.declaredMimeType],
      [pngImage(), 'text/plain'],
      [new Uint8Array([0xff, 0xfe, 0x00, 0xd8]), 'text/plain'],
    ] as const) {
      const reply = await upload(server, bytes, type);
      expect([reply.status, reply.json.error.code]).toEqual([415, 'UNSUPPORTED_MIME_TYPE']);
    }
    const untyped = await call(server, 'POST', '/v1/assets', { raw: pngImage() });
    expect([untyped.status, untyped.json.error.code]).toEqual([415, 'UNSUPPORTED_MIME_TYPE']);
  });

  test('files over their family limit: 413 ASSET_TOO_LARGE; the 256 KiB JSON limit does not apply', async () => {
    for (const family of ['image', 'audio'] as const) {
      const sample = oversizeSample(family);
      const reply = await upload(server, sample.bytes, sample.mimeType);
      expect([reply.status, reply.json.error.code]).toEqual([413, 'ASSET_TOO_LARGE']);
    }
    const big = await upload(server, pngImage({ totalBytes: 1_000_000 }), 'image/png');
    expect(big.status).toBe(201);
  });

  test('empty body: 400 INVALID_REQUEST; too many pages or seconds: the reference statuses', async () => {
    const empty = await upload(server, new Uint8Array(), 'image/png');
    expect([empty.status, empty.json.error.code]).toEqual([400, 'INVALID_REQUEST']);
    const pages = await upload(server, pdfWithPages(21), 'application/pdf');
    expect(pages.json.error.code).toBe('DOCUMENT_TOO_MANY_PAGES');
    const seconds = await upload(server, wavSeconds(31), 'audio/wav');
    expect(seconds.json.error.code).toBe('AUDIO_TOO_LONG');
    const truncated = await upload(server, truncatedSample('application/pdf'), 'application/pdf');
    expect([truncated.status, truncated.json.error.code]).toEqual([400, 'DECODE_FAILED']);
    for (const reply of [pages, seconds, truncated]) expect(reply.json.error.request_id).toBe(reply.headers['x-request-id']);
  });
});

describe('lifecycle (seed 3, 4.6, 4.7)', () => {
  test('GET returns the Asset and never the content; DELETE answers {id, object, deleted: true}; afterwards the asset is unknown', async () => {
    const created = (await upload(server, 'Invoice 2031: refund of the double payment\n', 'text/plain')).json;
    const read = await call(server, 'GET', `/v1/assets/${created.id}`);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(created);
    expect(read.text).not.toContain('Invoice 2031');
    const used = await decideWith(server, { type: 'document', asset_id: created.id });
    expect(used.status).toBe(200);

    const deleted = await call(server, 'DELETE', `/v1/assets/${created.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.json).toEqual({ id: created.id, object: 'asset', deleted: true });
    for (const after of [
      await call(server, 'GET', `/v1/assets/${created.id}`),
      await call(server, 'DELETE', `/v1/assets/${created.id}`),
      await decideWith(server, { type: 'document', asset_id: created.id }),
    ]) {
      expect([after.status, after.json.error.code]).toEqual([404, 'ASSET_NOT_FOUND']);
    }
  });

  test('unknown ids: 404 ASSET_NOT_FOUND; malformed ids: 400 INVALID_REQUEST', async () => {
    const unknown = await call(server, 'GET', '/v1/assets/asset_unknown000000');
    expect([unknown.status, unknown.json.error.code]).toEqual([404, 'ASSET_NOT_FOUND']);
    const malformed = await call(server, 'GET', '/v1/assets/not-an-asset');
    expect([malformed.status, malformed.json.error.code]).toEqual([400, 'INVALID_REQUEST']);
  });

  test('a part referencing an asset of another family: 400 INVALID_REQUEST; a document part may reference a page image', async () => {
    const image = (await upload(server, pngImage(), 'image/png')).json;
    const audio = await decideWith(server, { type: 'audio', asset_id: image.id });
    expect([audio.status, audio.json.error.code]).toEqual([400, 'INVALID_REQUEST']);
    expect((await decideWith(server, { type: 'document', asset_id: image.id })).status).toBe(200);
    expect((await decideWith(server, { type: 'image', asset_id: image.id })).status).toBe(200);
  });

  test('four images pass; the text of text assets reaches the scorer', async () => {
    const images = await Promise.all(Array.from({ length: 4 }, () => upload(server, pngImage(), 'image/png')));
    const context = images.map((reply, i) => ({ type: 'image', id: `img-${i}`, asset_id: reply.json.id }));
    expect((await call(server, 'POST', '/v1/decide', { body: { context, questions: { q: choiceQuestion() } } })).status).toBe(200);

    const refund = (await upload(server, 'Please refund the double payment on my invoice.', 'text/plain')).json;
    const delivery = (await upload(server, 'The parcel delivery is late; where is my tracking number?', 'text/plain')).json;
    const ask = async (assetId: string) =>
      (await call(server, 'POST', '/v1/decide', { body: { context: [{ type: 'document', asset_id: assetId }], questions: { q: choiceQuestion() } } })).json
        .answers.q.probabilities;
    expect((await ask(refund.id)).billing).toBeGreaterThan((await ask(delivery.id)).billing);
  });
});

describe('isolation between projects (seed 3, 5)', () => {
  test('another project gets 403 ASSET_FORBIDDEN for use, read and delete; the owner still has it', async () => {
    const created = (await upload(server, pngImage(), 'image/png')).json;
    const attempts = [
      await call(server, 'GET', `/v1/assets/${created.id}`, { key: KEY_B }),
      await call(server, 'DELETE', `/v1/assets/${created.id}`, { key: KEY_B }),
      await decideWith(server, { type: 'image', asset_id: created.id }, KEY_B),
    ];
    for (const reply of attempts) expect([reply.status, reply.json.error.code]).toEqual([403, 'ASSET_FORBIDDEN']);
    const owner = await call(server, 'GET', `/v1/assets/${created.id}`);
    expect(owner.json).toEqual(created);
  });
});

describe('expiry and restarts', () => {
  test('after expires_at: 410 ASSET_EXPIRED for use and read, even after the bytes are purged and the server restarts', async () => {
    const short = await startServer({ assetTtlMs: 60_000 });
    const created = (await upload(short, 'Short-lived note about a refund.', 'text/plain')).json;
    expect(Date.parse(created.expires_at) - Date.parse(created.created_at)).toBe(60_000);
    expect((await decideWith(short, { type: 'document', asset_id: created.id })).status).toBe(200);
    short.advance(60_000);
    for (const reply of [await decideWith(short, { type: 'document', asset_id: created.id }), await call(short, 'GET', `/v1/assets/${created.id}`)]) {
      expect([reply.status, reply.json.error.code]).toEqual([410, 'ASSET_EXPIRED']);
    }
    await short.stop({ keepData: true });

    const later = await startServer({ dataDir: short.dataDir, assetTtlMs: 60_000, startAt: Date.now() + 120_000 });
    try {
      const reply = await call(later, 'GET', `/v1/assets/${created.id}`);
      expect([reply.status, reply.json.error.code]).toEqual([410, 'ASSET_EXPIRED']);
    } finally {
      await later.stop();
    }
  });

  test('a project configured with a shorter lifetime gets it; other projects keep 24 hours', async () => {
    const mixed = await startServer({
      projects: [
        { projectId: 'proj_a', keys: ['svc_live_short_ttl_project'], assetTtlMs: 5_000 },
        { projectId: 'proj_b', keys: [KEY_B] },
      ],
    });
    try {
      const short = (await upload(mixed, pngImage(), 'image/png', 'svc_live_short_ttl_project')).json;
      const normal = (await upload(mixed, pngImage(), 'image/png', KEY_B)).json;
      expect(Date.parse(short.expires_at) - Date.parse(short.created_at)).toBe(5_000);
      expect(Date.parse(normal.expires_at) - Date.parse(normal.created_at)).toBe(24 * 3600 * 1000);
    } finally {
      await mixed.stop();
    }
  });

  test('active assets survive a restart', async () => {
    const first = await startServer();
    const created = (await upload(first, pngImage(), 'image/png')).json;
    await first.stop({ keepData: true });
    const second = await startServer({ dataDir: first.dataDir });
    try {
      expect((await call(second, 'GET', `/v1/assets/${created.id}`)).json).toEqual(created);
      expect((await decideWith(second, { type: 'image', asset_id: created.id })).status).toBe(200);
    } finally {
      await second.stop();
    }
  });
});

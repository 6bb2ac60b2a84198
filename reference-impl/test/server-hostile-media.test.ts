// Hostile media and the reference server's memory ceiling (reference-impl/README.md, "Memory
// ceiling"; assets/memory-limits.ts): files within the upload size limits that declare far more
// pixels, bytes or samples than their size suggests get 400 DECODE_FAILED in the seed's error
// body, naming the limit and never the content (seed 2.5): at upload when the headers show it,
// at decide otherwise. Nothing is decoded first; decisions made before are kept; the server goes
// on answering, and ordinary media still decide. Every bomb is generated here, a few hundred kB
// at most (test/support/hostile-media.ts).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { validateResponseBody } from '../../spec/index.ts';
import { pdfWithPages, wavSeconds } from '../../harness/samples/media.ts';
import { textPicture } from '../../harness/samples/text-picture.ts';
import { MAX_IMAGE_PIXELS, MAX_REQUEST_PIXELS } from '../assets/memory-limits.ts';
import { createAssetReader } from '../assets/reading/asset-reader.ts';
import { createAudioReader } from '../assets/reading/audio.ts';
import { docxBomb, flacBomb, jpegBomb, pdfBomb, pdfInlineImageBomb, pngBomb, sha256, webpBomb } from './support/hostile-media.ts';
import { call, choiceQuestion, startServer, type Reply, type RunningServer } from './support/server.ts';

const docxType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const MiB = 1024 * 1024;

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ reading: { ocrWorkers: 1 } });
});
afterAll(async () => server?.stop());

const upload = (bytes: Uint8Array, contentType: string) => call(server, 'POST', '/v1/assets', { raw: bytes, contentType });
const decide = (parts: { type: string; asset_id: string }[], requestId?: string) =>
  call(server, 'POST', '/v1/decide', {
    body: { context: [{ type: 'text', text: 'The customer attached this:' }, ...parts], questions: { topic: choiceQuestion() } },
    ...(requestId ? { headers: { 'x-request-id': requestId } } : {}),
  });

/** 400 DECODE_FAILED in the seed's error body, its message matching `limit`, with no trace of the file. */
function expectRefused(reply: Reply, operation: 'uploadAsset' | 'decide', limit: RegExp): void {
  expect([reply.status, reply.json?.error?.code], reply.text).toEqual([400, 'DECODE_FAILED']);
  expect(validateResponseBody(operation, 400, reply.json, 'reference')?.valid).toBe(true);
  expect(reply.json.error.request_id).toBe(reply.headers['x-request-id']);
  expect(reply.json.error.message).toMatch(limit);
  // The files hold only zeros, a letter repeated or silence: nothing of them may show.
  expect(reply.json.error.message).not.toMatch(/aaaa|\u0000/);
}

async function uploaded(bytes: Uint8Array, contentType: string): Promise<string> {
  const reply = await upload(bytes, contentType);
  expect(reply.status, reply.text).toBe(201);
  return reply.json.id;
}

describe('refused at upload, from what the file declares', () => {
  test.each([
    ['PNG, 20,000 × 20,000 (389 kB)', () => pngBomb(20_000, 20_000), 'image/png', /20,000,000 pixels.*20000 × 20000/],
    ['JPEG, 8,192 × 8,192 (262 kB)', () => jpegBomb(8_192, 8_192), 'image/jpeg', /20,000,000 pixels.*8192 × 8192/],
    ['WebP lossless, 16,384 × 16,384 (36 bytes)', () => webpBomb(16_384, 16_384), 'image/webp', /20,000,000 pixels.*16384 × 16384/],
    [
      'PDF, 2 pages showing a 10,000 × 10,000 image (100 kB)',
      () => pdfBomb({ pages: 2, width: 10_000, height: 10_000, sharedImage: true }),
      'application/pdf',
      /inside a PDF.*12,000,000 pixels.*10000 × 10000/,
    ],
    [
      'PDF whose image dictionary says 10 × 10 for a JPEG of 8,192 × 8,192 (262 kB)',
      () => pdfBomb({ pages: 1, width: 10, height: 10, jpeg: jpegBomb(8_192, 8_192) }),
      'application/pdf',
      /inside a PDF.*8192 × 8192/,
    ],
    [
      'PDF whose image height is a reference to 10,000 (100 kB)',
      () => pdfBomb({ pages: 1, width: 10_000, height: 10_000, heightByReference: true }),
      'application/pdf',
      /inside a PDF.*10000 × 10000/,
    ],
    ['DOCX, document.xml of 64 MiB (65 kB)', () => docxBomb({ letters: 64 * MiB }), docxType, /16 MiB inflated; word\/document\.xml/],
    [
      'DOCX whose directory says 1 kB for 20 MiB (21 kB)',
      () => docxBomb({ letters: 20 * MiB, statedSize: 1_000 }),
      docxType,
      /16 MiB inflated; word\/document\.xml/,
    ],
    [
      'FLAC, 30 s at 655,350 Hz in 8 channels (9 kB)',
      () => flacBomb({ seconds: 30, sampleRate: 655_350, channels: 8 }),
      'audio/flac',
      /12,000,000 samples.*30 s × 655350 Hz × 8 channels/,
    ],
  ])('%s: 400 DECODE_FAILED naming the limit', async (_name, make, type, limit) => {
    const bytes = make();
    expect(bytes.length).toBeLessThan(400_000);
    expectRefused(await upload(bytes, type), 'uploadAsset', limit);
  });

  test('a PDF of many pages is refused by the page limit first (413 DOCUMENT_TOO_MANY_PAGES)', async () => {
    const reply = await upload(pdfBomb({ pages: 200, width: 10_000, height: 10_000, sharedImage: true }), 'application/pdf');
    expect([reply.status, reply.json.error.code]).toEqual([413, 'DOCUMENT_TOO_MANY_PAGES']);
  });

  test('pictures at the pixel limit are accepted', async () => {
    const side = Math.floor(Math.sqrt(MAX_IMAGE_PIXELS));
    expect((await upload(pngBomb(side, side), 'image/png')).status).toBe(201);
  });
});

describe('refused at decide, where only reading shows it', () => {
  test('a FLAC whose STREAMINFO understates its frames (1 s declared, 100 s × 48 kHz × 8 channels held)', async () => {
    const id = await uploaded(flacBomb({ seconds: 100, sampleRate: 48_000, channels: 8, statedSamples: 48_000 }), 'audio/flac');
    expectRefused(await decide([{ type: 'audio', asset_id: id }]), 'decide', /^\/context\/1: Audio is decoded up to 12,000,000 samples/);
  });

  test('a DOCX whose text passes 1,000,000 characters', async () => {
    const id = await uploaded(docxBomb({ letters: 2_000_000 }), docxType);
    expectRefused(
      await decide([{ type: 'document', asset_id: id }]),
      'decide',
      /^\/context\/1: Text read from one document is limited to 1,000,000 characters/,
    );
  });

  test(`pictures of one request over ${MAX_REQUEST_PIXELS.toLocaleString('en-US')} pixels in all; the same picture counts once`, async () => {
    const ids = await Promise.all([0, 1, 2, 3].map((n) => uploaded(pngBomb(4_000, 4_000 - n), 'image/png')));
    const parts = ids.map((id) => ({ type: 'image', asset_id: id }));
    expectRefused(
      await decide(parts),
      'decide',
      /^\/context\/4: The pictures of one request are read up to 60,000,000 pixels in all; these declare 63,976,000/,
    );
    const repeated = await decide([parts[0]!, parts[0]!, parts[0]!, parts[0]!]);
    expect(repeated.status, repeated.text).toBe(200);
  });
});

describe('bounded while reading: no error, no memory', () => {
  test('a page of 14,400 × 14,400 points renders within 9,000,000 pixels and decides', async () => {
    const id = await uploaded(pdfBomb({ pages: 1, width: 64, height: 64, mediaBox: [14_400, 14_400] }), 'application/pdf');
    const reply = await decide([{ type: 'document', asset_id: id }]);
    expect(reply.status, reply.text).toBe(200);
  });

  test('an inline image hidden in a content stream over the PDF image limit is left out of the page', async () => {
    const id = await uploaded(pdfInlineImageBomb(10_000, 10_000), 'application/pdf');
    const reply = await decide([{ type: 'document', asset_id: id }]);
    expect(reply.status, reply.text).toBe(200);
  });
});

describe('files stored before the limits: the reader checks them again', () => {
  test.each([
    ['image/png', () => pngBomb(20_000, 20_000), /20,000,000 pixels/],
    ['image/webp', () => webpBomb(16_384, 16_384), /20,000,000 pixels/],
    ['application/pdf', () => pdfBomb({ pages: 1, width: 10_000, height: 10_000 }), /inside a PDF/],
    [docxType, () => docxBomb({ letters: 64 * MiB }), /16 MiB inflated/],
  ])('%s over its limit reads as over-limit, decoding nothing', async (type, make, limit) => {
    const reader = createAssetReader({ ocrWorkers: 1 });
    try {
      const bytes = make();
      const outcome = await reader.read({ mime_type: type as 'image/png', sha256: sha256(bytes) }, bytes);
      expect(outcome).toEqual({ failure: 'over-limit', message: expect.stringMatching(limit) });
    } finally {
      await reader.close();
    }
  });

  test('audio over the decoded-samples limit, whatever its header says', async () => {
    const reader = createAudioReader();
    try {
      const reading = await reader.read(flacBomb({ seconds: 30, sampleRate: 655_350, channels: 8 }), 'audio/flac');
      expect(reading).toEqual({ failure: { code: 'DECODE_FAILED', message: expect.stringMatching(/12,000,000 samples.*holds more/) } });
    } finally {
      await reader.close();
    }
  });
});

test('decisions made before the bombs are kept, and ordinary media still decide', async () => {
  const before = await call(server, 'POST', '/v1/decide', {
    body: { context: 'refund please', questions: { topic: choiceQuestion() } },
    headers: { 'x-request-id': 'before-bombs' },
  });
  expect(before.status).toBe(200);
  await Promise.all([
    upload(pngBomb(20_000, 20_000), 'image/png'),
    upload(docxBomb({ letters: 64 * MiB }), docxType),
    upload(flacBomb({ seconds: 30, sampleRate: 655_350, channels: 8 }), 'audio/flac'),
  ]);
  const feedback = await call(server, 'POST', '/v1/feedback', { body: { request_id: 'before-bombs', answers: { topic: { correct: true } } } });
  expect(feedback.status, feedback.text).toBe(201);
  const ordinary = await Promise.all([
    uploaded(textPicture(['Refund for a double charge']), 'image/png').then((id) => ({ type: 'image', asset_id: id })),
    uploaded(pdfWithPages(2), 'application/pdf').then((id) => ({ type: 'document', asset_id: id })),
    uploaded(wavSeconds(2), 'audio/wav').then((id) => ({ type: 'audio', asset_id: id })),
  ]);
  const reply = await decide(ordinary);
  expect(reply.status, reply.text).toBe(200);
  expect(reply.json.answers.topic.choice).toBe('billing');
});

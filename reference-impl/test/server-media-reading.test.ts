// The reference server reads what it is sent (seed 2.2): the words in a screenshot, a scanned PDF,
// a DOCX and a PDF's text layer steer a choice question as the same words in a text part would,
// and (seed 2.5) nothing read from a file is ever logged or returned.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { docxWithPages, pdfWithPages, pngImage } from '../../harness/samples/media.ts';
import { withPngComment } from '../../harness/samples/png.ts';
import { scannedPdf } from '../../harness/samples/scanned-pdf.ts';
import { textPicture } from '../../harness/samples/text-picture.ts';
import { call, startServer, type Reply, type RunningServer } from './support/server.ts';

const WORDS = 'refund for a double charge';
/** Words of the fixtures that appear nowhere in the requests: if they show up anywhere, a file's content leaked. */
const LEAK = /double charge|refund for/i;
const docxType = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const questions = {
  topic: {
    type: 'choice',
    options: {
      billing: 'Billing: a refund, a charge on the card, an invoice or another payment problem',
      shipping: 'Shipping: a parcel that is late, lost, damaged or sent to the wrong address',
    },
  },
};
const lead = { type: 'text', text: 'The customer attached this:' };

const fixtures = {
  screenshot: { part: 'image', type: 'image/png', bytes: textPicture([WORDS]) },
  // 9 MB of metadata, within the 10 MB image limit: the engine's PNG decoder refuses chunks over 8 MB.
  screenshotWithComment: { part: 'image', type: 'image/png', bytes: withPngComment(textPicture([WORDS]), 9_000_000) },
  scannedPdf: { part: 'document', type: 'application/pdf', bytes: scannedPdf([['Customer note', WORDS]]) },
  docx: { part: 'document', type: docxType, bytes: docxWithPages(1, { pageText: () => WORDS }) },
  textLayerPdf: { part: 'document', type: 'application/pdf', bytes: pdfWithPages(1, { pageText: () => WORDS }) },
  neutralImage: { part: 'image', type: 'image/png', bytes: pngImage({ width: 64, height: 64 }) },
} as const;

let server: RunningServer;
const replies: Reply[] = [];
const assetIds: Record<string, string> = {};

async function send(method: string, path: string, options: Parameters<typeof call>[3]): Promise<Reply> {
  const reply = await call(server, method, path, options);
  replies.push(reply);
  return reply;
}

async function decideWith(name: keyof typeof fixtures) {
  const reply = await send('POST', '/v1/decide', { body: { context: [lead, { type: fixtures[name].part, asset_id: assetIds[name] }], questions } });
  expect(reply.status, reply.text).toBe(200);
  return reply.json;
}

beforeAll(async () => {
  server = await startServer({ reading: { ocrWorkers: 1 } });
  for (const [name, fixture] of Object.entries(fixtures)) {
    const reply = await send('POST', '/v1/assets', { raw: fixture.bytes, contentType: fixture.type });
    expect(reply.status, reply.text).toBe(201);
    assetIds[name] = reply.json.id;
    replies.push(await send('GET', `/v1/assets/${reply.json.id}`, {}));
  }
}, 60_000);
afterAll(async () => server?.stop());

describe('the words in a file steer the choice', () => {
  test.each(['screenshot', 'screenshotWithComment', 'scannedPdf', 'docx', 'textLayerPdf'] as const)(
    '%s → billing, far more confidently than a picture without words',
    async (name) => {
      const withWords = await decideWith(name);
      const neutral = await decideWith('neutralImage');
      expect(withWords.answers.topic.choice).toBe('billing');
      expect(withWords.answers.topic.probabilities.billing).toBeGreaterThan(neutral.answers.topic.probabilities.billing + 0.1);
      expect(withWords.answers.topic.confidence).toBeGreaterThan(neutral.answers.topic.confidence + 0.1);
    },
  );

  test('usage.input_tokens counts the text read from the file, joined to the text parts with a newline', async () => {
    const read = await decideWith('screenshot');
    const typed = await send('POST', '/v1/decide', { body: { context: `${lead.text}\n${WORDS}`, questions } });
    expect(read.usage.input_tokens).toBe(typed.json.usage.input_tokens);
    expect(read.answers.topic.probabilities).toEqual(typed.json.answers.topic.probabilities);
  });

  test('parts are read in order: text before and after a document', async () => {
    const reply = await send('POST', '/v1/decide', {
      body: { context: [lead, { type: 'document', asset_id: assetIds.docx }, { type: 'text', text: 'Please help.' }], questions },
    });
    const typed = await send('POST', '/v1/decide', { body: { context: `${lead.text}\n${WORDS}\nPlease help.`, questions } });
    expect(reply.json.usage.input_tokens).toBe(typed.json.usage.input_tokens);
  });

  test('each file is read once: after the first decision, the reader holds every upload', () => {
    for (const name of Object.keys(fixtures) as (keyof typeof fixtures)[]) {
      const sha256 = replies.find((reply) => reply.json?.id === assetIds[name])!.json.sha256;
      expect(server.reader.isRead({ mime_type: fixtures[name].type, sha256 })).toBe(true);
    }
  });
});

test('nothing read from a file is logged, stored beside the asset or returned', async () => {
  expect(replies.length).toBeGreaterThan(10);
  for (const reply of replies) expect(reply.text).not.toMatch(LEAK);
  expect(server.logs.join('')).not.toMatch(LEAK);
  // The decision log and the asset records on disk (the bytes themselves are the caller's file).
  const files = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(folder, entry.name)) : [join(folder, entry.name)]));
  const written = files(server.dataDir).filter((file) => !file.endsWith('.bin'));
  expect(written.some((file) => file.endsWith('.jsonl'))).toBe(true);
  for (const file of written) expect(readFileSync(file, 'utf8'), file).not.toMatch(LEAK);
});

describe('files that cannot be read in time (open point media-reading-failures)', () => {
  let slow: RunningServer;
  beforeAll(async () => {
    slow = await startServer({ reading: { timeLimitMs: 0 } });
  });
  afterAll(async () => slow?.stop());

  test.each([
    ['image', 'screenshot', 500, 'VISION_FAILED'],
    ['document', 'screenshot', 500, 'OCR_FAILED'],
    ['document', 'scannedPdf', 500, 'OCR_FAILED'],
  ] as const)('a %s part referencing the %s → %i %s, the message naming the part only', async (part, name, status, code) => {
    const fixture = fixtures[name];
    const upload = await call(slow, 'POST', '/v1/assets', { raw: fixture.bytes, contentType: fixture.type });
    const reply = await call(slow, 'POST', '/v1/decide', { body: { context: [lead, { type: part, id: 'attachment', asset_id: upload.json.id }], questions } });
    expect([reply.status, reply.json.error.code]).toEqual([status, code]);
    expect(reply.json.error.message).toMatch(/^\/context\/1 \(id "attachment"\): the (image|scan) could not be read\.$/);
    expect(slow.logs.join('')).not.toMatch(LEAK);
  });

  test('text-only decisions are not affected', async () => {
    const reply = await call(slow, 'POST', '/v1/decide', { body: { context: WORDS, questions } });
    expect([reply.status, reply.json.answers.topic.choice]).toEqual([200, 'billing']);
  });
});

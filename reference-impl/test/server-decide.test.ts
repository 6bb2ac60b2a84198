// POST /v1/decide: validation order and messages, limits at their boundaries, answers.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { validateResponseBody } from '../../spec/index.ts';
import { call, choiceQuestion, startServer, type RunningServer } from './support/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server.stop());

const questions = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`q${i}`, choiceQuestion()]));
const decide = (body: unknown) => call(server, 'POST', '/v1/decide', { body });
const assetId = (n: number) => `asset_${String(n).padStart(12, '0')}`;

describe('unknown fields are 400 INVALID_REQUEST naming the field (seed 2.2, 4.1)', () => {
  const cases: Array<[string, unknown, string]> = [
    ['top level', { context: 'x', questions: questions(1), model: 'svc-one-v0' }, 'model'],
    ['question', { context: 'x', questions: { q: { ...choiceQuestion(), weight: 2 } } }, 'weight'],
    ['text part', { context: [{ type: 'text', text: 'x', lang: 'en' }], questions: questions(1) }, 'lang'],
    ['image part url', { context: [{ type: 'image', id: 'pic', asset_id: assetId(1), url: 'https://example.org/x.png' }], questions: questions(1) }, 'url'],
    ['inline bytes', { context: [{ type: 'audio', asset_id: assetId(1), data: 'UklGRg==' }], questions: questions(1) }, 'data'],
  ];
  test.each(cases)('%s', async (_where, body, field) => {
    const reply = await decide(body);
    expect(reply.status).toBe(400);
    expect(reply.json.error.code).toBe('INVALID_REQUEST');
    expect(reply.json.error.message).toContain(field);
  });

  test('errors inside a content part echo the part id', async () => {
    const reply = await decide({
      context: [
        { type: 'text', id: 'intro', text: 'x' },
        { type: 'image', id: 'receipt-scan', asset_id: 'not-an-asset-id' },
      ],
      questions: questions(1),
    });
    expect(reply.status).toBe(400);
    expect(reply.json.error.message).toContain('/context/1');
    expect(reply.json.error.message).toContain('"receipt-scan"');
  });
});

test('a video part is 400 UNSUPPORTED_MODALITY, echoing its id', async () => {
  const reply = await decide({
    context: [
      { type: 'text', text: 'see clip' },
      { type: 'video', id: 'clip-7', asset_id: assetId(1) },
    ],
    questions: questions(1),
  });
  expect(reply.status).toBe(400);
  expect(reply.json.error.code).toBe('UNSUPPORTED_MODALITY');
  expect(reply.json.error.message).toContain('"clip-7"');
});

describe('limits at their boundaries (seed 8)', () => {
  test('16 questions pass, 17 fail', async () => {
    const sixteen = await decide({ context: 'refund please', questions: questions(16) });
    expect(sixteen.status).toBe(200);
    expect(Object.keys(sixteen.json.answers)).toHaveLength(16);
    const seventeen = await decide({ context: 'refund please', questions: questions(17) });
    expect([seventeen.status, seventeen.json.error.code]).toEqual([400, 'INVALID_REQUEST']);
    expect((await decide({ context: 'x', questions: {} })).status).toBe(400);
  });

  test('8,000 characters pass, 8,001 fail (string context and text parts)', async () => {
    expect((await decide({ context: 'a'.repeat(8000), questions: questions(1) })).status).toBe(200);
    expect((await decide({ context: 'a'.repeat(8001), questions: questions(1) })).status).toBe(400);
    expect((await decide({ context: [{ type: 'text', text: 'b'.repeat(8000) }], questions: questions(1) })).status).toBe(200);
    expect((await decide({ context: [{ type: 'text', text: 'b'.repeat(8001) }], questions: questions(1) })).status).toBe(400);
    expect((await decide({ context: '', questions: questions(1) })).status).toBe(400);
  });

  test('16 parts pass, 17 fail; part id of 100 characters passes, 101 fails', async () => {
    const parts = (n: number) => Array.from({ length: n }, (_, i) => ({ type: 'text', text: `line ${i}` }));
    expect((await decide({ context: parts(16), questions: questions(1) })).status).toBe(200);
    expect((await decide({ context: parts(17), questions: questions(1) })).status).toBe(400);
    expect((await decide({ context: [{ type: 'text', id: 'i'.repeat(100), text: 'x' }], questions: questions(1) })).status).toBe(200);
    expect((await decide({ context: [{ type: 'text', id: 'i'.repeat(101), text: 'x' }], questions: questions(1) })).status).toBe(400);
  });

  test.each([
    ['image', 5, 'TOO_MANY_IMAGES'],
    ['document', 3, 'TOO_MANY_DOCUMENTS'],
    ['audio', 2, 'TOO_MANY_AUDIO'],
  ])('%s parts over the limit: %d give %s', async (type, count, code) => {
    const context = Array.from({ length: count }, (_, i) => ({ type, id: `${type}-${i + 1}`, asset_id: assetId(i) }));
    const reply = await decide({ context, questions: questions(1) });
    expect(reply.status).toBe(400);
    expect(reply.json.error.code).toBe(code);
    expect(reply.json.error.message).toContain(`"${type}-${count}"`);
  });

  test('a body of exactly 256 KiB passes; one byte more is 413 PAYLOAD_TOO_LARGE', async () => {
    const sized = (bytes: number) => {
      const skeleton = JSON.stringify({ context: 'refund', questions: { q: { type: 'choice', options: { a: '', b: 'x' } } } });
      const body = JSON.stringify({ context: 'refund', questions: { q: { type: 'choice', options: { a: '', b: 'x'.repeat(bytes - skeleton.length + 1) } } } });
      expect(Buffer.byteLength(body)).toBe(bytes);
      return body;
    };
    expect((await call(server, 'POST', '/v1/decide', { raw: sized(262_144) })).status).toBe(200);
    const over = await call(server, 'POST', '/v1/decide', { raw: sized(262_145) });
    expect([over.status, over.json.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });
});

describe('reference choices on open points', () => {
  test('choice or multi without options: 400 INVALID_OPTIONS', async () => {
    for (const question of [
      { type: 'choice', options: {} },
      { type: 'multi', options: {} },
    ]) {
      const reply = await decide({ context: 'x', questions: { q: question } });
      expect([reply.status, reply.json.error.code]).toEqual([400, 'INVALID_OPTIONS']);
    }
  });

  test('noul without instructions: 400 INVALID_REQUEST', async () => {
    const reply = await decide({ context: 'x', questions: { q: { type: 'noul' } } });
    expect([reply.status, reply.json.error.code]).toEqual([400, 'INVALID_REQUEST']);
  });

  test('asset references that do not exist: 404 ASSET_NOT_FOUND, echoing the part id', async () => {
    const reply = await decide({ context: [{ type: 'image', id: 'ghost', asset_id: 'asset_doesnotexist01' }], questions: questions(1) });
    expect([reply.status, reply.json.error.code]).toEqual([404, 'ASSET_NOT_FOUND']);
    expect(reply.json.error.message).toContain('"ghost"');
  });
});

describe('answers (seed 2.4)', () => {
  test('every question type answers in the reference shapes, ids echoed exactly', async () => {
    const ids = ['topic', 'wants refund', 'ünïcödé 🙂', 'а', 'a', '__proto__', 'constructor', '', 'x'.repeat(500)];
    const body = {
      context: 'My parcel arrived two weeks late and the vase inside was broken. I want a refund.',
      questions: {
        [ids[0]!]: { type: 'choice', options: { billing: 'Payments, refunds', 'shipping 🚚': 'Delivery', '': '' } },
        [ids[1]!]: { type: 'noul', instructions: 'Does the customer ask for a refund?' },
        [ids[2]!]: { type: 'multi', options: { refund: null, 'damaged item': null, late: null }, instructions: 'Which issues?' },
        [ids[3]!]: { type: 'score', instructions: 'How urgent is it?' },
        [ids[4]!]: choiceQuestion(),
        [ids[5]!]: choiceQuestion({ ['__proto__']: 'proto option', toString: 'x' }),
        [ids[6]!]: choiceQuestion(),
        [ids[7]!]: choiceQuestion(),
        [ids[8]!]: choiceQuestion(),
      },
    };
    const reply = await call(server, 'POST', '/v1/decide', { raw: JSON.stringify(body) });
    expect(reply.status).toBe(200);
    const parsed = reply.json;
    expect(Object.keys(parsed.answers).sort()).toEqual([...ids].sort());
    expect(validateResponseBody('decide', 200, reply.json, 'reference')?.valid).toBe(true);
    expect(Object.keys(parsed.answers.topic.probabilities).sort()).toEqual(['', 'billing', 'shipping 🚚'].sort());
    // biome-ignore lint/suspicious/noProto: the question id "__proto__" is an own key of the parsed JSON, which is what this test reads.
    expect(Object.keys(parsed.answers.__proto__.probabilities).sort()).toEqual(['__proto__', 'toString'].sort());
    expect(parsed.answers['wants refund'].type).toBe('noul');
    expect(parsed.answers['ünïcödé 🙂'].type).toBe('multi');
    // biome-ignore lint/complexity/useLiteralKeys: the Cyrillic id "а" stays quoted so that it cannot be read as Latin a.
    expect(parsed.answers['а'].type).toBe('score');
    expect(Number.isInteger(reply.json.usage.input_tokens)).toBe(true);
    expect(reply.json.usage).not.toHaveProperty('output_tokens');
  });

  test('choice: probabilities over exactly the options, argmax, margin, abstention', async () => {
    const reply = await decide({
      context: 'Please refund the double payment on my last invoice.',
      questions: { topic: choiceQuestion({ billing: 'Payments, refunds and invoices', shipping: 'Delivery and tracking', other: '' }) },
    });
    const answer = reply.json.answers.topic;
    const probabilities = Object.values(answer.probabilities) as number[];
    expect(Object.keys(answer.probabilities).sort()).toEqual(['billing', 'other', 'shipping']);
    expect(probabilities.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    const sorted = [...probabilities].sort((a, b) => b - a);
    expect(answer.confidence).toBe(sorted[0]! - sorted[1]!);
    expect(answer.choice).toBe('billing');
    expect(answer.abstain).toBe(false);
    expect(answer.abstention_status).toBe('advisory');
  });

  test('abstaining keeps the probabilities and sets choice to null', async () => {
    const strict = await startServer({ abstainMargin: 1 });
    try {
      const reply = await call(strict, 'POST', '/v1/decide', { body: { context: 'refund', questions: { q: choiceQuestion() } } });
      expect(reply.json.answers.q).toMatchObject({ abstain: true, choice: null });
      expect(Object.keys(reply.json.answers.q.probabilities)).toHaveLength(2);
    } finally {
      await strict.stop();
    }
  });

  test('a failing model answers 500 INFERENCE_FAILED in the error body, without a stack trace', async () => {
    const broken = await startServer();
    try {
      await broken.engine.close();
      const reply = await call(broken, 'POST', '/v1/decide', { body: { context: 'refund', questions: { q: choiceQuestion() } } });
      expect([reply.status, reply.json.error.code]).toEqual([500, 'INFERENCE_FAILED']);
      expect(reply.text).not.toMatch(/\.ts:\d+/);
    } finally {
      await broken.stop().catch(() => {});
    }
  });
});

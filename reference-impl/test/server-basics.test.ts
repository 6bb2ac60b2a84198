// Request ids, error bodies from every layer, the unauthenticated endpoints, models.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openapiDocument, validateResponseBody } from '../../spec/index.ts';
import { call, choiceQuestion, startServer, type RunningServer } from './support/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server.stop());

const decideBody = { context: 'I was charged twice and want a refund.', questions: { topic: choiceQuestion() } };

describe('request ids (seed 2.7)', () => {
  test('a valid caller id is kept on success and on errors', async () => {
    const ok = await call(server, 'POST', '/v1/decide', { body: decideBody, headers: { 'x-request-id': 'checkout-7f3a.retry:2' } });
    expect(ok.status).toBe(200);
    expect(ok.headers['x-request-id']).toBe('checkout-7f3a.retry:2');
    const bad = await call(server, 'POST', '/v1/decide', { body: { ...decideBody, extra: 1 }, headers: { 'x-request-id': 'mine_1' } });
    expect(bad.headers['x-request-id']).toBe('mine_1');
    expect(bad.json.error.request_id).toBe('mine_1');
  });

  test('without a valid caller id, one of the form req_<hex> is generated, unique per request', async () => {
    const first = await call(server, 'GET', '/health', { key: null });
    const second = await call(server, 'GET', '/health', { key: null, headers: { 'x-request-id': 'has spaces' } });
    const tooLong = await call(server, 'GET', '/health', { key: null, headers: { 'x-request-id': 'a'.repeat(129) } });
    for (const reply of [first, second, tooLong]) expect(reply.headers['x-request-id']).toMatch(/^req_[0-9a-f]+$/);
    expect(first.headers['x-request-id']).not.toBe(second.headers['x-request-id']);
    const longest = await call(server, 'GET', '/health', { key: null, headers: { 'x-request-id': 'a'.repeat(128) } });
    expect(longest.headers['x-request-id']).toBe('a'.repeat(128));
  });

  test('the decide body does not repeat the request id', async () => {
    const reply = await call(server, 'POST', '/v1/decide', { body: decideBody, headers: { 'x-request-id': 'trace-me-123' } });
    expect(reply.text).not.toContain('trace-me-123');
    expect(reply.json).not.toHaveProperty('request_id');
  });
});

describe('errors from every layer use the seed error body with the header id', () => {
  const cases: Array<[string, () => Promise<Awaited<ReturnType<typeof call>>>, number, string]> = [
    ['unknown route', () => call(server, 'GET', '/v1/nothing-here'), 404, 'NOT_FOUND'],
    ['wrong method', () => call(server, 'PUT', '/v1/decide', { body: decideBody }), 404, 'NOT_FOUND'],
    [
      'malformed JSON',
      () => call(server, 'POST', '/v1/decide', { raw: '{"context": "x", "questions": {', contentType: 'application/json' }),
      400,
      'INVALID_REQUEST',
    ],
    ['empty JSON body', () => call(server, 'POST', '/v1/decide', { raw: '', contentType: 'application/json' }), 400, 'INVALID_REQUEST'],
    ['JSON that is not an object', () => call(server, 'POST', '/v1/decide', { raw: '[1,2]', contentType: 'application/json' }), 400, 'INVALID_REQUEST'],
    ['text/plain body', () => call(server, 'POST', '/v1/decide', { raw: JSON.stringify(decideBody), contentType: 'text/plain' }), 415, 'UNSUPPORTED_MIME_TYPE'],
    ['unknown content type', () => call(server, 'POST', '/v1/decide', { raw: '<x/>', contentType: 'application/xml' }), 415, 'UNSUPPORTED_MIME_TYPE'],
    [
      'body over 256 KiB',
      () => call(server, 'POST', '/v1/decide', { raw: JSON.stringify({ ...decideBody, pad: 'x'.repeat(300_000) }) }),
      413,
      'PAYLOAD_TOO_LARGE',
    ],
  ];

  test.each(cases)('%s', async (_name, send, status, code) => {
    const reply = await send();
    expect(reply.status).toBe(status);
    expect(reply.json?.error?.code).toBe(code);
    expect(typeof reply.json.error.message).toBe('string');
    expect(reply.json.error.request_id).toBe(reply.headers['x-request-id']);
    expect(reply.text).not.toMatch(/at .*\.(ts|js):\d+/);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
  });

  test('a malformed JSON body is not quoted back in the error message', async () => {
    const reply = await call(server, 'POST', '/v1/decide', { raw: '{"context": "SECRET-PAYLOAD-93', contentType: 'application/json' });
    expect(reply.json.error.message).not.toContain('SECRET-PAYLOAD-93');
  });
});

describe('unauthenticated endpoints (seed 4.4)', () => {
  test('GET /health answers without a key', async () => {
    const reply = await call(server, 'GET', '/health', { key: null });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ status: 'ok' });
    expect(reply.headers['x-request-id']).toBeDefined();
  });

  test('GET /openapi.json serves the JSON form of spec/openapi.yaml', async () => {
    const reply = await call(server, 'GET', '/openapi.json', { key: null });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(reply.json).toEqual(openapiDocument);
    expect(reply.json.openapi).toMatch(/^3\.1\./);
  });
});

describe('models (seed 2.6)', () => {
  test('lists svc-one-v1 with its aliases, and decide answers come from it', async () => {
    const models = await call(server, 'GET', '/v1/models');
    expect(models.status).toBe(200);
    expect(validateResponseBody('listModels', 200, models.json, 'reference')?.valid).toBe(true);
    expect(models.json.data).toEqual([{ id: 'svc-one-v1', object: 'model', aliases: ['svc-one-v0', 'svc-one-v0.3'] }]);
    const decision = await call(server, 'POST', '/v1/decide', { body: decideBody });
    expect(decision.json.model).toBe('svc-one-v1');
  });
});

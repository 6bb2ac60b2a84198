// Authentication on every /v1 operation (seed 5) and per-key rate limiting (open point rate-limits).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { operations } from '../../spec/index.ts';
import { call, KEY_A, KEY_B, startServer, type RunningServer } from './support/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server.stop());

const v1Operations = operations.filter((op) => op.requiresKey);
const concretePath = (path: string) => path.replace('{asset_id}', 'asset_0123456789abcdef');

describe('every /v1 operation answers 401 UNAUTHORIZED in the error body', () => {
  const badHeaders: Array<[string, Record<string, string>]> = [
    ['no Authorization header', {}],
    ['an unknown key', { authorization: 'Bearer svc_live_not_a_known_key' }],
    ['a key without the svc_live_ prefix', { authorization: `Bearer ${KEY_A.replace('svc_live_', 'sk_')}` }],
    ['the prefix alone', { authorization: 'Bearer svc_live_' }],
    ['another scheme', { authorization: `Basic ${KEY_A}` }],
    ['a key with a trailing extra token', { authorization: `Bearer ${KEY_A} extra` }],
  ];
  for (const op of v1Operations) {
    test.each(badHeaders)(`${op.method.toUpperCase()} ${op.path} with %s`, async (_name, headers) => {
      const reply = await call(server, op.method.toUpperCase(), concretePath(op.path), { key: null, headers, body: op.method === 'post' ? {} : undefined });
      expect(reply.status).toBe(401);
      expect(reply.json.error.code).toBe('UNAUTHORIZED');
      expect(reply.json.error.request_id).toBe(reply.headers['x-request-id']);
    });
  }
});

test('the Bearer scheme name is case-insensitive (RFC 9110), the key is not', async () => {
  expect((await call(server, 'GET', '/v1/models', { key: null, headers: { authorization: `bearer ${KEY_A}` } })).status).toBe(200);
  expect((await call(server, 'GET', '/v1/models', { key: null, headers: { authorization: `Bearer ${KEY_A.toUpperCase()}` } })).status).toBe(401);
});

test('keys of both projects are accepted', async () => {
  expect((await call(server, 'GET', '/v1/models', { key: KEY_A })).status).toBe(200);
  expect((await call(server, 'GET', '/v1/models', { key: KEY_B })).status).toBe(200);
});

describe('rate limiting', () => {
  let limited: RunningServer;
  beforeAll(async () => {
    limited = await startServer({ rateLimit: { perSecond: 1, burst: 2 } });
  });
  afterAll(async () => limited.stop());

  test('over the per-key budget: 429 RATE_LIMITED with Retry-After; other keys unaffected; refills with time', async () => {
    expect((await call(limited, 'GET', '/v1/models')).status).toBe(200);
    expect((await call(limited, 'GET', '/v1/models')).status).toBe(200);
    const third = await call(limited, 'GET', '/v1/models');
    expect(third.status).toBe(429);
    expect(third.json.error.code).toBe('RATE_LIMITED');
    expect(Number(third.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await call(limited, 'GET', '/v1/models', { key: KEY_B })).status).toBe(200);
    limited.advance(1_000);
    expect((await call(limited, 'GET', '/v1/models')).status).toBe(200);
  });

  test('the 429 is the seed error body with its request id and a Retry-After of the whole seconds until the next token; a refused key is still 401', async () => {
    const bucket = await startServer({ startAt: Date.now(), rateLimit: { perSecond: 2, burst: 1 } }); // a clock that moves only when told
    try {
      expect((await call(bucket, 'POST', '/v1/decide', { body: { context: 'x', questions: {} } })).status).not.toBe(429);
      const refused = await call(bucket, 'GET', '/v1/models');
      expect([refused.status, refused.headers['content-type'], refused.headers['retry-after']]).toEqual([429, 'application/json; charset=utf-8', '1']);
      expect(refused.json).toEqual({
        error: { code: 'RATE_LIMITED', message: 'Rate limit exceeded for this key; retry in 1 s.', request_id: refused.headers['x-request-id'] },
      });
      expect(Object.keys(refused.headers).filter((name) => name.startsWith('x-ratelimit'))).toEqual([]);
      // One bucket per key across every /v1 operation, uploads included (the limit runs before the body is read).
      for (const op of v1Operations) {
        const reply = await call(bucket, op.method.toUpperCase(), concretePath(op.path), { body: op.method === 'post' ? {} : undefined });
        expect([`${op.method} ${op.path}`, reply.status, reply.json.error.code]).toEqual([`${op.method} ${op.path}`, 429, 'RATE_LIMITED']);
      }
      // Authentication comes first: an unknown key is told so, not rate limited.
      expect((await call(bucket, 'GET', '/v1/models', { key: 'svc_live_not_a_known_key' })).status).toBe(401);
      // A token every 500 ms: half a second later one request passes, and the next is limited again.
      bucket.advance(499);
      expect((await call(bucket, 'GET', '/v1/models')).status).toBe(429);
      bucket.advance(1);
      expect((await call(bucket, 'GET', '/v1/models')).status).toBe(200);
      expect((await call(bucket, 'GET', '/v1/models')).status).toBe(429);
    } finally {
      await bucket.stop();
    }
  });
});

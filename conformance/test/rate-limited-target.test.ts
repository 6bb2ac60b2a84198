// Rate limits are an open point (seed 8): a server may answer 429 RATE_LIMITED at any time. Such an
// answer says nothing about the rule a check judges, so the HTTP layer sends the request again after
// Retry-After and the check judges the next answer. Proven with a proxy that rate-limits every second
// request, and bounded: a server that answers nothing but 429 still fails.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../api/embedded-target.ts';
import { startMutatingProxy, type Mutation, type RunningProxy } from '../../harness/testing/mutating-proxy.ts';
import { runOneCheck } from './support/run-check.ts';

function rateLimitEvery(nth: number): Mutation {
  let seen = 0;
  return {
    answer() {
      seen += 1;
      if (seen % nth !== 0) return undefined;
      const body = { error: { code: 'RATE_LIMITED', message: 'Too many requests.', request_id: `req_${seen.toString(16).padStart(8, '0')}` } };
      return {
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '0', 'x-request-id': body.error.request_id },
        body: Buffer.from(JSON.stringify(body)),
      };
    },
  };
}

describe('a target that rate-limits', () => {
  let target: EmbeddedTarget;
  const proxies: RunningProxy[] = [];
  beforeAll(async () => {
    target = await startEmbeddedTarget();
  });
  afterAll(async () => {
    await Promise.all(proxies.map((proxy) => proxy.close()));
    await target?.stop();
  });
  const through = async (mutation: Mutation) => {
    const proxy = await startMutatingProxy(target.baseUrl, mutation);
    proxies.push(proxy);
    return { baseUrl: proxy.baseUrl, keyA: target.keyA, keyB: target.keyB };
  };

  test.each(['AUTH-KEY-WITHOUT-SCHEME', 'AUTH-MISSING-KEY', 'ISOLATION-GET-FORBIDDEN', 'DECIDE-CHOICE-MARGIN', 'LIMIT-QUESTIONS-16-17'])(
    '%s passes when every second request is answered 429, and says how many were sent again',
    async (id) => {
      const result = await runOneCheck(id, await through(rateLimitEvery(2)));
      expect(result.status, result.message).toBe('pass');
      expect(result.notes.join('\n')).toMatch(/[1-9]\d* requests answered 429 were sent again after the Retry-After wait\./);
    },
  );

  test('a server that answers nothing but 429 still fails: the retries are bounded', async () => {
    const result = await runOneCheck('AUTH-VALID-KEY', await through(rateLimitEvery(1)));
    expect(result.status).toBe('fail');
    expect(result.message).toMatch(/429/);
  });
});

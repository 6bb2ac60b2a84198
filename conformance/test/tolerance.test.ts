// Seed 2.4 and 9: responses may gain new optional fields and callers ignore them. The kit is such
// a caller: a server whose every response object carries extra fields fails no check that the
// same server passes without them.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runnerTargetOf, startEmbeddedTarget, type EmbeddedTarget } from '../../api/embedded-target.ts';
import { propertyChecks } from '../../property/registry.ts';
import { checks } from '../registry.ts';
import { runChecks } from '../../harness/runner.ts';
import { rewriteJson, startMutatingProxy, type RunningProxy } from '../../harness/testing/mutating-proxy.ts';

/** Adds fields to records (never to maps keyed by the caller's ids: answers, probabilities, options). */
function withExtraFields(body: any): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const extended: any = { ...body, service_tier: 'beta', trace: { region: 'eu-west', shard: 7 } };
  if (typeof body.answers === 'object' && body.answers !== null) {
    extended.answers = Object.fromEntries(
      Object.entries(body.answers).map(([id, answer]) => [id, { ...(answer as object), calibration: 'v2', explanation: null }]),
    );
  }
  if (typeof body.usage === 'object' && body.usage !== null) extended.usage = { ...body.usage, cached_input_tokens: 0 };
  if (typeof body.error === 'object' && body.error !== null) extended.error = { ...body.error, docs_url: 'https://docs.example/errors', retryable: false };
  if (Array.isArray(body.data)) extended.data = body.data.map((item: unknown) => (typeof item === 'object' && item !== null ? { ...item, created: 0 } : item));
  return extended;
}

let target: EmbeddedTarget;
let proxy: RunningProxy;
beforeAll(async () => {
  target = await startEmbeddedTarget();
  proxy = await startMutatingProxy(target.baseUrl, {
    response: (received, sent) =>
      sent.path === '/openapi.json' ? received : { ...rewriteJson(received, withExtraFields), headers: { ...received.headers, 'x-served-by': 'edge-3' } },
  });
});
afterAll(async () => {
  await proxy.close();
  await target.stop();
});

test('the proxy really extends responses', async () => {
  const response = await fetch(`${proxy.baseUrl}/v1/decide`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.keyA}`, 'content-type': 'application/json' },
    body: JSON.stringify({ context: 'refund please', questions: { q: { type: 'choice', options: { billing: 'refunds', shipping: '' } } } }),
  });
  const body = (await response.json()) as any;
  expect(body).toMatchObject({ service_tier: 'beta', usage: { cached_input_tokens: 0 }, answers: { q: { calibration: 'v2' } } });
});

test('every check gives the same outcome with extra response fields as without them', async () => {
  const options = (baseUrl: string) => ({
    ...runnerTargetOf(target, baseUrl),
    timeoutMs: 10_000,
  });
  const suites = [...checks, ...propertyChecks.filter((check) => check.id !== 'PROP-ASSET-LIFECYCLE')];
  const extended = await runChecks(suites, { ...options(proxy.baseUrl), numRuns: 20, checkTimeoutMs: 120_000 });
  const failing = extended.filter((result) => result.status === 'fail').map((result) => `${result.id}: ${result.message}`);
  expect(failing).toEqual([]);
  expect(extended.filter((result) => result.status === 'pass').length).toBeGreaterThan(100);
}, 180_000);

// The bundle k6 and the Node runner judge responses with is what its sources build, and it
// judges as load/rules/ does: the committed file, the spec's contract form and the answer rules agree.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { responseJudge as bundledJudge } from '../definitions/response-rules.js';
import { responseJudge as sourceJudge } from '../rules/bundle.ts';
import { responseRulesPath, responseRulesSource } from '../scripts/generate-response-rules.ts';

test('load/definitions/response-rules.js is what its sources build (npx tsx load/scripts/generate-response-rules.ts), and stays small', {
  timeout: 60_000,
}, async () => {
  const committed = readFileSync(responseRulesPath, 'utf8');
  expect(committed).toBe(await responseRulesSource());
  // The validators of five responses, not the whole spec: k6 loads it into every virtual user.
  expect(Buffer.byteLength(committed)).toBeLessThan(64 * 1024);
});

const request = {
  name: 'decide',
  method: 'POST',
  path: '/v1/decide',
  headers: { 'x-request-id': 'load.test.1' },
  expect: { operation: 'decide', questions: { topic: { type: 'choice', options: { billing: '', shipping: '' } } } },
};
const answer = {
  type: 'choice',
  choice: 'billing',
  confidence: 0.5,
  probabilities: { billing: 0.75, shipping: 0.25 },
  abstain: false,
  abstention_status: 'advisory',
};
const reply = (body: unknown, headers: Record<string, string> = { 'x-request-id': 'load.test.1' }, status = 200) => ({
  status,
  headers,
  body: JSON.stringify(body),
});
const good = { model: 'svc-one-v1', answers: { topic: answer }, usage: { input_tokens: 12 } };

test.each([
  ['a good answer', good, {}, []],
  ['a margin that is not top-1 minus top-2', { ...good, answers: { topic: { ...answer, confidence: 0.3 } } }, {}, ['decide choice-margin']],
  ['a missing answer', { ...good, answers: {} }, {}, ['decide answer-ids']],
  ['another request id', good, { 'x-request-id': 'req_other' }, ['decide request-id']],
  ['no usage', { model: 'svc-one-v1', answers: good.answers }, {}, ['decide contract-body', 'decide input-tokens']],
] as const)('the bundled judge and its sources agree on %s', (_case, body, headers, failing) => {
  const response = reply(body, Object.keys(headers).length > 0 ? { ...headers } : undefined);
  for (const judge of [bundledJudge(), sourceJudge()]) {
    const judgement = judge(request, response);
    expect(judgement.failures.map((failure) => failure.check).sort()).toEqual([...failing].sort());
    expect(
      Object.entries(judgement.checks)
        .filter(([, ok]) => !ok)
        .map(([name]) => name)
        .sort(),
    ).toEqual([...failing].sort());
  }
});

test('with VALIDATE_EVERY 3, body and answers are judged on every third response only; status and request id on all', () => {
  const judge = bundledJudge(3);
  const judged = Array.from({ length: 6 }, () => judge(request, reply({ ...good, answers: {} })));
  expect(judged.map((judgement) => judgement.validated)).toEqual([false, false, true, false, false, true]);
  expect(judged.map((judgement) => judgement.failures.length > 0)).toEqual([false, false, true, false, false, true]);
  expect(judged.every((judgement) => judgement.checks['decide status'] === true && judgement.checks['decide request-id'] === true)).toBe(true);
});

test('a 4xx to a request of an open-point shape is a refusal, not a failed status; its error body is still judged', () => {
  const feedback = {
    name: 'feedback',
    method: 'POST',
    path: '/v1/feedback',
    headers: { 'x-request-id': 'load.test.2' },
    expect: { operation: 'submitFeedback', openPoint: 'feedback-shape' },
  };
  const refusal = bundledJudge()(
    feedback,
    reply({ error: { code: 'INVALID_REQUEST', message: 'unknown field', request_id: 'load.test.2' } }, { 'x-request-id': 'load.test.2' }, 422),
  );
  expect(refusal.refused).toBe('feedback-shape');
  expect(refusal.failures).toEqual([]);
  const wrongId = bundledJudge()(
    feedback,
    reply({ error: { code: 'INVALID_REQUEST', message: 'unknown field', request_id: 'req_other' } }, { 'x-request-id': 'load.test.2' }, 422),
  );
  expect(wrongId.failures.map((failure) => failure.check)).toEqual(['feedback error-request-id']);
  // 401 and 429 are no refusal of a shape.
  expect(
    bundledJudge()(feedback, reply({ error: { code: 'RATE_LIMITED', message: 'slow down', request_id: null } }, { 'x-request-id': 'load.test.2' }, 429))
      .refused,
  ).toBeUndefined();
});

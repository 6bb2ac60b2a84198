// What the old run relied on, as pure comparisons.
import { expect, test } from 'vitest';
import { outcomeChanges } from '../outcome.ts';

const response = (status: number, body: unknown, headers: Record<string, string> = { 'x-request-id': 'req_1' }) => ({
  status,
  headers,
  body: typeof body === 'string' ? body : JSON.stringify(body),
});
const decided = {
  model: 'svc-one-v1',
  answers: { topic: { type: 'choice', choice: 'a', confidence: 0.5, probabilities: { a: 0.7, b: 0.3 }, abstain: false, abstention_status: 'advisory' } },
  usage: { input_tokens: 3 },
};

test('the same shape with other values and new fields is no change (seed 9.3)', () => {
  const now = structuredClone(decided) as any;
  now.answers.topic.confidence = 0.1;
  now.answers.topic.rationale = 'new optional field';
  now.latency_ms = 12;
  expect(outcomeChanges(response(200, decided), response(200, now, { 'x-request-id': 'req_2' }))).toEqual([]);
});

test('status, error code, top-level fields, answer ids and answer fields the old run relied on', () => {
  expect(outcomeChanges(response(200, decided), response(201, decided))).toEqual(['status 200 became 201']);
  const error = (code: string) => ({ error: { code, message: 'm', request_id: 'req_1' } });
  expect(outcomeChanges(response(400, error('INVALID_REQUEST')), response(400, error('BAD_REQUEST')))).toEqual([
    'error code INVALID_REQUEST became BAD_REQUEST',
  ]);
  const { usage: _usage, ...noUsage } = decided;
  expect(outcomeChanges(response(200, decided), response(200, noUsage))).toEqual(['field "usage" is gone']);
  expect(outcomeChanges(response(200, decided), response(200, { ...decided, answers: {} }))).toEqual(['answer "topic" is gone']);
  const noAbstain = structuredClone(decided) as any;
  delete noAbstain.answers.topic.abstain;
  expect(outcomeChanges(response(200, decided), response(200, noAbstain))).toEqual(['field "abstain" of answer "topic" is gone']);
  expect(outcomeChanges(response(200, decided), response(200, decided, {}))).toEqual(['the X-Request-ID header is gone']);
  expect(outcomeChanges(response(200, decided), response(200, 'not json'))).toEqual(['the body is no longer a JSON object']);
});

test('a body recorded as an excerpt is judged on status and headers only', () => {
  const excerpt = `${'x'.repeat(2000)}… (4100 characters)`;
  expect(outcomeChanges(response(200, excerpt), response(200, '{}'))).toEqual([]);
  expect(outcomeChanges(response(200, excerpt), response(500, '{}'))).toEqual(['status 200 became 500']);
});

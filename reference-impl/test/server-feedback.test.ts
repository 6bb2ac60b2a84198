// POST /v1/feedback: linked to a decision of the same project, stored durably (open point feedback-shape).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { validateResponseBody } from '../../spec/index.ts';
import { call, choiceQuestion, KEY_B, startServer, type RunningServer } from './support/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server.stop());

async function decision(requestId: string): Promise<void> {
  const reply = await call(server, 'POST', '/v1/decide', {
    body: { context: 'refund please', questions: { topic: choiceQuestion(), 'second q': choiceQuestion() } },
    headers: { 'x-request-id': requestId },
  });
  expect(reply.status).toBe(200);
}

test('feedback on a decision of the project is recorded: 201 with the record', async () => {
  await decision('fb-flow-1');
  const reply = await call(server, 'POST', '/v1/feedback', { body: { request_id: 'fb-flow-1', answers: { topic: { correct: true } }, comment: 'right' } });
  expect(reply.status).toBe(201);
  expect(validateResponseBody('submitFeedback', 201, reply.json, 'reference')?.valid).toBe(true);
  expect(reply.json).toMatchObject({ object: 'feedback', request_id: 'fb-flow-1', answers: { topic: { correct: true } }, comment: 'right' });
});

test('a second report on the same question is 409 CONFLICT; another question is still accepted', async () => {
  await decision('fb-flow-2');
  expect((await call(server, 'POST', '/v1/feedback', { body: { request_id: 'fb-flow-2', answers: { topic: { correct: false } } } })).status).toBe(201);
  const again = await call(server, 'POST', '/v1/feedback', { body: { request_id: 'fb-flow-2', answers: { topic: { correct: true } } } });
  expect([again.status, again.json.error.code]).toEqual([409, 'CONFLICT']);
  expect((await call(server, 'POST', '/v1/feedback', { body: { request_id: 'fb-flow-2', answers: { 'second q': { correct: true } } } })).status).toBe(201);
});

test('unknown decision, or one of another project: 404 NOT_FOUND', async () => {
  await decision('fb-flow-3');
  const unknown = await call(server, 'POST', '/v1/feedback', { body: { request_id: 'never-decided', answers: { topic: { correct: true } } } });
  expect([unknown.status, unknown.json.error.code]).toEqual([404, 'NOT_FOUND']);
  const foreign = await call(server, 'POST', '/v1/feedback', { key: KEY_B, body: { request_id: 'fb-flow-3', answers: { topic: { correct: true } } } });
  expect([foreign.status, foreign.json.error.code]).toEqual([404, 'NOT_FOUND']);
});

test('a question the decision did not have, or a malformed body: 400 INVALID_REQUEST', async () => {
  await decision('fb-flow-4');
  const unknownQuestion = await call(server, 'POST', '/v1/feedback', { body: { request_id: 'fb-flow-4', answers: { nope: { correct: true } } } });
  expect([unknownQuestion.status, unknownQuestion.json.error.code]).toEqual([400, 'INVALID_REQUEST']);
  for (const body of [
    {},
    { request_id: 'fb-flow-4', answers: {} },
    { request_id: 'fb-flow-4', answers: { topic: { correct: 'yes' } } },
    { request_id: 'fb-flow-4', answers: { topic: { correct: true } }, rating: 5 },
  ]) {
    const reply = await call(server, 'POST', '/v1/feedback', { body });
    expect([reply.status, reply.json.error.code]).toEqual([400, 'INVALID_REQUEST']);
  }
});

test('decisions and feedback survive a restart', async () => {
  const first = await startServer();
  await call(first, 'POST', '/v1/decide', { body: { context: 'refund', questions: { topic: choiceQuestion() } }, headers: { 'x-request-id': 'durable-1' } });
  expect((await call(first, 'POST', '/v1/feedback', { body: { request_id: 'durable-1', answers: { topic: { correct: true } } } })).status).toBe(201);
  await first.stop({ keepData: true });
  const lines = readFileSync(join(first.dataDir, 'decisions', 'feedback.jsonl'), 'utf8')
    .trim()
    .split('\n');
  expect(lines).toHaveLength(1);

  const second = await startServer({ dataDir: first.dataDir });
  try {
    const again = await call(second, 'POST', '/v1/feedback', { body: { request_id: 'durable-1', answers: { topic: { correct: true } } } });
    expect(again.json.error.code).toBe('CONFLICT');
  } finally {
    await second.stop();
  }
});

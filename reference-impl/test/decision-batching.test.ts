// Dynamic batching: decisions that arrive together share one ONNX run, and each gets exactly the
// answers it gets alone (same bits, every question type, requests of different shapes mixed).
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Schemas } from '../../spec/index.ts';
import { createDecisionEngine, type DecisionEngine } from '../decision/index.ts';
import { MAX_BATCH_REQUESTS } from '../decision/batching.ts';

const CONTEXTS = [
  'I was charged twice for my order and I want a refund of the duplicate payment.',
  'My parcel has not arrived yet, the delivery is two weeks late and tracking shows nothing.',
  'The weather is lovely today and the garden is full of flowers.',
  'I did not ask for a refund, I only want the missing shoe delivered. '.repeat(40),
  '...',
  'Der Artikel kam beschädigt an; ich möchte ihn zurückgeben und eine Erstattung.',
];

function questionsFor(seed: number): Schemas['Questions'] {
  const optionCount = 2 + (seed % 5);
  const options = Object.fromEntries(
    ['billing payments refunds', 'shipping delivery tracking', 'returns exchanges', 'damaged broken item', 'account login password', 'other']
      .slice(0, optionCount)
      .map((text, i) => [`o${i}_${seed % 3}`, i === optionCount - 1 ? '' : text]),
  );
  const questions: Schemas['Questions'] = {
    topic: { type: 'choice', options },
    refund: { type: 'noul', instructions: 'Does the customer ask for a refund?' },
    issues: { type: 'multi', options: Object.fromEntries(Object.keys(options).map((id) => [id, null])) },
    late: { type: 'score', instructions: 'Is the delivery late?' },
  };
  // Some requests ask a single question, some sixteen: rows of different counts and widths.
  if (seed % 4 === 0) return { only: questions.topic! };
  if (seed % 4 === 1) return Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`q${i}`, Object.values(questions)[i % 4]!]));
  return questions;
}

const requests = Array.from({ length: 3 * MAX_BATCH_REQUESTS }, (_, i) => ({ context: CONTEXTS[i % CONTEXTS.length]!, questions: questionsFor(i) }));

let engine: DecisionEngine;
beforeAll(async () => {
  engine = await createDecisionEngine();
});
afterAll(async () => engine.close());

const plain = (decision: Awaited<ReturnType<DecisionEngine['decide']>>) => JSON.parse(JSON.stringify(decision));

test('decisions sent together share runs and get exactly the answers they get alone', async () => {
  const alone = [];
  for (const request of requests) alone.push(plain(await engine.decide(request.context, request.questions)));

  const runsBefore = engine.stats.onnxRuns;
  const together = (await Promise.all(requests.map((request) => engine.decide(request.context, request.questions)))).map(plain);
  const runs = engine.stats.onnxRuns - runsBefore;

  expect(together).toEqual(alone);
  // The comparison can tell requests apart: different requests do get different answers.
  expect(alone[0]).not.toEqual(alone[1]);
  // Batched, not one run each: at most one run per width present per MAX_BATCH_REQUESTS requests.
  const widths = new Set(
    requests.map((request) =>
      Math.max(...Object.values(request.questions).map((q) => (q.type === 'noul' ? 3 : q.type === 'score' ? 1 : Object.keys(q.options).length))),
    ),
  );
  expect(runs).toBeLessThanOrEqual(widths.size * Math.ceil(requests.length / MAX_BATCH_REQUESTS) + widths.size);
  expect(runs).toBeLessThan(requests.length / 4);
});

test('a lone decision gets a run of its own, on the next turn, without waiting for company', async () => {
  const runsBefore = engine.stats.onnxRuns;
  const decisionsBefore = engine.stats.scoredDecisions;
  let turns = 0;
  let counting = true;
  const countTurns = () => {
    if (!counting) return;
    turns += 1;
    setImmediate(countTurns);
  };
  setImmediate(countTurns);
  await engine.decide(CONTEXTS[0]!, questionsFor(2));
  counting = false;
  expect(engine.stats.onnxRuns - runsBefore).toBe(1);
  expect(engine.stats.scoredDecisions - decisionsBefore).toBe(1);
  // Queued for one turn, run by onnxruntime-node on the next: no timer, no batching window.
  expect(turns).toBeLessThanOrEqual(3);
});

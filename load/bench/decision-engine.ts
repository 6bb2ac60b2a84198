// Latency of the decision engine: `npx tsx load/bench/decision-engine.ts [iterations]`.
//
// Times, for a 1,000-character context and one choice question of 4 options:
// - engine.decide end to end (features, packing, one session run, answers);
// - the ONNX session run alone, on the batch that request packs to.
// Prints median and p99 in milliseconds; asserts nothing (figures depend on the machine).
import { performance } from 'node:perf_hooks';
import type { Schemas } from '../../spec/index.ts';
import { packBatch } from '../../reference-impl/decision/batch.ts';
import { resolveCalibration } from '../../reference-impl/decision/calibration.ts';
import { createDecisionEngine } from '../../reference-impl/decision/engine.ts';
import { contextVector } from '../../reference-impl/decision/features.ts';
import { layoutQuestions } from '../../reference-impl/decision/layout.ts';
import { buildDecisionModel } from '../../reference-impl/decision/model.ts';
import { openScoringSession } from '../../reference-impl/decision/session.ts';

const ITERATIONS = Number(process.argv[2] ?? 2000);
const WARM_UP = 200;
const CONTEXT_LENGTH = 1000;

const SUPPORT_MESSAGE =
  'Hello, I ordered a pair of running shoes two weeks ago (order 55120) and paid by card. ' +
  'The tracking page has said "in transit" for nine days and the courier does not answer. ' +
  'Yesterday I noticed that my card was charged twice for the same order, so I would like a ' +
  'refund of the duplicate payment and an update on the delivery. ';

function contextOfLength(length: number): string {
  return SUPPORT_MESSAGE.repeat(Math.ceil(length / SUPPORT_MESSAGE.length)).slice(0, length);
}

const QUESTIONS: Schemas['Questions'] = {
  topic: {
    type: 'choice',
    options: {
      billing: 'Payments, charges, refunds and invoices',
      shipping: 'Delivery, tracking and couriers',
      returns: 'Returning or exchanging an item',
      other: '',
    },
  },
};

interface Summary {
  median: number;
  p99: number;
  mean: number;
}

function summarise(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { median: at(0.5), p99: at(0.99), mean: samples.reduce((sum, s) => sum + s, 0) / samples.length };
}

async function time(iterations: number, action: () => Promise<unknown>): Promise<Summary> {
  for (let i = 0; i < WARM_UP; i += 1) await action();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i += 1) {
    const start = performance.now();
    await action();
    samples.push(performance.now() - start);
  }
  return summarise(samples);
}

const format = (s: Summary): string => `median ${s.median.toFixed(3)} ms   p99 ${s.p99.toFixed(3)} ms   mean ${s.mean.toFixed(3)} ms`;

const context = contextOfLength(CONTEXT_LENGTH);

const buildStart = performance.now();
const modelBytes = buildDecisionModel();
const buildMs = performance.now() - buildStart;

const engine = await createDecisionEngine();
const decideSummary = await time(ITERATIONS, () => engine.decide(context, QUESTIONS));
const runsPerDecide = engine.stats.onnxRuns / (ITERATIONS + WARM_UP);
await engine.close();

const session = await openScoringSession(modelBytes);
const batch = packBatch(
  contextVector(context),
  layoutQuestions(QUESTIONS).map((row) => row.cells),
  resolveCalibration().temperature,
);
const runSummary = await time(ITERATIONS, () => session.run(batch));
await session.release();

console.log(
  `decision engine benchmark: ${CONTEXT_LENGTH}-character context, 1 choice question of 4 options, ${ITERATIONS} iterations after ${WARM_UP} warm-up`,
);
console.log(
  `model: ${modelBytes.length} bytes, built in ${buildMs.toFixed(2)} ms; ${batch.contextWeights.length} context features, ${batch.probeIds.length} probe features`,
);
console.log(`engine.decide   ${format(decideSummary)}   (${runsPerDecide} session run per decide)`);
console.log(`session.run     ${format(runSummary)}`);

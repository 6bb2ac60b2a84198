// decide-steady: decisions arriving at a constant rate, whatever the server does (open loop:
// queueing shows as latency). Text contexts of three sizes, 1 or 16 questions, of every type the target claims.
import { cycled, runId, decideRequest, setting, target, thresholds, vusFor, questionTypes } from './common.js';
import { seedFigures } from './seed-figures.js';

/** Context sizes in characters: a short message, a long one, and one near the seed's limit. */
/** @type {readonly [number, ...number[]]} */
const CONTEXT_SIZES = [80, 1000, seedFigures.maxContextChars - 500];
/** @type {readonly [number, ...number[]]} */
const QUESTION_COUNTS = [1, seedFigures.maxQuestions];

/** @returns {import('./common.js').ScenarioDefinition} */
export function scenario(/** @type {import('./common.js').Settings} */ env) {
  const { apiKey } = target(env);
  const run = runId(env);
  const types = questionTypes(env);
  const rate = setting(env, 'RATE', 20);
  const durationS = setting(env, 'DURATION', 20);
  return {
    name: 'decide-steady',
    description: `POST /v1/decide at ${rate}/s for ${durationS} s: contexts of ${CONTEXT_SIZES.join(', ')} characters, ${QUESTION_COUNTS.join(' or ')} questions of every type`,
    executor: { executor: 'constant-arrival-rate', rate, timeUnit: '1s', duration: `${durationS}s`, preAllocatedVUs: vusFor(rate), maxVUs: vusFor(rate) * 4 },
    thresholds: thresholds(env, { p95Ms: 250, p99Ms: 500, errorRate: 0.01, checkRate: 0.99 }),
    requestNames: ['decide'],
    timelineWindowS: setting(env, 'WINDOW_S', Math.max(1, Math.ceil(durationS / 20))),
    async iteration(index, io) {
      // Index -> shape: every size meets every question count, in a fixed order.
      const shape = index % (CONTEXT_SIZES.length * QUESTION_COUNTS.length);
      await io.send(
        decideRequest({
          apiKey,
          requestId: `load.decide-steady.${run}.${index}`,
          index,
          contextChars: cycled(CONTEXT_SIZES, shape),
          questionCount: cycled(QUESTION_COUNTS, Math.floor(shape / CONTEXT_SIZES.length)),
          types,
        }),
      );
    },
  };
}

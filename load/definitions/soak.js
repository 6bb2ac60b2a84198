// soak: a moderate constant rate for a bounded time; its verdict compares the first and last
// windows (latency drift) and, where the runner can see the server process, its memory.
import { runId, decideRequest, setting, target, thresholds, vusFor, questionTypes } from './common.js';
import { driftLimits } from './drift.js';

/** @returns {import('./common.js').ScenarioDefinition} */
export function scenario(/** @type {import('./common.js').Settings} */ env) {
  const { apiKey } = target(env);
  const run = runId(env);
  const types = questionTypes(env);
  const rate = setting(env, 'RATE', 20);
  const durationS = setting(env, 'DURATION', 120);
  return {
    name: 'soak',
    description: `POST /v1/decide at ${rate}/s for ${durationS} s, latency drift between the first and last windows`,
    executor: { executor: 'constant-arrival-rate', rate, timeUnit: '1s', duration: `${durationS}s`, preAllocatedVUs: vusFor(rate), maxVUs: vusFor(rate) * 4 },
    thresholds: thresholds(env, { p95Ms: 250, p99Ms: 500, errorRate: 0.01, checkRate: 0.99 }),
    requestNames: ['decide'],
    timelineWindowS: setting(env, 'WINDOW_S', Math.max(1, Math.ceil(durationS / 12))),
    drift: driftLimits(env),
    async iteration(index, io) {
      await io.send(decideRequest({ apiKey, requestId: `load.soak.${run}.${index}`, index, contextChars: 1000, questionCount: 1 + (index % 16), types }));
    },
  };
}

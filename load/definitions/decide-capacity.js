// decide-capacity: a closed loop (each virtual user sends its next decision when the last one
// is answered) for a fixed time: the throughput the server sustains, and the latency at it.
// The scenario `load compare` reads best, since throughput here is the server's, not a set rate.
import { decideRequest, runId, setting, target, thresholds, questionTypes } from './common.js';

/** @returns {import('./common.js').ScenarioDefinition} */
export function scenario(/** @type {import('./common.js').Settings} */ env) {
  const { apiKey } = target(env);
  const run = runId(env);
  const types = questionTypes(env);
  const vus = setting(env, 'VUS', 8);
  const durationS = setting(env, 'DURATION', 10);
  return {
    name: 'decide-capacity',
    description: `POST /v1/decide from ${vus} virtual users in a closed loop for ${durationS} s`,
    executor: { executor: 'constant-vus', vus, duration: `${durationS}s` },
    thresholds: thresholds(env, { p95Ms: 250, p99Ms: 500, errorRate: 0.01, checkRate: 0.99 }),
    requestNames: ['decide'],
    timelineWindowS: setting(env, 'WINDOW_S', Math.max(1, Math.ceil(durationS / 20))),
    async iteration(index, io) {
      await io.send(
        decideRequest({ apiKey, requestId: `load.decide-capacity.${run}.${index}`, index, contextChars: 300, questionCount: 1 + (index % 4), types }),
      );
    },
  };
}

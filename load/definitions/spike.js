// spike: a quiet base rate, a sudden climb to a peak, a hold, and back: does the server recover
// (latency and errors after the spike back to those before it)?
import { runId, decideRequest, setting, target, thresholds, vusFor, questionTypes } from './common.js';

/** @returns {import('./common.js').ScenarioDefinition} */
export function scenario(/** @type {import('./common.js').Settings} */ env) {
  const { apiKey } = target(env);
  const run = runId(env);
  const types = questionTypes(env);
  const base = setting(env, 'RATE', 10);
  const peak = setting(env, 'PEAK_RATE', base * 8);
  const durationS = setting(env, 'DURATION', 20);
  // Phases as fractions of the duration: base, climb, peak, fall, base.
  const phase = (/** @type {number} */ fraction) => `${Math.max(1, Math.round(durationS * fraction))}s`;
  return {
    name: 'spike',
    description: `POST /v1/decide at ${base}/s, climbing to ${peak}/s and back, over about ${durationS} s`,
    executor: {
      executor: 'ramping-arrival-rate',
      startRate: base,
      timeUnit: '1s',
      stages: [
        { target: base, duration: phase(0.25) },
        { target: peak, duration: phase(0.1) },
        { target: peak, duration: phase(0.3) },
        { target: base, duration: phase(0.1) },
        { target: base, duration: phase(0.25) },
      ],
      preAllocatedVUs: vusFor(peak),
      maxVUs: vusFor(peak) * 4,
    },
    thresholds: thresholds(env, { p95Ms: 500, p99Ms: 1000, errorRate: 0.01, checkRate: 0.99 }),
    requestNames: ['decide'],
    timelineWindowS: setting(env, 'WINDOW_S', 1),
    async iteration(index, io) {
      await io.send(decideRequest({ apiKey, requestId: `load.spike.${run}.${index}`, index, contextChars: 300, questionCount: 1 + (index % 4), types }));
    },
  };
}

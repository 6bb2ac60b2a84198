// cold-start: the first call a client makes, then a short steady series, then an idle period
// and one more call. The first call may take up to the seed's cold-start allowance (clients wait
// at least the seed's client timeout); the call after the idle period is compared with the
// steady series' median in the report.
import { runId, decideRequest, setting, target, thresholds, questionTypes } from './common.js';
import { seedFigures } from './seed-figures.js';

/** @returns {import('./common.js').ScenarioDefinition} */
export function scenario(/** @type {import('./common.js').Settings} */ env) {
  const { apiKey } = target(env);
  const run = runId(env);
  const types = questionTypes(env);
  const steadyCount = setting(env, 'STEADY_COUNT', 20);
  const idleS = setting(env, 'IDLE_S', 5);
  const allowanceMs = seedFigures.coldStartAllowanceS * 1000;
  return {
    name: 'cold-start',
    description: `one first decide (allowed ${seedFigures.coldStartAllowanceS} s), ${steadyCount} steady decides, ${idleS} s idle, one decide after the idle period`,
    executor: { executor: 'per-vu-iterations', vus: 1, iterations: 1, maxDuration: `${seedFigures.clientTimeoutS * 2 + idleS}s` },
    // Every call, the first included, must come back within the cold-start allowance.
    thresholds: thresholds(env, { p95Ms: allowanceMs, p99Ms: allowanceMs, errorRate: 0.01, checkRate: 0.99 }),
    requestNames: ['decide_first', 'decide', 'decide_after_idle'],
    timelineWindowS: setting(env, 'WINDOW_S', 1),
    async iteration(index, io) {
      const request = (/** @type {string} */ name, /** @type {number} */ n) => ({
        ...decideRequest({ apiKey, requestId: `load.cold-start.${run}.${n}`, index: n, contextChars: 200, questionCount: 1, types }),
        name,
      });
      await io.send(request('decide_first', index * 1000));
      for (let n = 1; n <= steadyCount; n++) await io.send(request('decide', index * 1000 + n));
      await io.pause(idleS);
      await io.send(request('decide_after_idle', index * 1000 + steadyCount + 1));
    },
  };
}

// Facts of an executor both runners need: how long it plans to run, and the timeline windows
// the report draws latency percentiles in.

const UNIT_SECONDS = { ms: 0.001, s: 1, m: 60, h: 3600 };

/** Seconds in a k6 duration such as "20s", "1.5m", "250ms", "1h". */
export function durationSeconds(/** @type {string} */ text) {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(text);
  if (!match) throw new Error(`unsupported duration "${text}" (use e.g. 250ms, 20s, 2m, 1h)`);
  // The pattern matched, so its second group is one of UNIT_SECONDS's keys.
  const unit = /** @type {keyof typeof UNIT_SECONDS} */ (match[2]);
  return Number(match[1]) * UNIT_SECONDS[unit];
}

/** How long the executor plans to run, in seconds (per-vu-iterations: its maxDuration, an upper bound). */
export function plannedDurationS(/** @type {import('./common.js').Executor} */ executor) {
  switch (executor.executor) {
    case 'constant-arrival-rate':
    case 'constant-vus':
      return durationSeconds(executor.duration);
    case 'ramping-arrival-rate':
      return executor.stages.reduce((total, stage) => total + durationSeconds(stage.duration), 0);
    case 'per-vu-iterations':
      return durationSeconds(executor.maxDuration);
  }
}

/**
 * Iterations a constant-arrival-rate executor plans (rate × duration); undefined for others.
 * k6 sometimes starts one more at the very end of the duration: runners skip iterations past
 * the plan, so k6 and the Node runner send exactly the same requests.
 */
export function plannedIterations(/** @type {import('./common.js').Executor} */ executor) {
  if (executor.executor !== 'constant-arrival-rate') return undefined;
  return Math.round((executor.rate / durationSeconds(executor.timeUnit)) * durationSeconds(executor.duration));
}

/** The most windows a timeline has: later requests fall into the last one. */
export const MAX_TIMELINE_WINDOWS = 120;

/** Number of timeline windows, and the window a request that started `elapsedMs` into the run belongs to. */
export function timelineWindows(/** @type {Pick<import('./common.js').ScenarioDefinition, 'executor' | 'timelineWindowS'>} */ definition) {
  const count = Math.min(MAX_TIMELINE_WINDOWS, Math.max(1, Math.ceil(plannedDurationS(definition.executor) / definition.timelineWindowS)));
  return {
    count,
    windowS: definition.timelineWindowS,
    indexAt: (/** @type {number} */ elapsedMs) => Math.min(count - 1, Math.max(0, Math.floor(elapsedMs / 1000 / definition.timelineWindowS))),
  };
}

/** The threshold expressions, in k6's syntax, keyed by the k6 metric they apply to. */
export function thresholdExpressions(/** @type {import('./common.js').Thresholds} */ thresholds) {
  return {
    http_req_duration: [`p(95)<${thresholds.p95Ms}`, `p(99)<${thresholds.p99Ms}`],
    http_req_failed: [`rate<=${thresholds.errorRate}`],
    checks: [`rate>=${thresholds.checkRate}`],
  };
}

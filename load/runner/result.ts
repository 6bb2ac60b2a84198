// The shared load result (reports/load-run.ts) from the Node runner's samples: the same fields
// k6's handleSummary writes, with the kit's percentiles (../percentiles.ts) and threshold verdicts,
// which runs by k6 get too (../k6.ts).
import type { LoadLatency, LoadRun, LoadTimelineWindow, RunLimits } from '../../reports/load-run.ts';
import { latencyDriftThresholds } from '../definitions/drift.js';
import { thresholdExpressions } from '../definitions/executor.js';
import { ruleLabel, specIdentity } from '../definitions/response-rules.js';
import { PERCENTILE_METHOD } from '../percentiles.ts';
import type { ScenarioDefinition } from './definition.ts';
import type { SampleLog } from './samples.ts';

const round = (value: number) => Math.round(value * 10) / 10;

/**
 * The scenario's thresholds judged on the kit's figures (both generators): latency, errors,
 * checks, and the drift of the timeline when the scenario has drift limits (soak).
 */
export function judgeThresholds(
  definition: Pick<ScenarioDefinition, 'thresholds' | 'drift'>,
  figures: { latency: Record<string, LoadLatency>; timeline: LoadTimelineWindow[]; errorRate: number; checkRate: number },
): LoadRun['thresholds'] {
  const { thresholds: limits } = definition;
  const all = figures.latency.all;
  const verdicts: Record<string, boolean> = {
    [`p(95)<${limits.p95Ms}`]: all !== undefined && all.p95_ms < limits.p95Ms,
    [`p(99)<${limits.p99Ms}`]: all !== undefined && all.p99_ms < limits.p99Ms,
    [`rate<=${limits.errorRate}`]: figures.errorRate <= limits.errorRate,
    [`rate>=${limits.checkRate}`]: figures.checkRate >= limits.checkRate,
  };
  const thresholds = Object.entries(thresholdExpressions(limits)).flatMap(([metric, conditions]) =>
    conditions.map((condition) => ({ metric, condition, ok: verdicts[condition] ?? false })),
  );
  return definition.drift ? [...thresholds, ...latencyDriftThresholds(definition.drift, figures.timeline)] : thresholds;
}

/** The limits a run is judged by, recorded with it (reports/load-run.ts RunLimits). */
export const runLimits = (definition: ScenarioDefinition): RunLimits => ({
  thresholds: definition.thresholds,
  ...(definition.drift ? { drift: definition.drift } : {}),
  timeline_window_s: definition.timelineWindowS,
});

export function nodeLoadResult(
  definition: ScenarioDefinition,
  log: SampleLog,
  facts: { baseUrl: string; startedAt: Date; durationMs: number; nodeVersion: string; validateEvery: number },
): LoadRun {
  const { requests } = log;
  const requestsByName: Record<string, number> = {};
  for (const name of definition.requestNames) requestsByName[name] = log.requestsByName.get(name) ?? 0;
  const { latency, timeline } = log.latency.figures();

  const checks = [...log.checks].map(([name, tally]) => {
    const rule = ruleLabel(name);
    const example = log.examples.get(name);
    return { name, ...tally, ...(rule ? { rule } : {}), ...(example ? { example } : {}) };
  });
  const checkTotal = checks.reduce((sum, check) => sum + check.passes + check.fails, 0);
  const checkRate = checkTotal === 0 ? 0 : checks.reduce((sum, check) => sum + check.passes, 0) / checkTotal;
  const errorRate = requests === 0 ? 0 : log.failedRequests / requests;
  const thresholds = judgeThresholds(definition, { latency, timeline, errorRate, checkRate });

  return {
    scenario: definition.name,
    description: definition.description,
    generator: { name: 'node', version: facts.nodeVersion },
    percentile_method: PERCENTILE_METHOD,
    base_url: facts.baseUrl,
    started_at: facts.startedAt.toISOString(),
    duration_ms: round(facts.durationMs),
    executor: { ...definition.executor },
    iterations: log.iterations,
    dropped_iterations: log.droppedIterations,
    vus_peak: log.vusPeak,
    requests,
    requests_by_name: requestsByName,
    throughput_rps: round(requests / (facts.durationMs / 1000)),
    error_rate: errorRate,
    check_rate: checkRate,
    latency,
    checks,
    thresholds,
    timeline,
    passed: thresholds.every((threshold) => threshold.ok),
    validation: { every: facts.validateEvery, validated: log.validated },
    ...(log.refusals.size > 0 ? { open_point_refusals: Object.fromEntries(log.refusals) } : {}),
    spec: specIdentity,
    limits: runLimits(definition),
  };
}

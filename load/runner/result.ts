// The shared load result (reports/load-run.ts) from the Node runner's samples: the same fields,
// percentiles and threshold verdicts k6's handleSummary writes.
import { percentile } from '../../reports/latency.ts';
import type { LoadLatency, LoadRun, LoadTimelineWindow } from '../../reports/load-run.ts';
import { thresholdExpressions, timelineWindows } from '../definitions/executor.js';
import { ruleLabel } from '../definitions/response-rules.js';
import type { ScenarioDefinition } from './definition.ts';
import type { RequestSample, SampleLog } from './samples.ts';

const round = (value: number) => Math.round(value * 10) / 10;

/**
 * A request failed as k6's http_req_failed counts it: no response, or a status outside 200–399;
 * a refusal of an open-point shape is not a failure (the k6 script marks it expected the same way).
 */
export const failed = (sample: RequestSample) => !sample.refused && (sample.status < 200 || sample.status >= 400);

export function latencyOf(durations: number[]): LoadLatency {
  const sorted = [...durations].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50_ms: round(percentile(sorted, 50)),
    p90_ms: round(percentile(sorted, 90)),
    p95_ms: round(percentile(sorted, 95)),
    p99_ms: round(percentile(sorted, 99)),
    max_ms: round(sorted[sorted.length - 1]!),
  };
}

export function nodeLoadResult(definition: ScenarioDefinition, log: SampleLog, facts: { baseUrl: string; startedAt: Date; durationMs: number; nodeVersion: string; validateEvery: number }): LoadRun {
  const { requests } = log;
  const answered = requests.filter((sample) => sample.status !== 0);
  const latency: Record<string, LoadLatency> = {};
  if (answered.length > 0) latency.all = latencyOf(answered.map((sample) => sample.durationMs));
  const requestsByName: Record<string, number> = {};
  for (const name of definition.requestNames) {
    const named = requests.filter((sample) => sample.name === name);
    requestsByName[name] = named.length;
    const durations = named.filter((sample) => sample.status !== 0).map((sample) => sample.durationMs);
    if (durations.length > 0) latency[name] = latencyOf(durations);
  }

  const windows = timelineWindows(definition);
  const byWindow = new Map<number, number[]>();
  for (const sample of answered) {
    const index = windows.indexAt(sample.startedMs);
    const durations = byWindow.get(index);
    if (durations) durations.push(sample.durationMs);
    else byWindow.set(index, [sample.durationMs]);
  }
  const timeline: LoadTimelineWindow[] = [...byWindow.keys()]
    .sort((a, b) => a - b)
    .map((index) => {
      const stats = latencyOf(byWindow.get(index)!);
      return { start_s: index * windows.windowS, count: stats.count, p50_ms: stats.p50_ms, p95_ms: stats.p95_ms, p99_ms: stats.p99_ms };
    });

  const checks = [...log.checks].map(([name, tally]) => {
    const rule = ruleLabel(name);
    const example = log.examples.get(name);
    return { name, ...tally, ...(rule ? { rule } : {}), ...(example ? { example } : {}) };
  });
  const checkTotal = checks.reduce((sum, check) => sum + check.passes + check.fails, 0);
  const checkRate = checkTotal === 0 ? 0 : checks.reduce((sum, check) => sum + check.passes, 0) / checkTotal;
  const errorRate = requests.length === 0 ? 0 : requests.filter(failed).length / requests.length;

  const { thresholds: limits } = definition;
  const verdicts: Record<string, boolean> = {
    [`p(95)<${limits.p95Ms}`]: latency.all !== undefined && latency.all.p95_ms < limits.p95Ms,
    [`p(99)<${limits.p99Ms}`]: latency.all !== undefined && latency.all.p99_ms < limits.p99Ms,
    [`rate<=${limits.errorRate}`]: errorRate <= limits.errorRate,
    [`rate>=${limits.checkRate}`]: checkRate >= limits.checkRate,
  };
  const thresholds = Object.entries(thresholdExpressions(limits)).flatMap(([metric, conditions]) => conditions.map((condition) => ({ metric, condition, ok: verdicts[condition] ?? false })));

  return {
    scenario: definition.name,
    description: definition.description,
    generator: { name: 'node', version: facts.nodeVersion },
    base_url: facts.baseUrl,
    started_at: facts.startedAt.toISOString(),
    duration_ms: round(facts.durationMs),
    executor: { ...definition.executor },
    iterations: log.iterations,
    dropped_iterations: log.droppedIterations,
    requests: requests.length,
    requests_by_name: requestsByName,
    throughput_rps: round(requests.length / (facts.durationMs / 1000)),
    error_rate: errorRate,
    check_rate: checkRate,
    latency,
    checks,
    thresholds,
    timeline,
    passed: thresholds.every((threshold) => threshold.ok),
    validation: { every: facts.validateEvery, validated: log.validated },
    ...(log.refusals.size > 0 ? { open_point_refusals: Object.fromEntries(log.refusals) } : {}),
  };
}

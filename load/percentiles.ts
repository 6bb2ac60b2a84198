// The one percentile definition of load results: nearest rank over every request's own duration
// (reports/latency.ts), whichever generator sent the requests. The Node runner keeps its samples;
// k6's are read back from its CSV output (k6.ts). k6's own Trend summary is used only when k6 runs
// alone, and such a result says so in `percentile_method`.
import { percentile } from '../reports/latency.ts';
import type { LoadLatency, LoadTimelineWindow } from '../reports/load-run.ts';
import { timelineWindows } from './definitions/executor.js';
import { p99Interval } from './definitions/order-statistics.js';
import type { ScenarioDefinition } from './runner/definition.ts';
import type { RequestSample } from './runner/samples.ts';

/** What `percentile_method` says of results computed here. */
export const PERCENTILE_METHOD = 'nearest-rank';

const round = (value: number) => Math.round(value * 10) / 10;

export function latencyOf(durations: readonly number[]): LoadLatency {
  const sorted = [...durations].sort((a, b) => a - b);
  const interval = p99Interval(sorted);
  return {
    count: sorted.length,
    p50_ms: round(percentile(sorted, 50)),
    p90_ms: round(percentile(sorted, 90)),
    p95_ms: round(percentile(sorted, 95)),
    p99_ms: round(percentile(sorted, 99)),
    max_ms: round(sorted[sorted.length - 1]!),
    ...(interval ? { p99_interval_ms: { lower: round(interval.lower), upper: round(interval.upper) } } : {}),
  };
}

/**
 * Latency of all answered requests and per request name, and percentiles per timeline window.
 * Requests without a response (status 0) are left out: their duration measures a timeout.
 */
export function latencyFigures(
  definition: ScenarioDefinition,
  requests: readonly RequestSample[],
): { latency: Record<string, LoadLatency>; timeline: LoadTimelineWindow[] } {
  const answered = requests.filter((request) => request.status !== 0);
  const latency: Record<string, LoadLatency> = {};
  if (answered.length > 0) latency.all = latencyOf(answered.map((request) => request.durationMs));
  for (const name of definition.requestNames) {
    const durations = answered.filter((request) => request.name === name).map((request) => request.durationMs);
    if (durations.length > 0) latency[name] = latencyOf(durations);
  }
  const windows = timelineWindows(definition);
  const byWindow = new Map<number, number[]>();
  for (const request of answered) {
    const index = windows.indexAt(request.startedMs);
    const durations = byWindow.get(index);
    if (durations) durations.push(request.durationMs);
    else byWindow.set(index, [request.durationMs]);
  }
  const timeline = [...byWindow.keys()]
    .sort((a, b) => a - b)
    .map((index) => {
      const stats = latencyOf(byWindow.get(index)!);
      return { start_s: index * windows.windowS, count: stats.count, p50_ms: stats.p50_ms, p95_ms: stats.p95_ms, p99_ms: stats.p99_ms };
    });
  return { latency, timeline };
}

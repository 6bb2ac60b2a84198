// The one percentile definition of load results: nearest rank over every request's own duration
// (reports/latency.ts), whichever generator sent the requests. k6's own Trend summary is used
// only when k6 runs alone, and such a result says so in `percentile_method`.
//
// A run's requests are recorded as they complete into log-linear histograms (histogram.ts): one
// for all answered requests, one per request name, one per timeline window. Memory stays bounded
// however long the run (a 30-minute soak is some 13 million requests), the histograms of several
// generators merge into those of all their requests, and every figure is the nearest-rank
// duration or above it by less than 1/1024 of it plus 0.5 µs (histogram.ts says why); the max
// is exact. The Node runner records here as requests complete (runner/run-scenario.ts); k6's
// requests are read from its CSV output (k6-samples.ts).
import { nearestRank, percentile } from '../reports/latency.ts';
import type { LoadLatency, LoadTimelineWindow } from '../reports/load-run.ts';
import { timelineWindows } from './definitions/executor.js';
import { p99Interval, p99IntervalRanks } from './definitions/order-statistics.js';
import { createHistogram, type Histogram, mergeInto, recordValue, valueAtRank } from './histogram.ts';
import type { ScenarioDefinition } from './runner/definition.ts';

/** What `percentile_method` says of results computed here. */
export const PERCENTILE_METHOD = 'nearest-rank';

export interface LatencyFigures {
  /** `all` and each request name of the definition that has answered requests. */
  latency: Record<string, LoadLatency>;
  /** The timeline windows that have answered requests, in order. */
  timeline: LoadTimelineWindow[];
}

const round = (value: number) => Math.round(value * 10) / 10;

/** The exact figures of a few durations (sorts a copy of them): the definition the histogram's figures approximate. */
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

/** The figures of a non-empty histogram: each percentile and the p99 interval read at their ranks, the max exact. */
export function latencyOfHistogram(histogram: Histogram): LoadLatency {
  const { count } = histogram;
  const at = (rank: number) => round(valueAtRank(histogram, rank));
  const ranks = p99IntervalRanks(count);
  return {
    count,
    p50_ms: at(nearestRank(50, count)),
    p90_ms: at(nearestRank(90, count)),
    p95_ms: at(nearestRank(95, count)),
    p99_ms: at(nearestRank(99, count)),
    max_ms: round(histogram.maxMs),
    ...(ranks ? { p99_interval_ms: { lower: at(ranks.lowerRank), upper: at(ranks.upperRank) } } : {}),
  };
}

/** What a recorder needs of a scenario: its request names and timeline windows. */
export type LatencyLayout = Pick<ScenarioDefinition, 'executor' | 'requestNames' | 'timelineWindowS'>;

/** Records a run's answered requests as they complete, in bounded memory; figures() at any time. */
export interface LatencyRecorder {
  readonly definition: LatencyLayout;
  /** All answered requests. */
  readonly all: Histogram;
  /** Each of the definition's request names (other names count in `all` only: k6 names an untagged request by its URL). */
  readonly byName: ReadonlyMap<string, Histogram>;
  /** Each timeline window of the definition, by index. */
  readonly byWindow: readonly Histogram[];
  /**
   * One request: `startedMs` from the run's start (it places the request in its timeline window),
   * `status` 0 for no response, which is left out: its duration measures a timeout, not the server.
   */
  record(name: string, startedMs: number, durationMs: number, status: number): void;
  figures(): LatencyFigures;
}

export function createLatencyRecorder(definition: LatencyLayout): LatencyRecorder {
  const windows = timelineWindows(definition);
  const all = createHistogram();
  const byName = new Map(definition.requestNames.map((name) => [name, createHistogram()]));
  const byWindow = Array.from({ length: windows.count }, createHistogram);
  return {
    definition,
    all,
    byName,
    byWindow,
    record(name, startedMs, durationMs, status) {
      if (status === 0) return;
      recordValue(all, durationMs);
      const named = byName.get(name);
      if (named) recordValue(named, durationMs);
      recordValue(byWindow[windows.indexAt(startedMs)]!, durationMs);
    },
    figures() {
      const latency: Record<string, LoadLatency> = {};
      if (all.count > 0) latency.all = latencyOfHistogram(all);
      for (const [name, histogram] of byName) if (histogram.count > 0) latency[name] = latencyOfHistogram(histogram);
      const timeline: LoadTimelineWindow[] = [];
      byWindow.forEach((histogram, index) => {
        if (histogram.count === 0) return;
        const stats = latencyOfHistogram(histogram);
        timeline.push({ start_s: index * windows.windowS, count: stats.count, p50_ms: stats.p50_ms, p95_ms: stats.p95_ms, p99_ms: stats.p99_ms });
      });
      return { latency, timeline };
    },
  };
}

/**
 * Adds `source`'s requests to `target` (e.g. the generators of a distributed run): afterwards
 * target's figures are those of both runs' requests together. Both must record the same request
 * names in the same timeline windows, and their startedMs must count from the same origin.
 */
export function mergeRecorders(target: LatencyRecorder, source: LatencyRecorder): void {
  const layout = (recorder: LatencyRecorder) => {
    const windows = timelineWindows(recorder.definition);
    return JSON.stringify({ names: [...recorder.byName.keys()], windows: windows.count, windowS: windows.windowS });
  };
  if (layout(target) !== layout(source)) throw new Error(`recorders of different layouts cannot be merged: ${layout(target)} and ${layout(source)}`);
  mergeInto(target.all, source.all);
  for (const [name, histogram] of source.byName) mergeInto(target.byName.get(name)!, histogram);
  source.byWindow.forEach((histogram, index) => mergeInto(target.byWindow[index]!, histogram));
}

/** A request as the recorder takes it (the Node runner's RequestSample is one). */
export interface TimedRequest {
  name: string;
  startedMs: number;
  durationMs: number;
  status: number;
}

/** The figures of requests kept in memory (a test's, a short run's): `createLatencyRecorder` over them. */
export function latencyFigures(definition: LatencyLayout, requests: readonly TimedRequest[]): LatencyFigures {
  const recorder = createLatencyRecorder(definition);
  for (const request of requests) recorder.record(request.name, request.startedMs, request.durationMs, request.status);
  return recorder.figures();
}

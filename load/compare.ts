// The regression decision between two sets of repeated runs of one scenario. One run is one
// noisy number, so each side is several runs, and a metric regresses only when both hold:
//  - the candidate's median is worse than the baseline's by more than the tolerance (relative,
//    and for latency also by more than an absolute floor, so 1.0 -> 1.3 ms is not a regression);
//  - the two sets are separated: in every (baseline, candidate) pair of runs the candidate is
//    worse (Mann–Whitney U = 0; with 5 runs a side, 1 chance in 252 for a server that did not
//    change, which the tolerance condition lowers further).
// p99 has a third condition and a minimum sample: see TAIL below.
import type { LoadRun } from '../reports/load-run.ts';
import { P99_MIN_REQUESTS } from './definitions/order-statistics.js';

export interface Tolerance {
  /** Allowed relative loss of throughput, e.g. 0.1 for 10 %. */
  throughput: number;
  /** Allowed relative growth of a latency percentile (p50, p95, p99). */
  latency: number;
  /** Latency growth below this many milliseconds is never a regression. */
  latencyFloorMs: number;
  /** Allowed absolute drop of the check rate, e.g. 0.01 for one point. */
  checks: number;
}

export const DEFAULT_TOLERANCE: Tolerance = { throughput: 0.1, latency: 0.25, latencyFloorMs: 2, checks: 0.01 };

/** Growth of the error rate that counts, absolute: one point. */
export const ERROR_RATE_FLOOR = 0.01;

/** Share of (baseline, candidate) pairs in which the candidate must be worse. */
export const SEPARATION = 1;

export interface MetricVerdict {
  metric: string;
  baseline_median: number;
  candidate_median: number;
  /** Candidate median relative to baseline median, minus one (+0.3 = 30 % higher). */
  change: number;
  /** Share of pairs of runs in which the candidate is worse. */
  worse_share: number;
  regression: boolean;
}

/** Whether the tail (p99) was judged, and why not when it was not. */
export interface TailJudgement {
  judged: boolean;
  /** Requests every run needs: P99_MIN_REQUESTS. */
  min_requests: number;
  /** Fewest answered requests of any run, on either side. */
  fewest_requests: number;
  /** Medians over each side's runs of the p99's 95 % confidence bounds. */
  baseline_interval_ms?: { lower: number; upper: number };
  candidate_interval_ms?: { lower: number; upper: number };
  reason?: string;
}

export interface Comparison {
  scenario: string;
  /** Generator and percentile method of each side, e.g. "k6 v2.2.0, nearest-rank". */
  baseline_generator: string;
  candidate_generator: string;
  baseline_runs: number;
  candidate_runs: number;
  metrics: MetricVerdict[];
  tail: TailJudgement;
  regression: boolean;
}

export interface CompareOptions {
  tolerance?: Tolerance;
  /** Compare runs by different generators (or percentile methods) anyway. */
  allowMixedGenerators?: boolean;
}

/** Runs by different generators or percentile methods: refused unless allowed, since their figures differ by construction. */
export class MixedGeneratorsError extends Error {}

/**
 * Runs whose generator set the pace (load/generator-health.ts): their figures are the generator's,
 * so neither a regression nor an improvement of the server can be read from them.
 */
export class GeneratorBoundError extends Error {}

/** The refusal of runs whose generator was the limit, naming the first of each side; undefined when every run kept up. */
export function generatorBoundReason(baseline: readonly LoadRun[], candidate: readonly LoadRun[]): string | undefined {
  const sides = { baseline, candidate };
  const bound = Object.entries(sides).flatMap(([side, runs]) =>
    runs.flatMap((run, index) => (run.generator_health?.bound ? [`${side} run ${index + 1} (${run.generator_health.reasons[0]})`] : [])),
  );
  if (bound.length === 0) return undefined;
  return `cannot judge the server: the generator set the pace in ${bound.length} of ${baseline.length + candidate.length} runs, e.g. ${bound[0]}; measure with a generator that keeps up (more k6 instances, --instances N, a bigger machine, or the Node runner)`;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

type Kind = 'throughput' | 'latency' | 'errors' | 'checks';

interface Metric {
  name: string;
  of(run: LoadRun): number | undefined;
  kind: Kind;
}

const METRICS: Metric[] = [
  { name: 'throughput_rps', of: (run) => run.throughput_rps, kind: 'throughput' },
  { name: 'latency p50_ms', of: (run) => run.latency.all?.p50_ms, kind: 'latency' },
  { name: 'latency p95_ms', of: (run) => run.latency.all?.p95_ms, kind: 'latency' },
  { name: 'error_rate', of: (run) => run.error_rate, kind: 'errors' },
  { name: 'check_rate', of: (run) => run.check_rate, kind: 'checks' },
];

/**
 * The tail (p99) is judged only when every run on both sides has P99_MIN_REQUESTS answered
 * requests (368: fewer leave the p99 without a measured upper confidence bound), and regresses
 * when, beyond the latency tolerance and separated in every pair of runs as the other metrics,
 * the candidate's typical p99 interval lies wholly above the baseline's: the change is larger
 * than what the sample sizes leave uncertain.
 */
const TAIL: Metric = { name: 'latency p99_ms', of: (run) => run.latency.all?.p99_ms, kind: 'latency' };

/** "k6 v2.2.0, nearest-rank": what produced a run's figures. */
export const generatorOf = (run: LoadRun) =>
  `${run.generator.name} ${run.generator.version}, ${run.percentile_method ?? (run.generator.name === 'node' ? 'nearest-rank' : 'k6-trend')}`;
/** "k6, nearest-rank" of "k6 v2.2.0, nearest-rank": what differs by construction between runs, the version left out. */
export const generatorKindOf = (generator: string) => generator.replace(/ [^ ,]+,/, ',');
const generatorKind = (run: LoadRun) => generatorKindOf(generatorOf(run));

function verdictOf(metric: Metric, before: readonly number[], after: readonly number[], tolerance: Tolerance): MetricVerdict {
  const baselineMedian = median(before);
  const candidateMedian = median(after);
  const higherIsBetter = metric.kind === 'throughput' || metric.kind === 'checks';
  const worse = (b: number, c: number) => (higherIsBetter ? c < b : c > b);
  let worsePairs = 0;
  for (const b of before) for (const c of after) if (worse(b, c)) worsePairs++;
  const worseShare = worsePairs / (before.length * after.length);
  const change = baselineMedian === 0 ? (candidateMedian === 0 ? 0 : Infinity) : candidateMedian / baselineMedian - 1;
  const beyondTolerance = {
    throughput: () => -change > tolerance.throughput,
    errors: () => candidateMedian - baselineMedian > ERROR_RATE_FLOOR,
    checks: () => baselineMedian - candidateMedian > tolerance.checks,
    latency: () => change > tolerance.latency && candidateMedian - baselineMedian > tolerance.latencyFloorMs,
  }[metric.kind]();
  return {
    metric: metric.name,
    baseline_median: baselineMedian,
    candidate_median: candidateMedian,
    change: Number.isFinite(change) ? Math.round(change * 1000) / 1000 : change,
    worse_share: Math.round(worseShare * 1000) / 1000,
    regression: beyondTolerance && worseShare >= SEPARATION,
  };
}

function typicalInterval(runs: readonly LoadRun[]): { lower: number; upper: number } {
  const intervals = runs.map((run) => run.latency.all!.p99_interval_ms!);
  return { lower: median(intervals.map((interval) => interval.lower)), upper: median(intervals.map((interval) => interval.upper)) };
}

function judgeTail(baseline: readonly LoadRun[], candidate: readonly LoadRun[], tolerance: Tolerance): { tail: TailJudgement; verdict?: MetricVerdict } {
  const runs = [...baseline, ...candidate];
  const fewest = Math.min(...runs.map((run) => run.latency.all?.count ?? 0));
  const base = { min_requests: P99_MIN_REQUESTS, fewest_requests: fewest };
  if (fewest < P99_MIN_REQUESTS)
    return {
      tail: {
        ...base,
        judged: false,
        reason: `cannot judge the tail: a run has ${fewest} answered requests, and a p99 verdict needs ${P99_MIN_REQUESTS} in every run (fewer leave the p99 without a measured upper confidence bound); run longer or faster`,
      },
    };
  if (runs.some((run) => !run.latency.all?.p99_interval_ms))
    return {
      tail: {
        ...base,
        judged: false,
        reason: 'cannot judge the tail: a run has no p99 confidence interval (written by k6 alone or by an older kit; run it with "load run")',
      },
    };
  const baselineInterval = typicalInterval(baseline);
  const candidateInterval = typicalInterval(candidate);
  const verdict = verdictOf(
    TAIL,
    baseline.map((run) => TAIL.of(run)!),
    candidate.map((run) => TAIL.of(run)!),
    tolerance,
  );
  verdict.regression = verdict.regression && candidateInterval.lower > baselineInterval.upper;
  return { tail: { ...base, judged: true, baseline_interval_ms: baselineInterval, candidate_interval_ms: candidateInterval }, verdict };
}

export function compareRuns(baseline: readonly LoadRun[], candidate: readonly LoadRun[], options: CompareOptions = {}): Comparison {
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE;
  if (baseline.length === 0 || candidate.length === 0) throw new Error('both sides need at least one run');
  const scenario = baseline[0]!.scenario;
  const other = candidate.find((run) => run.scenario !== scenario);
  if (other) throw new Error(`the baseline ran ${scenario}, the candidate ${other.scenario}: compare runs of one scenario`);
  const bound = generatorBoundReason(baseline, candidate);
  if (bound) throw new GeneratorBoundError(bound);
  const kinds = new Set([...baseline, ...candidate].map(generatorKind));
  if (kinds.size > 1 && !options.allowMixedGenerators) {
    throw new MixedGeneratorsError(
      `the runs come from different generators or percentile methods (${[...kinds].join(' / ')}): their figures differ by construction, not by the server. Measure both sides with one generator, or pass --allow-mixed-generators`,
    );
  }
  const metrics: MetricVerdict[] = [];
  for (const metric of METRICS) {
    const before = baseline.map(metric.of).filter((value): value is number => value !== undefined);
    const after = candidate.map(metric.of).filter((value): value is number => value !== undefined);
    if (before.length > 0 && after.length > 0) metrics.push(verdictOf(metric, before, after, tolerance));
  }
  const { tail, verdict } = judgeTail(baseline, candidate, tolerance);
  if (verdict) metrics.splice(3, 0, verdict);
  return {
    scenario,
    baseline_generator: generatorOf(baseline[0]!),
    candidate_generator: generatorOf(candidate[0]!),
    baseline_runs: baseline.length,
    candidate_runs: candidate.length,
    metrics,
    tail,
    regression: metrics.some((metric) => metric.regression),
  };
}

/** Parses `--tolerance throughput=0.1,latency=0.25,floor-ms=2,checks=0.01` (any subset). */
export function parseTolerance(text: string | undefined): Tolerance {
  const tolerance = { ...DEFAULT_TOLERANCE };
  if (text === undefined) return tolerance;
  for (const item of text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [key, raw] = item.split('=', 2);
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0) throw new Error(`--tolerance ${item}: the value must be a number of at least 0`);
    if (key === 'throughput') tolerance.throughput = value;
    else if (key === 'latency') tolerance.latency = value;
    else if (key === 'floor-ms') tolerance.latencyFloorMs = value;
    else if (key === 'checks') tolerance.checks = value;
    else throw new Error(`--tolerance ${item}: known keys are throughput, latency, floor-ms, checks`);
  }
  return tolerance;
}

// The regression decision between two sets of repeated runs of one scenario. One run is one
// noisy number, so each side is several runs, and a metric regresses only when both hold:
//  - the candidate's median is worse than the baseline's by more than the tolerance (relative,
//    and for latency also by more than an absolute floor, so 1.0 -> 1.3 ms is not a regression);
//  - the two sets are separated: in every (baseline, candidate) pair of runs the candidate is
//    worse (Mann–Whitney U = 0; with 5 runs a side, 1 chance in 252 for a server that did not
//    change, which the tolerance condition lowers further).
import type { LoadRun } from '../reports/load-run.ts';

export interface Tolerance {
  /** Allowed relative loss of throughput, e.g. 0.1 for 10 %. */
  throughput: number;
  /** Allowed relative growth of a latency percentile. */
  latency: number;
  /** Latency growth below this many milliseconds is never a regression. */
  latencyFloorMs: number;
}

export const DEFAULT_TOLERANCE: Tolerance = { throughput: 0.1, latency: 0.25, latencyFloorMs: 2 };

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

export interface Comparison {
  scenario: string;
  baseline_runs: number;
  candidate_runs: number;
  metrics: MetricVerdict[];
  regression: boolean;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

interface Metric {
  name: string;
  of(run: LoadRun): number | undefined;
  higherIsBetter: boolean;
}

// p99 is left out: in runs of a few seconds it rests on a handful of requests and moves with
// anything else the machine does. It is in every report, for people to read.
const METRICS: Metric[] = [
  { name: 'throughput_rps', of: (run) => run.throughput_rps, higherIsBetter: true },
  { name: 'latency p50_ms', of: (run) => run.latency.all?.p50_ms, higherIsBetter: false },
  { name: 'latency p95_ms', of: (run) => run.latency.all?.p95_ms, higherIsBetter: false },
  { name: 'error_rate', of: (run) => run.error_rate, higherIsBetter: false },
];

export function compareRuns(baseline: readonly LoadRun[], candidate: readonly LoadRun[], tolerance: Tolerance = DEFAULT_TOLERANCE): Comparison {
  if (baseline.length === 0 || candidate.length === 0) throw new Error('both sides need at least one run');
  const scenario = baseline[0]!.scenario;
  const other = candidate.find((run) => run.scenario !== scenario);
  if (other) throw new Error(`the baseline ran ${scenario}, the candidate ${other.scenario}: compare runs of one scenario`);
  const metrics: MetricVerdict[] = [];
  for (const metric of METRICS) {
    const before = baseline.map(metric.of).filter((value): value is number => value !== undefined);
    const after = candidate.map(metric.of).filter((value): value is number => value !== undefined);
    if (before.length === 0 || after.length === 0) continue;
    const baselineMedian = median(before);
    const candidateMedian = median(after);
    const worse = (b: number, c: number) => (metric.higherIsBetter ? c < b : c > b);
    let worsePairs = 0;
    for (const b of before) for (const c of after) if (worse(b, c)) worsePairs++;
    const worseShare = worsePairs / (before.length * after.length);
    const change = baselineMedian === 0 ? (candidateMedian === 0 ? 0 : Infinity) : candidateMedian / baselineMedian - 1;
    let beyondTolerance: boolean;
    if (metric.name === 'throughput_rps') beyondTolerance = -change > tolerance.throughput;
    else if (metric.name === 'error_rate') beyondTolerance = candidateMedian - baselineMedian > 0.01;
    else beyondTolerance = change > tolerance.latency && candidateMedian - baselineMedian > tolerance.latencyFloorMs;
    metrics.push({
      metric: metric.name,
      baseline_median: baselineMedian,
      candidate_median: candidateMedian,
      change: Number.isFinite(change) ? Math.round(change * 1000) / 1000 : change,
      worse_share: Math.round(worseShare * 1000) / 1000,
      regression: beyondTolerance && worseShare >= SEPARATION,
    });
  }
  return { scenario, baseline_runs: baseline.length, candidate_runs: candidate.length, metrics, regression: metrics.some((verdict) => verdict.regression) };
}

/** Parses `--tolerance throughput=0.1,latency=0.25,floor-ms=2` (any subset). */
export function parseTolerance(text: string | undefined): Tolerance {
  const tolerance = { ...DEFAULT_TOLERANCE };
  if (text === undefined) return tolerance;
  for (const item of text.split(',').map((part) => part.trim()).filter(Boolean)) {
    const [key, raw] = item.split('=', 2);
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0) throw new Error(`--tolerance ${item}: the value must be a number of at least 0`);
    if (key === 'throughput') tolerance.throughput = value;
    else if (key === 'latency') tolerance.latency = value;
    else if (key === 'floor-ms') tolerance.latencyFloorMs = value;
    else throw new Error(`--tolerance ${item}: known keys are throughput, latency, floor-ms`);
  }
  return tolerance;
}

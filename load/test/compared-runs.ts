// What the proofs of `load compare` on real runs share (compare-*.test.ts): a reference server in
// a process of its own (in the test's process it would share one event loop with the runner and
// the proxies), a transparent proxy in front of it so that the proxy's own cost is the same on
// both sides, and baseline and candidate runs taken in turns. Each file measures one claim, so
// that the claims run side by side instead of one after another; each is built to hold with the
// machine busy (other test files, or a core kept busy on purpose): the effects looked for are far
// beyond the tolerance, or paced by the server's clock rather than by the machine's speed.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect } from 'vitest';
import { startMutatingProxy, type Mutation, type RunningProxy } from '../../harness/testing/mutating-proxy.ts';
import type { LoadRun } from '../../reports/load-run.ts';
import { compareRuns, type Comparison } from '../compare.ts';
import { interleavedRuns } from '../interleave.ts';
import { warmUp } from '../run.ts';
import { startKeyedServer, type KeyedServerProcess } from '../server-process.ts';
import { settingsFor } from './support.ts';

/**
 * Short closed-loop runs with one virtual user: throughput is then 1 / the server's time per
 * request. More users would queue in this test's own process (runner and proxies share it) and
 * measure that instead.
 */
export const SHORT = { DURATION: '0.5', VUS: '1' };
/** Runs per side, as `load compare` takes by default. */
export const RUNS_PER_SIDE = 5;

export const regressed = (verdict: Comparison, metric: string) => verdict.metrics.find((entry) => entry.metric === metric)?.regression;

export interface ComparedRuns {
  readonly target: KeyedServerProcess;
  /** The proxy every baseline goes through. */
  readonly transparent: RunningProxy;
  /** Baseline and candidate runs taken in turn (ABBA): a busy second of this machine falls on both sides. */
  measurePair(
    baselineUrl: string,
    candidateUrl: string,
    settings?: Record<string, string>,
    scenario?: 'decide-capacity' | 'soak',
    repeat?: number,
  ): Promise<{ baseline: LoadRun[]; candidate: LoadRun[] }>;
  /** The transparent proxy against one that applies `mutation`, in short closed-loop runs. */
  against(mutation: Mutation): Promise<{ baseline: LoadRun[]; candidate: LoadRun[] }>;
}

/** Starts the server and the transparent proxy before the file's tests, warmed; stops them after. */
export function useComparedRuns(): ComparedRuns {
  let target: KeyedServerProcess | undefined;
  let transparent: RunningProxy | undefined;

  beforeAll(async () => {
    target = await startKeyedServer({ serverOptions: ['--rate-limit', '1000000/1000000'] });
    transparent = await startMutatingProxy(target.baseUrl, {});
    // JIT warm-up takes seconds: warm until two runs in a row agree within 15 %, at most 20.
    let previous = 0;
    for (let i = 0; i < 20; i++) {
      const current = (await warmUp('decide-capacity', settingsFor(transparent.baseUrl, target.key, SHORT))).throughput_rps;
      if (previous > 0 && Math.abs(current / previous - 1) < 0.15) break;
      previous = current;
    }
  }, 120_000);
  afterAll(async () => {
    await transparent?.close();
    await target?.stop();
  });

  const runs: ComparedRuns = {
    get target() {
      return target!;
    },
    get transparent() {
      return transparent!;
    },
    measurePair: (baselineUrl, candidateUrl, settings = SHORT, scenario = 'decide-capacity', repeat = RUNS_PER_SIDE) =>
      interleavedRuns({
        scenario,
        baseline: { baseUrl: baselineUrl, apiKey: target!.key },
        candidate: { baseUrl: candidateUrl, apiKey: target!.key },
        settings,
        repeat,
        warm: false,
      }),
    async against(mutation) {
      const proxy = await startMutatingProxy(target!.baseUrl, mutation);
      try {
        return await runs.measurePair(transparent!.baseUrl, proxy.baseUrl);
      } finally {
        await proxy.close();
      }
    },
  };
  return runs;
}

/**
 * Open-loop runs of the soak's decide at 120 a second for 3.5 s: 420 requests a run, above the
 * 368 a p99 verdict needs, and a slow request does not hold up the next ones. The rate stays far
 * below what the server and this process's proxies handle, so that a busy machine does not
 * queue requests into a tail of their own (at 300 a second, with the host's load average at 12,
 * the baseline's p99 reached 600 ms). Three runs a side to find the slow tail, whose separation
 * is wide; five a side (load compare's default) where an unchanged server must stay quiet: with
 * three, an unchanged server is separated by chance once in 20 per metric (a self-comparison's
 * p95 was flagged so, 3.4 -> 5.5 ms), with five once in 252.
 */
export const TAIL_RUN = { RATE: '120', DURATION: '3.5' };
export const TAIL_RUNS_PER_SIDE = 3;
export const QUIET_RUNS_PER_SIDE = RUNS_PER_SIDE;

/**
 * What a server compared with itself answers through: every request held this long, as a server
 * that takes 25 ms to decide. The bundled server answers in a few milliseconds, and beside other
 * test files on a busy machine a burst of theirs moves such a percentile by more than the 25 %
 * tolerance: a burst as long as two runs falls on two runs of one side (ABBA puts them side by
 * side), and an unchanged server's p95 was flagged so, 12.3 -> 16.6 ms, worse in every pair. The
 * same burst on a 25 ms server is a tenth of its latency, far inside the tolerance.
 */
export const QUIET_SERVER_MS = 25;

/** A proxy in front of `baseUrl` that holds every request QUIET_SERVER_MS; close it after. */
export const startQuietServerProxy = (baseUrl: string): Promise<RunningProxy> =>
  startMutatingProxy(baseUrl, {
    request: async (sent) => {
      await sleep(QUIET_SERVER_MS);
      return sent;
    },
  });

/** A server against itself: p99 judged, and no metric flagged. */
export const expectQuietWithTail = (pair: { baseline: LoadRun[]; candidate: LoadRun[] }) => {
  const verdict = compareRuns(pair.baseline, pair.candidate);
  const figures = verdict.metrics.map((metric) => `${metric.metric} ${metric.baseline_median} -> ${metric.candidate_median}`);
  console.log(`self-comparison, medians: ${figures.join('; ')}`);
  expect(verdict.tail.judged).toBe(true);
  expect(verdict.metrics.filter((metric) => metric.regression)).toEqual([]);
};

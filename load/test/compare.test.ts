// load compare: the decision on repeated runs. Unit cases on made-up runs, then real, interleaved
// ones: a server slowed by 300 ms on decide is flagged; latency that grows with uptime is flagged.
// The other real-run claims have files of their own (compare-capacity, compare-tail,
// compare-alternate, compare-self), so that they run side by side.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { isOperation, startMutatingProxy } from '../../harness/testing/mutating-proxy.ts';
import type { LoadRun } from '../../reports/load-run.ts';
import { compareRuns, parseTolerance } from '../compare.ts';
import { P99_MIN_REQUESTS } from '../definitions/order-statistics.js';
import { warmUp } from '../run.ts';
import { regressed, SHORT, useComparedRuns } from './compared-runs.ts';
import { growingLatency, runLoadCommand, settingsFor } from './support.ts';

const made = (
  throughput: number,
  p50: number,
  extra: { p99?: number; count?: number; interval?: [number, number]; checkRate?: number; generator?: 'k6' | 'node' } = {},
): LoadRun =>
  ({
    scenario: 'decide-capacity',
    generator: { name: extra.generator ?? 'node', version: 'v20' },
    percentile_method: 'nearest-rank',
    throughput_rps: throughput,
    error_rate: 0,
    check_rate: extra.checkRate ?? 1,
    latency: {
      all: {
        count: extra.count ?? 100,
        p50_ms: p50,
        p90_ms: p50 * 1.5,
        p95_ms: p50 * 2,
        p99_ms: extra.p99 ?? p50 * 3,
        max_ms: p50 * 4,
        ...(extra.interval ? { p99_interval_ms: { lower: extra.interval[0], upper: extra.interval[1] } } : {}),
      },
    },
  }) as unknown as LoadRun;

describe('the decision', () => {
  test('identical runs are no regression', () => {
    const runs = [made(1000, 4), made(1010, 4.1), made(990, 3.9)];
    expect(compareRuns(runs, runs).regression).toBe(false);
  });
  test('a slower candidate in every run, beyond the tolerance, is a regression', () => {
    const verdict = compareRuns([made(1000, 4), made(1010, 4.1), made(990, 3.9)], [made(700, 6), made(720, 6.1), made(690, 5.9)]);
    expect(verdict.regression).toBe(true);
    expect(verdict.metrics.find((metric) => metric.metric === 'throughput_rps')).toMatchObject({ regression: true, worse_share: 1 });
  });
  test('a worse median from overlapping runs is not: one noisy run does not decide', () => {
    expect(compareRuns([made(1000, 4), made(1000, 4), made(1000, 4)], [made(600, 9), made(1100, 3.5), made(1050, 3.8)]).regression).toBe(false);
  });
  test('latency growth under the absolute floor is not a regression', () => {
    expect(compareRuns([made(1000, 1), made(1000, 1), made(1000, 1)], [made(1000, 1.5), made(1000, 1.6), made(1000, 1.7)]).regression).toBe(false);
  });
  test('runs of two scenarios cannot be compared; tolerances parse or say why not', () => {
    expect(() => compareRuns([made(1, 1)], [{ ...made(1, 1), scenario: 'mixed' }])).toThrow(/one scenario/);
    expect(parseTolerance('throughput=0.2,floor-ms=5,checks=0.05')).toEqual({ throughput: 0.2, latency: 0.25, latencyFloorMs: 5, checks: 0.05 });
    expect(() => parseTolerance('speed=1')).toThrow(/known keys/);
  });
  test('runs by different generators are refused unless allowed', () => {
    const node = [made(1000, 4)];
    const k6 = [made(1000, 4, { generator: 'k6' })];
    expect(() => compareRuns(node, k6)).toThrow(/different generators.*--allow-mixed-generators/);
    expect(compareRuns(node, k6, { allowMixedGenerators: true }).regression).toBe(false);
    // k6 alone (its own summary) and k6 under the kit (nearest rank) differ by percentile method.
    expect(() => compareRuns(k6, [{ ...k6[0]!, percentile_method: 'k6-trend' }])).toThrow(/percentile methods/);
  });
  test('a lower check rate beyond the tolerance, in every pair, is a regression; within it is not', () => {
    const baseline = [made(1000, 4), made(1000, 4), made(1000, 4)];
    expect(
      regressed(
        compareRuns(baseline, [made(1000, 4, { checkRate: 0.95 }), made(1000, 4, { checkRate: 0.96 }), made(1000, 4, { checkRate: 0.94 })]),
        'check_rate',
      ),
    ).toBe(true);
    expect(
      regressed(
        compareRuns(baseline, [made(1000, 4, { checkRate: 0.995 }), made(1000, 4, { checkRate: 0.995 }), made(1000, 4, { checkRate: 0.995 })]),
        'check_rate',
      ),
    ).toBe(false);
  });
  test('the tail is not judged below the sample size a p99 needs, and says so', () => {
    const few = P99_MIN_REQUESTS - 1;
    const verdict = compareRuns(
      [made(1000, 4, { p99: 4, count: few }), made(1000, 4, { p99: 4, count: few })],
      [made(1000, 4, { p99: 402, count: few }), made(1000, 4, { p99: 402, count: few })],
    );
    expect(verdict.tail).toMatchObject({ judged: false, min_requests: 368, fewest_requests: few });
    expect(verdict.tail.reason).toMatch(/cannot judge the tail.*367.*368/);
    expect(verdict.metrics.map((metric) => metric.metric)).not.toContain('latency p99_ms');
    expect(verdict.regression).toBe(false);
  });
  test('from 368 requests a run, a p99 4 -> 402 ms is a regression; one within the uncertainty of the intervals is not', () => {
    const calm = (p99: number) => made(1000, 4, { p99, count: 500, interval: [p99 - 1, p99 + 2] });
    const slowTail = made(1000, 4, { p99: 402, count: 500, interval: [400, 410] });
    const verdict = compareRuns([calm(4), calm(4.2), calm(3.9)], [slowTail, slowTail, slowTail]);
    expect(verdict.tail.judged).toBe(true);
    expect(regressed(verdict, 'latency p99_ms')).toBe(true);
    // Worse in every pair and beyond the tolerance, but the candidate's interval reaches into the baseline's.
    const wide = made(1000, 4, { p99: 9, count: 500, interval: [5, 30] });
    expect(regressed(compareRuns([calm(4), calm(4), calm(4)], [wide, wide, wide]), 'latency p99_ms')).toBe(false);
  });
  test('the command: exit 2 with a clear message for runs of different generators, 0 when told to compare them', async () => {
    const folder = (runs: LoadRun[]) => {
      const dir = mkdtempSync(join(tmpdir(), 'decision-compare-'));
      writeFileSync(join(dir, 'results.json'), JSON.stringify({ load: { scenario: 'decide-capacity', runs } }));
      return dir;
    };
    const baseline = folder([made(1000, 4)]);
    const candidate = folder([made(1000, 4, { generator: 'k6' })]);
    const run = (...extra: string[]) => runLoadCommand('compare', '--baseline', baseline, '--candidate', candidate, ...extra);
    const refused = await run();
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/different generators or percentile methods \(node, nearest-rank \/ k6, nearest-rank\)/);
    const allowed = await run('--allow-mixed-generators');
    expect(allowed.code, allowed.err).toBe(0);
    expect(allowed.out).toMatch(/no regression[\s\S]*cannot judge the tail/);
  });
});

describe('on real runs', () => {
  const runs = useComparedRuns();

  test('a server slowed by 300 ms on decide is flagged', { timeout: 60_000 }, async () => {
    const { baseline, candidate } = await runs.against({
      request: async (sent) => {
        if (isOperation(sent, 'POST', '/v1/decide')) await sleep(300);
        return sent;
      },
    });
    const verdict = compareRuns(baseline, candidate);
    expect(verdict.regression).toBe(true);
    expect(verdict.metrics.find((metric) => metric.metric === 'latency p50_ms')?.regression).toBe(true);
  });

  test('latency that grows with uptime is flagged', { timeout: 60_000 }, async () => {
    const growing = await startMutatingProxy(runs.target.baseUrl, growingLatency(50));
    try {
      // Measured after a second of uptime, as a deployed server would be: its decides already wait 50 ms more, then more and more.
      await warmUp('decide-capacity', settingsFor(growing.baseUrl, runs.target.key, SHORT));
      const { baseline, candidate } = await runs.measurePair(runs.transparent.baseUrl, growing.baseUrl);
      const verdict = compareRuns(baseline, candidate);
      console.log(
        `latency growing 50 ms per second of uptime: p50 per run ${baseline.map((run) => run.latency.all?.p50_ms).join(', ')} -> ${candidate.map((run) => run.latency.all?.p50_ms).join(', ')} ms`,
      );
      expect(regressed(verdict, 'latency p50_ms')).toBe(true);
    } finally {
      await growing.close();
    }
  });
});

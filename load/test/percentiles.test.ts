// One percentile definition for both generators, and the sample size a p99 verdict needs.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { P99_MIN_REQUESTS, p99Interval } from '../definitions/order-statistics.js';
import { withKitFigures } from '../k6.ts';
import { readK6Samples } from '../k6-samples.ts';
import { latencyOf } from '../percentiles.ts';
import { loadDefinition } from '../runner/definition.ts';
import type { LoadRun } from '../../reports/load-run.ts';

describe('the p99 sample-size rule', () => {
  test('368 requests: the fewest for which the slowest one is a 97.5 % upper bound of the p99 (1 - 0.99^n >= 0.975)', () => {
    expect(P99_MIN_REQUESTS).toBe(368);
    expect(1 - 0.99 ** P99_MIN_REQUESTS).toBeGreaterThanOrEqual(0.975);
    expect(1 - 0.99 ** (P99_MIN_REQUESTS - 1)).toBeLessThan(0.975);
    const ranks = (n: number) => p99Interval(Array.from({ length: n }, (_, i) => i + 1));
    expect(ranks(367)).toBeUndefined();
    expect(ranks(368)).toEqual({ lower: 360, upper: 368 });
    // Binomial(1000, 0.99): mean 990, sd 3.1; the bounds sit about two sd either side.
    expect(ranks(1000)).toEqual({ lower: 983, upper: 997 });
    expect(latencyOf(Array.from({ length: 367 }, () => 1)).p99_interval_ms).toBeUndefined();
    expect(latencyOf(Array.from({ length: 368 }, () => 1)).p99_interval_ms).toEqual({ lower: 1, upper: 1 });
  });

  test('the interval covers the true p99 in about 95 % of samples (at least 94 % of 1,000), assuming no shape of the distribution', () => {
    // A seeded generator (mulberry32), so the test is the same on every run.
    let state = 19;
    const random = () => {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    // Exponential latencies with mean 5 ms: the true p99 is 5 * ln(100).
    const trueP99 = 5 * Math.log(100);
    for (const n of [368, 1000]) {
      let covered = 0;
      const trials = 1000;
      for (let trial = 0; trial < trials; trial++) {
        const sorted = Array.from({ length: n }, () => -5 * Math.log(1 - random())).sort((a, b) => a - b);
        const interval = p99Interval(sorted)!;
        if (interval.lower <= trueP99 && trueP99 <= interval.upper) covered++;
      }
      expect(covered / trials).toBeGreaterThanOrEqual(0.94);
    }
  });
});

describe("k6's raw samples", () => {
  const csv = (rows: string[]) => {
    const dir = mkdtempSync(join(tmpdir(), 'decision-k6-samples-'));
    const path = join(dir, 'samples.csv.gz');
    writeFileSync(path, gzipSync(['metric_name,timestamp,metric_value,check,group,name,status,extra_tags,metadata', ...rows].join('\n')));
    return path;
  };

  test('each request duration is read with its name, status and start; setup is left out', async () => {
    const path = csv([
      'http_req_duration,1000000000,5.000000,,::setup,decide,200,,',
      'http_reqs,1000010000,1.000000,,,decide,200,,',
      'checks,1000010000,1.000000,decide has usage,,decide,,,',
      'http_req_duration,1000010000,10.000000,,,decide,200,,',
      'http_req_duration,1000520000,20.000000,,,decide,500,,',
      'http_req_duration,1001000000,1.000000,,,decide,0,,',
    ]);
    expect(await readK6Samples(path)).toEqual([
      { name: 'decide', startedMs: 0, durationMs: 10, status: 200 },
      { name: 'decide', startedMs: 500, durationMs: 20, status: 500 },
      { name: 'decide', startedMs: 999, durationMs: 1, status: 0 },
    ]);
  });

  test("a k6 run's figures become the kit's nearest rank over its raw samples, not k6's interpolation", async () => {
    // 1..100 ms: nearest rank gives p99 = 99 and p50 = 50; k6's interpolation would give 99.01 and 50.5.
    const rows = Array.from({ length: 100 }, (_, i) => `http_req_duration,${1_000_000_000 + i * 10_000},${i + 1}.000000,,,decide,200,,`);
    const samples = await readK6Samples(csv(rows));
    const definition = await loadDefinition('decide-capacity', { BASE_URL: 'http://127.0.0.1:1', API_KEY: 'svc_live_x', DURATION: '2' });
    const fromK6 = {
      scenario: 'decide-capacity',
      percentile_method: 'k6-trend',
      error_rate: 0,
      check_rate: 1,
      latency: { all: { count: 100, p50_ms: 50.5, p90_ms: 90.1, p95_ms: 95.05, p99_ms: 99.01, max_ms: 100 } },
      thresholds: [],
      timeline: [],
    } as unknown as LoadRun;
    const run = withKitFigures(fromK6, definition, samples);
    expect(run.percentile_method).toBe('nearest-rank');
    expect(run.latency.all).toEqual(latencyOf(Array.from({ length: 100 }, (_, i) => i + 1)));
    expect(run.latency.all).toMatchObject({ count: 100, p50_ms: 50, p95_ms: 95, p99_ms: 99, max_ms: 100 });
    expect(run.latency.decide?.count).toBe(100);
    expect(run.thresholds.map((threshold) => threshold.condition)).toContain('p(99)<500');
    expect(run.passed).toBe(true);
  });
});

// One percentile definition for both generators, and the sample size a p99 verdict needs. The
// recorder's figures are the exact nearest-rank figures within the histogram's precision, per
// request name and per timeline window; k6's CSV output is streamed into it on one time origin.
import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import type { LoadLatency, LoadRun } from '../../reports/load-run.ts';
import { seededRandom } from '../definitions/common.js';
import { timelineWindows } from '../definitions/executor.js';
import { P99_MIN_REQUESTS, p99Interval, p99IntervalRanks } from '../definitions/order-statistics.js';
import { mergeParts, readPart } from '../merge.ts';
import { flat, sampleLoadRun } from '../../reports/test/sample-load.ts';
import { recordK6Samples } from '../k6-samples.ts';
import { createLatencyRecorder, type LatencyFigures, type LatencyLayout, latencyFigures, latencyOf, mergeRecorders } from '../percentiles.ts';
import type { RequestSample } from '../runner/samples.ts';
import { latencyShapes } from './latency-shapes.ts';

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
    // The ranks come from n alone, so a histogram reads its interval at the same ranks.
    expect(p99IntervalRanks(367)).toBeUndefined();
    expect(p99IntervalRanks(368)).toEqual({ lowerRank: 360, upperRank: 368 });
    expect(p99IntervalRanks(1000)).toEqual({ lowerRank: 983, upperRank: 997 });
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

/** A minute in windows of 5 s, three request names. */
const MINUTE: LatencyLayout = {
  executor: { executor: 'constant-arrival-rate', rate: 500, timeUnit: '1s', duration: '60s', preAllocatedVUs: 1, maxVUs: 1 },
  requestNames: ['decide', 'feedback', 'models'],
  timelineWindowS: 5,
};

/** The exact figures, from every duration sorted (the definition the recorder approximates), as the kit computed them before histograms. */
function exactFigures(layout: LatencyLayout, samples: readonly RequestSample[]): LatencyFigures {
  const answered = samples.filter((sample) => sample.status !== 0);
  const latency: Record<string, LoadLatency> = {};
  if (answered.length > 0) latency.all = latencyOf(answered.map((sample) => sample.durationMs));
  for (const name of layout.requestNames) {
    const durations = answered.filter((sample) => sample.name === name).map((sample) => sample.durationMs);
    if (durations.length > 0) latency[name] = latencyOf(durations);
  }
  const windows = timelineWindows(layout);
  const timeline = Array.from({ length: windows.count }, (_, index) => answered.filter((sample) => windows.indexAt(sample.startedMs) === index))
    .map((inWindow, index) => ({ index, stats: inWindow.length > 0 ? latencyOf(inWindow.map((sample) => sample.durationMs)) : undefined }))
    .filter((window) => window.stats !== undefined)
    .map(({ index, stats }) => ({
      start_s: index * windows.windowS,
      count: stats!.count,
      p50_ms: stats!.p50_ms,
      p95_ms: stats!.p95_ms,
      p99_ms: stats!.p99_ms,
    }));
  return { latency, timeline };
}

/**
 * A figure (rounded to 0.1 ms) read from the histogram against the exact one: at least the exact
 * value and above it by less than 1/1024 of it (histogram.ts), each side rounded to 0.1 ms.
 */
function expectWithinPrecision(read: number, exact: number, what: string) {
  expect(read, what).toBeGreaterThanOrEqual(exact - 0.1 - 1e-9);
  expect(read, what).toBeLessThanOrEqual(exact + (exact + 0.05) / 1024 + 0.1 + 1e-9);
}

function expectAgreement(read: LatencyFigures, exact: LatencyFigures) {
  expect(Object.keys(read.latency)).toEqual(Object.keys(exact.latency));
  for (const [name, figures] of Object.entries(exact.latency)) {
    const got = read.latency[name]!;
    expect(got.count, name).toBe(figures.count);
    expect(got.max_ms, name).toBe(figures.max_ms);
    for (const key of ['p50_ms', 'p90_ms', 'p95_ms', 'p99_ms'] as const) expectWithinPrecision(got[key], figures[key], `${name} ${key}`);
    expect(got.p99_interval_ms === undefined, name).toBe(figures.p99_interval_ms === undefined);
    if (figures.p99_interval_ms) {
      expectWithinPrecision(got.p99_interval_ms!.lower, figures.p99_interval_ms.lower, `${name} p99 interval lower`);
      expectWithinPrecision(got.p99_interval_ms!.upper, figures.p99_interval_ms.upper, `${name} p99 interval upper`);
    }
  }
  expect(read.timeline.map((window) => [window.start_s, window.count])).toEqual(exact.timeline.map((window) => [window.start_s, window.count]));
  read.timeline.forEach((window, index) => {
    const figures = exact.timeline[index]!;
    for (const key of ['p50_ms', 'p95_ms', 'p99_ms'] as const) expectWithinPrecision(window[key], figures[key], `window at ${window.start_s} s ${key}`);
  });
}

/** Requests over a minute (some past it, which count in the last window), mostly decide, 1 % without a response, 1 % answered 500. */
function seededRequests(count: number, durationOf: () => number, seed: number): RequestSample[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const pick = random();
    const status = pick < 0.01 ? 0 : pick < 0.02 ? 500 : 200;
    const name = random() < 0.8 ? 'decide' : random() < 0.9 ? 'feedback' : 'models';
    return { name, startedMs: random() * 62_000, durationMs: durationOf(), status };
  });
}

describe("the recorder's figures", () => {
  test.each(Object.keys(latencyShapes(1)))('%s: all, each name and each window within the precision of the exact figures', (shape) => {
    const samples = seededRequests(40_000, latencyShapes(5)[shape]!, 29);
    const recorder = createLatencyRecorder(MINUTE);
    for (const sample of samples) recorder.record(sample.name, sample.startedMs, sample.durationMs, sample.status);
    const read = recorder.figures();
    const exact = exactFigures(MINUTE, samples);
    expectAgreement(read, exact);
    // The per-window and per-name figures were there to compare: 12 windows with their p99, three names with their interval.
    expect(read.timeline).toHaveLength(12);
    expect(exact.latency.models!.p99_interval_ms).toBeDefined();
    expect(latencyFigures(MINUTE, samples)).toEqual(read);
  });

  test("recorders merged give the figures of all their requests (a distributed run's generators)", () => {
    const samples = seededRequests(20_000, latencyShapes(9)['Pareto heavy tail from 5 ms (α 1.1)']!, 31);
    const parts = [createLatencyRecorder(MINUTE), createLatencyRecorder(MINUTE)];
    samples.forEach((sample, index) => parts[index % 3 === 0 ? 0 : 1]!.record(sample.name, sample.startedMs, sample.durationMs, sample.status));
    mergeRecorders(parts[0]!, parts[1]!);
    expect(parts[0]!.figures()).toEqual(latencyFigures(MINUTE, samples));
    expect(() => mergeRecorders(parts[0]!, createLatencyRecorder({ ...MINUTE, timelineWindowS: 10 }))).toThrow(/different layouts/);
    expect(() => mergeRecorders(parts[0]!, createLatencyRecorder({ ...MINUTE, requestNames: ['decide'] }))).toThrow(/different layouts/);
  });

  test('requests without a response are left out; a name outside the definition counts in all only; nothing recorded, no figures', () => {
    const recorder = createLatencyRecorder(MINUTE);
    expect(recorder.figures()).toEqual({ latency: {}, timeline: [] });
    recorder.record('decide', 10, 30_000, 0);
    recorder.record('https://example.test/other', 10, 4, 200);
    expect(recorder.figures().latency).toEqual({ all: { count: 1, p50_ms: 4, p90_ms: 4, p95_ms: 4, p99_ms: 4, max_ms: 4 } });
  });
});

const K6_HEADER = 'metric_name,timestamp,metric_value,check,group,name,status,extra_tags,metadata';

function csv(rows: readonly string[], { header = K6_HEADER, newlineAtEnd = true } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'decision-k6-samples-'));
  const path = join(dir, 'samples.csv.gz');
  writeFileSync(path, gzipSync([header, ...rows].join('\n') + (newlineAtEnd ? '\n' : '')));
  return path;
}

/** What k6 writes for one request (the rows of a real run: load/bench/synthetic-k6-csv.ts): its duration among the other points. */
function requestRows(name: string, endUs: number, durationMs: number, status: number): string[] {
  const tags = `,,,${name},${status},,`;
  return [
    `http_reqs,${endUs},1.000000${tags}`,
    `http_req_duration,${endUs},${durationMs.toFixed(6)}${tags}`,
    `http_req_blocked,${endUs},0.002114${tags}`,
    `http_req_waiting,${endUs},${durationMs.toFixed(6)}${tags}`,
    `http_req_failed,${endUs},${status >= 200 && status < 400 ? 0 : 1}.000000${tags}`,
    `checks,${endUs + 300},1.000000,${name} status,,${name},,,`,
    `timeline_w0,${endUs + 400},${durationMs.toFixed(6)},,,,,,`,
  ];
}

describe("k6's raw samples", () => {
  /** Windows of 10 ms over 1.2 s: a request's window shows its start to the 10 ms. */
  const FINE: LatencyLayout = {
    executor: { executor: 'per-vu-iterations', vus: 1, iterations: 1, maxDuration: '1.2s' },
    requestNames: ['decide', 'feedback'],
    timelineWindowS: 0.01,
  };
  const windowsOf = (figures: LatencyFigures) => figures.timeline.map((window) => [Math.round(window.start_s / 0.01), window.count, window.p50_ms]);

  test('each request duration is recorded with its name, status and start (end − duration); setup, teardown and other metrics are left out', async () => {
    const path = csv(
      [
        'http_req_duration,1000000000,5.000000,,::setup,decide,200,,',
        'data_sent,1000000100,76.000000,,::setup,,,,',
        ...requestRows('decide', 1_000_010_000, 10, 200),
        ...requestRows('feedback', 1_000_520_000, 20, 500),
        ...requestRows('decide', 1_001_000_000, 1, 0),
        // k6 quotes a tag that needs it.
        'http_req_duration,1000999500,0.500000,,,"decide",201,,',
        'http_req_duration,1001100000,3.000000,,::teardown,decide,200,,',
        'iteration_duration,1001100000,1100.000000,,,,,,',
        'http_req_duration,1001100000,2.000000,,,decide,200,,',
      ],
      { newlineAtEnd: false },
    );
    const recorder = createLatencyRecorder(FINE);
    const recording = await recordK6Samples([path], recorder);
    expect(recording).toEqual({
      originUs: 1_000_000_000,
      files: [{ path, requests: 5, firstStartUs: 1_000_000_000, lastEndUs: 1_001_100_000 }],
      reread: false,
    });
    const figures = recorder.figures();
    expect(figures.latency.all!.count).toBe(4);
    expect(figures.latency.decide!.count).toBe(3);
    expect(figures.latency.feedback).toMatchObject({ count: 1, max_ms: 20 });
    // Started 0, 500, 999 and 1,098 ms after the first request; the one without a response (999 ms) is left out.
    expect(windowsOf(figures)).toEqual([
      [0, 1, 10],
      [50, 1, 20],
      [99, 1, 0.5],
      [109, 1, 2],
    ]);
  });

  test('a file without a column the reader needs, or without a header, is refused with the reason', async () => {
    const noStatus = csv(['http_req_duration,1000,1.0,,,decide,,'], { header: 'metric_name,timestamp,metric_value,check,group,name,extra_tags,metadata' });
    await expect(recordK6Samples([noStatus], createLatencyRecorder(FINE))).rejects.toThrow(`cannot read k6's CSV output ${noStatus}: no status column`);
    const empty = join(mkdtempSync(join(tmpdir(), 'decision-k6-samples-')), 'empty.csv.gz');
    writeFileSync(empty, gzipSync(''));
    await expect(recordK6Samples([empty], createLatencyRecorder(FINE))).rejects.toThrow(/no header line/);
    for (const row of ['http_req_duration,1000,fast,,,decide,200,,', 'http_req_duration,,1.5,,,decide,200,,'])
      await expect(recordK6Samples([csv([row])], createLatencyRecorder(FINE))).rejects.toThrow(/unreadable request duration point/);
  });

  test("several files (a distributed run's pods) count from the earliest start over all of them, so their windows align", async () => {
    const windows: LatencyLayout = { ...FINE, executor: { ...FINE.executor, maxDuration: '6s' } as LatencyLayout['executor'], timelineWindowS: 0.5 };
    const t = 2_000_000_000;
    // Pod A starts 700 ms after pod B: its requests lie in windows 1 and 2, not 0 and 1 as on an origin of its own.
    const podA = csv([...requestRows('decide', t + 705_000, 5, 200), ...requestRows('decide', t + 1_205_000, 5, 200)]);
    const podB = csv([...requestRows('decide', t + 5_000, 5, 200), ...requestRows('decide', t + 1_305_000, 5, 200)]);
    const recorder = createLatencyRecorder(windows);
    const recording = await recordK6Samples([podA, podB], recorder);
    expect(recording).toEqual({
      originUs: t,
      files: [
        { path: podA, requests: 2, firstStartUs: t + 700_000, lastEndUs: t + 1_205_000 },
        { path: podB, requests: 2, firstStartUs: t, lastEndUs: t + 1_305_000 },
      ],
      reread: false,
    });
    expect(recorder.figures().timeline.map((window) => [window.start_s, window.count])).toEqual([
      [0, 1],
      [0.5, 1],
      [1, 2],
    ]);
  });

  /** Two pods' files of seeded requests in k6's order (by end), with the samples the kit should record from them. */
  function seededPods(seed: number, earlySlowRequest: boolean) {
    const random = seededRandom(seed);
    const draw = latencyShapes(seed)['lognormal, median 8 ms']!;
    const t = 3_000_000_000;
    const pods = [0, 1].map((pod) =>
      Array.from({ length: 3000 }, () => {
        const startUs = t + 100_000 + pod * 250_000 + Math.floor(random() * 59_000_000);
        const durationMs = Math.round(draw() * 1e6) / 1e6;
        const pick = random();
        return { name: pick < 0.7 ? 'decide' : pick < 0.9 ? 'feedback' : 'models', startUs, durationMs, status: pick > 0.995 ? 0 : 200 };
      }),
    );
    // The run's first request, answered 40 s later: written long after the first 15 s of its file.
    if (earlySlowRequest) pods[1]!.push({ name: 'decide', startUs: t, durationMs: 40_000, status: 200 });
    const requests = pods.map((pod) => pod.map((request) => ({ ...request, endUs: Math.round(request.startUs + request.durationMs * 1000) })));
    const paths = requests.map((pod) => csv([...pod].sort((a, b) => a.endUs - b.endUs).flatMap((r) => requestRows(r.name, r.endUs, r.durationMs, r.status))));
    const all = requests.flat();
    const originUs = Math.min(...all.map((request) => request.endUs - request.durationMs * 1000));
    const samples = all.map((request) => ({
      name: request.name,
      startedMs: (request.endUs - request.durationMs * 1000 - originUs) / 1000,
      durationMs: request.durationMs,
      status: request.status,
    }));
    return { paths, samples, originUs };
  }

  test.each([
    ['found in the first 15 s of a file: one pass', false, false],
    ['of a request slower than that: read again with the exact origin', true, true],
  ])('the figures of requests streamed from files equal those of the same requests in memory; the origin %s', async (_case, earlySlowRequest, reread) => {
    const { paths, samples, originUs } = seededPods(43, earlySlowRequest);
    const recorder = createLatencyRecorder(MINUTE);
    const recording = await recordK6Samples(paths, recorder);
    expect(recording.originUs).toBe(originUs);
    expect(recording.reread).toBe(reread);
    expect(recording.files.map((file) => file.requests)).toEqual([3000, earlySlowRequest ? 3001 : 3000]);
    expect(recorder.figures()).toEqual(latencyFigures(MINUTE, samples));
  });

  test("a k6 run's figures become the kit's nearest rank over its raw samples, not k6's interpolation", async () => {
    // 1..100 ms: nearest rank gives p99 = 99 and p50 = 50; k6's interpolation would give 99.01 and 50.5.
    const rows = Array.from({ length: 100 }, (_, i) => `http_req_duration,${1_000_000_000 + i * 10_000},${i + 1}.000000,,,decide,200,,`);
    // The part a k6 process leaves (load.json with k6's own figures, and its raw samples), judged as `load run` judges it.
    const dir = mkdtempSync(join(tmpdir(), 'decision-k6-part-'));
    renameSync(csv(rows), join(dir, 'samples.csv.gz'));
    const fromK6: LoadRun = {
      ...sampleLoadRun(true, flat),
      percentile_method: 'k6-trend',
      requests: 100,
      requests_by_name: { decide: 100 },
      latency: { all: { count: 100, p50_ms: 50.5, p90_ms: 90.1, p95_ms: 95.05, p99_ms: 99.01, max_ms: 100 } },
      thresholds: [],
      limits: { thresholds: { p95Ms: 250, p99Ms: 500, errorRate: 0.01, checkRate: 0.99 }, timeline_window_s: 1 },
    };
    writeFileSync(join(dir, 'load.json'), JSON.stringify(fromK6));
    const run = await mergeParts([readPart(dir)]);
    expect(run.percentile_method).toBe('nearest-rank');
    expect(run.latency.all).toEqual(latencyOf(Array.from({ length: 100 }, (_, i) => i + 1)));
    expect(run.latency.all).toMatchObject({ count: 100, p50_ms: 50, p95_ms: 95, p99_ms: 99, max_ms: 100 });
    expect(run.latency.decide?.count).toBe(100);
    expect(run.thresholds.map((threshold) => threshold.condition)).toContain('p(99)<500');
    expect(run.passed).toBe(true);
  });
});

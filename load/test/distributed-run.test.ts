// A run split over k6 processes (execution segments, as k6-operator splits it over pods) is judged
// as one run: it sends the planned requests whole, in 2 and in 4 parts; its merged percentiles
// agree with one process at the same total rate; a slowed part shows in the merged tail; and the
// command line runs it with the same flags the TestRun gives pods.
import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../api/embedded-target.ts';
import { isOperation, startMutatingProxy, type RunningProxy } from '../../harness/testing/mutating-proxy.ts';
import type { LoadRun } from '../../reports/load-run.ts';
import { plannedIterations } from '../definitions/executor.js';
import { runWithK6, segmentOf } from '../k6.ts';
import { k6SampleOutput } from '../k6-samples.ts';
import { warmUp } from '../run.ts';
import { k6ForTests, LATENCY_OUT_OF_REACH_FLAGS, loadRunErrors, NO_K6, runKitCommand, settingsFor } from './support.ts';

const k6 = k6ForTests();
if (!k6) console.warn(NO_K6);

/**
 * 390 decides at 130/s: enough for the p99's confidence interval (368), light for two cores. These
 * runs are the serial tail of the test run (they need a machine with CPU to spare), so they are
 * as short as the interval allows: 3 s, not 5 at 80/s.
 */
const SETTINGS = { RATE: '130', DURATION: '3' };
const SLOW_MS = 60;
const SLOW_RUN = 'slowpart';

test('the sequence and segments of N equal parts, as k6 writes them', () => {
  expect(segmentOf(1, 0)).toEqual({ segment: '0:1', sequence: '0,1' });
  expect(segmentOf(4, 0)).toEqual({ segment: '0:1/4', sequence: '0,1/4,2/4,3/4,1' });
  expect(segmentOf(4, 3)).toEqual({ segment: '3/4:1', sequence: '0,1/4,2/4,3/4,1' });
});

test('the k6-operator TestRun gives each pod the flags `load run --instances` gives each k6 process', () => {
  const testRun = parse(readFileSync(new URL('../k6-operator/testrun.yaml', import.meta.url), 'utf8'));
  const args: string = testRun.spec.arguments;
  const expected = k6SampleOutput('/parts/samples.csv.gz');
  expect(args).toContain(expected.args.join(' '));
  expect(args).toContain('--console-output /parts/console.log');
  expect(args).toContain('-e REPORT_DIR=/parts');
  for (const [name, value] of Object.entries(expected.env)) expect(testRun.spec.runner.env).toContainEqual({ name, value });
  expect(testRun.spec.runner.volumeMounts[0]).toMatchObject({ mountPath: '/parts', subPathExpr: '$(POD_NAME)' });
});

describe.skipIf(!k6)('a run split over k6 processes', () => {
  let target: EmbeddedTarget;
  let slow: RunningProxy;
  const runs: Record<string, LoadRun> = {};
  const split = (instances: number, baseUrl = target.baseUrl, partSettings?: (index: number) => Record<string, string | undefined>) =>
    runWithK6(k6!, 'decide-steady', settingsFor(baseUrl, target.keyA, SETTINGS), () => {}, { instances, ...(partSettings ? { partSettings } : {}) });

  beforeAll(async () => {
    target = await startEmbeddedTarget();
    // Holds the decides of the part whose request ids carry SLOW_RUN for SLOW_MS; passes the others on.
    slow = await startMutatingProxy(target.baseUrl, {
      request: async (sent) => {
        if (isOperation(sent, 'POST', '/v1/decide') && (sent.headers['x-request-id'] ?? '').includes(SLOW_RUN)) await sleep(SLOW_MS);
        return sent;
      },
    });
    await warmUp('decide-steady', settingsFor(target.baseUrl, target.keyA));
    // One after the other: each measurement has the machine to itself. The single process runs
    // before and after the split ones: on a busy machine the tail moves over the minute they take
    // (a core kept busy put one whole run's p99 interval at 23.9–51.5 ms and the next run's, in four
    // parts, at 14–23 ms), so the split runs are held to what one process showed over that time.
    runs.whole = await split(1);
    runs.two = await split(2);
    runs.four = await split(4);
    runs.wholeAfter = await split(1);
    // Every part through the proxy (one server, as for pods); the third quarter's decides are held for SLOW_MS.
    runs.slowed = await split(4, slow.baseUrl, (index) => ({ RUN_ID: index === 2 ? `${SLOW_RUN}${index}` : `part${index}` }));
  }, 180_000);
  afterAll(async () => {
    await slow?.close();
    await target?.stop();
  });

  test('whole, in 2 and in 4 parts: the planned requests are sent, within one per process', () => {
    const planned = plannedIterations(runs.whole!.executor as never)!;
    expect(planned).toBe(390);
    const figures = Object.entries(runs).map(([name, run]) => `${name}: ${run.requests} requests, parts ${run.parts?.count ?? 1}`);
    console.log(`planned ${planned}; ${figures.join('; ')}`);
    for (const [name, instances] of [
      ['whole', 1],
      ['two', 2],
      ['four', 4],
    ] as const) {
      const run = runs[name]!;
      expect(loadRunErrors(run)).toEqual([]);
      expect(run.parts?.count ?? 1).toBe(instances);
      expect(Math.abs(run.requests - planned)).toBeLessThanOrEqual(instances);
      expect(run.latency.all!.count).toBe(run.requests);
      expect(run.check_rate).toBe(1);
    }
  });

  test('the merged percentiles agree with one process at the same total rate, within their 95 % intervals', () => {
    const wholes = [runs.whole!.latency.all!, runs.wholeAfter!.latency.all!];
    // The range of the single process's p99 intervals, before and after.
    const lower = Math.min(...wholes.map((whole) => whole.p99_interval_ms!.lower));
    const upper = Math.max(...wholes.map((whole) => whole.p99_interval_ms!.upper));
    for (const name of ['two', 'four'] as const) {
      const merged = runs[name]!.latency.all!;
      console.log(
        `${name}: p50 ${merged.p50_ms} ms, p99 ${merged.p99_ms} ms (95 % ${merged.p99_interval_ms?.lower}–${merged.p99_interval_ms?.upper}); whole before and after: p50 ${wholes.map((whole) => whole.p50_ms).join(' and ')} ms, p99 ${wholes.map((whole) => `${whole.p99_ms} ms (95 % ${whole.p99_interval_ms?.lower}–${whole.p99_interval_ms?.upper})`).join(' and ')}`,
      );
      // The intervals of samples of one distribution overlap.
      expect(merged.p99_interval_ms!.lower).toBeLessThanOrEqual(upper);
      expect(lower).toBeLessThanOrEqual(merged.p99_interval_ms!.upper);
    }
  });

  test("a slowed part's requests are in the merged tail, not averaged away", () => {
    const slowed = runs.slowed!.latency.all!;
    console.log(`slowed quarter: p50 ${slowed.p50_ms} ms, p95 ${slowed.p95_ms} ms, p99 ${slowed.p99_ms} ms, max ${slowed.max_ms} ms`);
    expect(slowed.p50_ms).toBeLessThan(SLOW_MS);
    expect(slowed.p95_ms).toBeGreaterThanOrEqual(SLOW_MS);
    expect(runs.four!.latency.all!.p95_ms).toBeLessThan(SLOW_MS);
  });
});

describe.skipIf(!k6)('load run --instances', () => {
  const dir = mkdtempSync(join(tmpdir(), 'decision-instances-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('splits each run over k6 processes and reports it as one, with whether the generator kept up', { timeout: 120_000 }, async () => {
    const run = await runKit([
      'load',
      'run',
      '--scenario',
      'decide-steady',
      '--instances',
      '2',
      '--repeat',
      '1',
      '--duration',
      '2',
      '--rate',
      '20',
      '--report-dir',
      dir,
      ...LATENCY_OUT_OF_REACH_FLAGS,
    ]);
    expect(run.code, run.out + run.err).toBe(0);
    // Whether it kept up is said either way: with no idle CPU (a core kept busy) it is "not shown to keep up", never bound.
    expect(run.out).toMatch(
      /generator (?:kept up|not shown to keep up \([^)]*\)); planned 20\/s, achieved [\d.]+ iterations\/s; generator [\d.]+ cores, server [\d.]+ cores, idle [\d.]+ \(of \d+\)/,
    );
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    expect(results.load.runs[0].parts).toEqual({ count: 2, sequence: '0,1/2,1' });
    expect(results.load.runs[0].generator_health.bound).toBe(false);
  });

  test('the Node runner does not split: exit 2, saying why', async () => {
    const run = await runKitCommand('load', 'run', '--scenario', 'decide-steady', '--node', '--instances', '2');
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/--instances needs k6 .*the Node runner runs in one process/);
  });
});

/** The command with this test's k6. */
const runKit = async (args: string[]) => (await import('../../harness/testing/kit-command.ts')).runKitCommand(args, { K6_BIN: k6! });

// A run split over k6 processes (execution segments, as k6-operator splits it over pods) is judged
// as one run: it sends the planned requests whole, in 2 and in 4 parts; its merged percentiles
// agree with one process at the same total rate; a slowed part shows in the merged tail. These
// compare latencies of runs taken one after another, and run in the measuring project, alone
// (test/projects.ts); what needs no quiet machine is in split-run.test.ts.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../api/embedded-target.ts';
import { isOperation, startMutatingProxy, type RunningProxy } from '../../harness/testing/mutating-proxy.ts';
import type { LoadRun } from '../../reports/load-run.ts';
import { plannedIterations } from '../definitions/executor.js';
import { runWithK6 } from '../k6.ts';
import { warmUp } from '../run.ts';
import { k6ForTests, loadRunErrors, NO_K6, settingsFor } from './support.ts';

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

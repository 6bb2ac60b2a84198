// load compare on real runs: a server with 20 % less throughput is flagged, and the same capacity
// on both sides is not. The capacity is paced on the server's clock, so the machine's own speed,
// busy or not, does not set it (compared-runs.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { isOperation, startMutatingProxy, type Mutation } from '../../harness/testing/mutating-proxy.ts';
import { compareRuns } from '../compare.ts';
import { SHORT, useComparedRuns } from './compared-runs.ts';

describe('on real runs', () => {
  const runs = useComparedRuns();

  /**
   * A server whose decide capacity is `perSecond`: it releases at most one decide answer every
   * 1/perSecond s, as a worker of that speed would. This machine's raw capacity moves by more than
   * 20 % between seconds, so the 20 % is built into the server, well below that raw capacity. The
   * answers are paced on the server's clock, not delayed per request: a delay per request added
   * the client's and the proxy's own time on top (20 % built in measured -14 % on a busy host, and
   * the runs were not separated); paced, a closed loop whose own time stays under the period runs
   * at exactly the capacity.
   */
  const capacity = (perSecond: number): Mutation => {
    const periodMs = 1000 / perSecond;
    let nextRelease = 0;
    return {
      response: async (received, sent) => {
        if (isOperation(sent, 'POST', '/v1/decide')) {
          const release = Math.max(performance.now(), nextRelease);
          nextRelease = release + periodMs;
          await sleep(release - performance.now());
        }
        return received;
      },
    };
  };

  test('a server with 20 % less throughput is flagged, and the same capacity on both sides is not', { timeout: 150_000 }, async () => {
    // 25 and 20 decisions a second: 40 and 50 ms a decide, far above what the runner, the proxy
    // and the server take even on a crowded host, so that their own time stays under the period
    // and the pacing alone sets the rate. At 50 and 40 (20 and 25 ms) a busy second of CI once
    // pushed a baseline run below a candidate run (the median change was -20 %, but unseparated);
    // at 100 and 80 the change measured only -13 %.
    const full = await startMutatingProxy(runs.target.baseUrl, capacity(25));
    const reduced = await startMutatingProxy(runs.target.baseUrl, capacity(20));
    // Runs of three seconds, 75 decisions at full capacity: a hiccup of the machine (this host was
    // seen to lose 20 % of its speed for a few hundred milliseconds) then moves a run's throughput
    // by a few per cent, not by the 20 % being looked for.
    const LONGER = { ...SHORT, DURATION: '3' };
    try {
      const throttled = await runs.measurePair(full.baseUrl, reduced.baseUrl, LONGER);
      const verdict = compareRuns(throttled.baseline, throttled.candidate);
      console.log(`20 % less capacity: throughput change ${Math.round(verdict.metrics[0]!.change * 100)} %`);
      expect(verdict.metrics.find((metric) => metric.metric === 'throughput_rps')?.regression).toBe(true);
      const same = await runs.measurePair(full.baseUrl, full.baseUrl, LONGER);
      expect(compareRuns(same.baseline, same.candidate).regression).toBe(false);
    } finally {
      await Promise.all([full.close(), reduced.close()]);
    }
  });
});

// load compare on real runs: the same server compared with itself is not flagged, in 10 of 10
// interleaved tries, while another process keeps one core busy. The claim is about that neighbour
// and no other: with the other test files beside it (four workers on two cores) the machine's load
// comes in bursts that no interleaving order cancels, and a self-comparison was flagged there
// (throughput 875 -> 646 a second, every pair worse), so this file runs in the measuring project,
// alone (vitest.config.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { compareRuns, type Comparison } from '../compare.ts';
import { useComparedRuns } from './compared-runs.ts';

describe('on real runs', () => {
  const runs = useComparedRuns();

  test('the same server compared with itself is not flagged in 10 of 10 interleaved tries, while another process keeps a core busy', {
    timeout: 180_000,
  }, async () => {
    // A neighbour spinning one of this machine's cores for the whole measurement.
    const spinner: ChildProcess = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
    const verdicts = [];
    try {
      for (let i = 0; i < 10; i++) {
        const { baseline, candidate } = await runs.measurePair(runs.transparent.baseUrl, runs.transparent.baseUrl);
        verdicts.push(compareRuns(baseline, candidate));
      }
    } finally {
      // SIGKILL: a spin loop never returns to its event loop, so a SIGTERM handler that a preload
      // installed (NODE_OPTIONS=--require …) would never run, and the spinner would outlive the
      // file, keeping a core busy under every run after it.
      spinner.kill('SIGKILL');
    }
    const flagged = verdicts.filter((verdict) => verdict.regression);
    const change = (verdict: Comparison, metric: string) => `${Math.round(verdict.metrics.find((entry) => entry.metric === metric)!.change * 100)} %`;
    console.log(
      `self-comparison with a core busy: throughput change ${verdicts.map((verdict) => change(verdict, 'throughput_rps')).join(', ')}; p50 change ${verdicts.map((verdict) => change(verdict, 'latency p50_ms')).join(', ')}; flagged ${flagged.length} of 10`,
    );
    expect(flagged.map((verdict) => verdict.metrics.filter((metric) => metric.regression))).toEqual([]);
  });
});

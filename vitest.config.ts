import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/longest-first.ts';

/**
 * Files whose verdicts need a machine with CPU to spare: the generator verdict draws no "bound"
 * on a full machine (it says "unproven"), and the split-run proof compares latency intervals of
 * runs taken minutes apart. They run alone, after the rest. So does the self-comparison of
 * `load compare`, whose claim is about one busy core, not about the bursts of other test files
 * beside it; the other proofs of `load compare` are built to hold on a busy machine
 * (load/test/compared-runs.ts) and run with the rest.
 */
const MEASURING = ['load/test/distributed-run.test.ts', 'load/test/generator-bound.test.ts', 'load/test/compare-self.test.ts'];

export default defineConfig({
  test: {
    exclude: ['node_modules/**', 'reports/out/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Tests start real servers (Prism, the reference server) on free ports. Four workers on two
    // cores: many files spend much of their time waiting (paced load runs, expiry waits, k6 and npm
    // in processes of their own), and the extra workers fill that time (measured on this machine:
    // 2 workers 695 s, 3 workers 501 s, 4 workers 432 s). Six kept both cores busy throughout and
    // were no faster (555 s against 573 s with four, in one session): the CPU the tests need grew
    // with the contention. Every test is built to hold on a machine with more work than cores.
    maxWorkers: 4,
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: { name: 'kit', include: ['**/test/**/*.test.ts'], exclude: ['node_modules/**', 'reports/out/**', ...MEASURING], sequence: { groupOrder: 0 } },
      },
      { extends: true, test: { name: 'measuring', include: MEASURING, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});

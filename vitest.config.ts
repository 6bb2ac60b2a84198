import { defineConfig } from 'vitest/config';
import { LongestFirst, recordedDurations } from './test/longest-first.ts';
import { isolatedFiles, MEASURING } from './test/projects.ts';

/** The files that run in a process each (test/projects.ts says which and why). */
const OWN_PROCESS = isolatedFiles(recordedDurations());

export default defineConfig({
  test: {
    exclude: ['node_modules/**', 'reports/out/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    globalSetup: ['test/scratch-folder.ts'],
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
        test: {
          name: 'kit',
          isolate: false,
          include: ['**/test/**/*.test.ts'],
          exclude: ['node_modules/**', 'reports/out/**', ...MEASURING, ...OWN_PROCESS],
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: 'kit-isolated', include: OWN_PROCESS, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'measuring', include: MEASURING, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});

import { defineConfig } from 'vitest/config';

/**
 * Files that measure performance and judge it: they spin a core of their own and compare runs
 * of real servers, so a neighbour test file on the other core moves their figures (a
 * self-comparison once lost 38 % of its throughput to one). They run alone, after the rest.
 */
const MEASURING = ['load/test/compare.test.ts', 'load/test/distributed-run.test.ts', 'load/test/generator-bound.test.ts'];

export default defineConfig({
  test: {
    exclude: ['node_modules/**', 'reports/out/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Tests start real servers (Prism, the reference server) on free ports; two cores.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'kit', include: ['**/test/**/*.test.ts'], exclude: ['node_modules/**', 'reports/out/**', ...MEASURING], sequence: { groupOrder: 0 } },
      },
      { extends: true, test: { name: 'measuring', include: MEASURING, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/test/**/*.test.ts'],
    exclude: ['node_modules/**', 'reports/out/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Tests start real servers (Prism, the reference server) on free ports; two cores.
    maxWorkers: 2,
  },
});

// bench:ref judges latency over several rounds: the percentile of their requests taken together
// must be that of one sorted list of all of them, not of any one round.
import { expect, test } from 'vitest';
import { pooledPercentile, type OpenLoopResult } from '../bench/open-loop.ts';

const run = (latencies: number[]): OpenLoopResult => ({
  sent: latencies.length,
  errors: 0,
  p50: Number.NaN,
  p99: Number.NaN,
  achievedRate: 0,
  latencies: Float64Array.from(latencies).sort(),
});

test('the pooled p99 of a calm and a slow round lies in the slow round', () => {
  const calm = run(Array.from({ length: 100 }, (_, i) => 1 + i / 100));
  const slow = run(Array.from({ length: 100 }, (_, i) => 20 + i));
  expect(pooledPercentile([calm, slow], 0.99)).toBe(118);
  expect(pooledPercentile([calm, slow], 0.5)).toBe(20);
  expect(pooledPercentile([calm], 0.99)).toBe(1.99);
});

test('no requests: NaN, not a made-up figure', () => {
  expect(pooledPercentile([run([])], 0.99)).toBeNaN();
});

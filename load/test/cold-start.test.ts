// Cold start of the bundled server: a spawn reaches a successful decide within the seed's
// allowance; an allowance too short for any server is reported as exceeded, not waited out.
import { expect, test } from 'vitest';
import { coldStartAllowanceMs } from '../../spec/index.ts';
import { measureColdStart } from '../cold-start.ts';

test('the bundled server answers its first decide within the seed allowance', { timeout: 60_000 }, async () => {
  const sample = await measureColdStart();
  expect(sample.listeningMs).toBeGreaterThan(0);
  expect(sample.firstDecideMs).toBeGreaterThanOrEqual(sample.listeningMs);
  expect(sample.firstDecideMs).toBeLessThan(coldStartAllowanceMs);
});

test('a start slower than the allowance fails with the reason', { timeout: 60_000 }, async () => {
  await expect(measureColdStart(5)).rejects.toThrow(/did not listen within 5 ms/);
});

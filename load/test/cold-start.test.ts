// Cold start of the bundled server: a spawn reaches a successful decide within the seed's
// allowance; an allowance too short for any server is reported as exceeded, not waited out.
import { expect, test } from 'vitest';
import { coldStartAllowanceMs } from '../../spec/index.ts';
import { coldStart } from '../cold-start.ts';

test('the bundled server answers its first decide within the seed allowance', { timeout: 60_000 }, async () => {
  const sample = await coldStart();
  expect(sample.listeningMs).toBeGreaterThan(0);
  expect(sample.firstDecideMs).toBeGreaterThanOrEqual(sample.listeningMs);
  expect(sample.firstDecideMs).toBeLessThan(coldStartAllowanceMs);
});

test('a start slower than the allowance fails with the reason', { timeout: 60_000 }, async () => {
  await expect(coldStart({ allowanceMs: 5 })).rejects.toThrow(/printed no address within 5 ms/);
});

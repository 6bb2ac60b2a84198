// bench:ref prints the host's steal beside each latency round: the share must come from the steal
// column of /proc/stat's first line, and be absent rather than made up where it cannot be read.
import { expect, test } from 'vitest';
import { stealShare } from '../bench/machine.ts';
import { cpuCounters } from '../process-usage.ts';

const procStat = (user: number, idle: number, steal: number) => `cpu  ${user} 5 300 ${idle} 10 0 40 ${steal} 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n`;

test('the steal share is the steal ticks over all ticks between two readings', () => {
  const before = cpuCounters(() => procStat(1000, 5000, 100))!;
  const after = cpuCounters(() => procStat(1600, 5300, 200))!;
  expect(before).toEqual({ idle: 5000 + 10, steal: 100, total: 1000 + 5 + 300 + 5000 + 10 + 0 + 40 + 100 });
  // 600 user + 300 idle + 100 steal ticks passed: a tenth went to the host.
  expect(stealShare(before, after)).toBeCloseTo(0.1, 10);
});

test('no /proc/stat, a kernel without a steal column, or no time passed: no figure', () => {
  expect(
    cpuCounters(() => {
      throw new Error('ENOENT');
    }),
  ).toBeUndefined();
  expect(cpuCounters(() => 'cpu  1 2 3 4 5 6 7\n')).toBeUndefined();
  expect(cpuCounters(() => 'intr 1 2 3 4 5 6 7 8 9\n')).toBeUndefined();
  const same = cpuCounters(() => procStat(1, 1, 1));
  expect(stealShare(same, same)).toBeUndefined();
  expect(stealShare(undefined, same)).toBeUndefined();
});

test.runIf(process.platform === 'linux')('this machine reports its counters', () => {
  const counters = cpuCounters();
  expect(counters?.total).toBeGreaterThan(0);
  expect(counters!.steal).toBeGreaterThanOrEqual(0);
});

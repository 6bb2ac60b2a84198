// A check that waits on the server's clock starts with the run: its wait overlaps the checks
// before it, its result still comes at its place in the catalogue, and the work it shares with a
// later check is done once.
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from 'vitest';
import { ALL_CAPABILITIES, type Check } from '../check.ts';
import { runChecks } from '../runner.ts';

const WAIT_MS = 300;

test('a check marked waitsOnClock runs from the start of the run, reported in catalogue order, its shared wait made once', async () => {
  const order: string[] = [];
  let waits = 0;
  const check = (id: string, run: Check['run'], waitsOnClock = false): Check => ({
    id,
    level: 'MUST',
    area: 'test',
    seedSections: ['3'],
    title: id,
    ...(waitsOnClock ? { waitsOnClock } : {}),
    run: async (t) => {
      order.push(`run ${id}`);
      await run(t);
    },
  });
  const expiry = (t: Parameters<Check['run']>[0]) =>
    t.shared('the wait', async () => {
      waits += 1;
      await sleep(WAIT_MS);
    });
  const results = await runChecks([check('FIRST', () => sleep(WAIT_MS)), check('WAITER', expiry, true), check('AFTER', expiry)], {
    target: { baseUrl: 'http://127.0.0.1:9', capabilities: new Set(ALL_CAPABILITIES), hasSecondKey: false },
    keyA: 'svc_live_test',
    timeoutMs: 5_000,
    onStart: (started) => order.push(`start ${started.id}`),
    onResult: (result) => order.push(`result ${result.id}`),
  });
  expect(results.map((result) => [result.id, result.status])).toEqual([
    ['FIRST', 'pass'],
    ['WAITER', 'pass'],
    ['AFTER', 'pass'],
  ]);
  // The waiting check ran from the start, before the first one ended; each is still announced and reported in turn, and the wait was made once.
  expect(order).toEqual([
    'run WAITER',
    'start FIRST',
    'run FIRST',
    'result FIRST',
    'start WAITER',
    'result WAITER',
    'start AFTER',
    'run AFTER',
    'result AFTER',
  ]);
  expect(waits).toBe(1);
});

// A check that waits on the server's clock prepares before the first check: its preparation runs
// alone (no request of the run overlaps another), the wait it starts passes during the checks
// before it, its result comes at its place in the catalogue, and the preparation's requests are
// reported as the check's own, first.
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from 'vitest';
import { ALL_CAPABILITIES, type Check } from '../check.ts';
import type { CheckContext } from '../context.ts';
import { runChecks } from '../runner.ts';
import { listenOnLoopback } from '../testing/loopback.ts';

const WAIT_MS = 300;

test('a check with prepare starts its wait before the first check, alone, and reports the preparation as its own', async () => {
  const order: string[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const server = createServer((request, response) => {
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    order.push(`server ${request.method} ${request.url}`);
    setTimeout(() => {
      inFlight -= 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    }, 20);
  });
  const { url: baseUrl, close } = await listenOnLoopback(server);
  try {
    const expiry = (t: CheckContext) =>
      t.shared('the wait', async () => {
        await t.a.send({ method: 'POST', path: '/v1/assets', raw: 'x', contentType: 'text/plain' });
        return { expired: sleep(WAIT_MS) };
      });
    const check = (id: string, extra: Partial<Check>): Check => ({
      id,
      level: 'MUST',
      area: 'test',
      seedSections: ['3'],
      title: id,
      run: async () => undefined,
      ...extra,
    });
    const results = await runChecks(
      [
        check('FIRST', {
          run: async (t) => {
            order.push('run FIRST');
            await t.a.send({ method: 'GET', path: '/v1/models' });
          },
        }),
        check('WAITER', {
          prepare: async (t) => void (await expiry(t)),
          run: async (t) => {
            order.push('run WAITER');
            await (await expiry(t)).expired;
            await t.a.send({ method: 'POST', path: '/v1/decide', json: {} });
          },
        }),
      ],
      {
        target: { baseUrl, capabilities: new Set(ALL_CAPABILITIES), hasSecondKey: false },
        keyA: 'svc_live_test',
        timeoutMs: 5_000,
        onStart: (started) => order.push(`start ${started.id}`),
      },
    );
    expect(results.map((result) => [result.id, result.status])).toEqual([
      ['FIRST', 'pass'],
      ['WAITER', 'pass'],
    ]);
    // The upload went first, before any check started; then every check in turn, one request at a time.
    expect(order).toEqual([
      'server POST /v1/assets',
      'start FIRST',
      'run FIRST',
      'server GET /v1/models',
      'start WAITER',
      'run WAITER',
      'server POST /v1/decide',
    ]);
    expect(mostInFlight).toBe(1);
    // The preparation's request is reported with the check's own, before them.
    expect(results[1]!.exchanges.map((exchange) => `${exchange.request.method} ${new URL(exchange.request.url).pathname}`)).toEqual([
      'POST /v1/assets',
      'POST /v1/decide',
    ]);
    expect(results[0]!.exchanges).toHaveLength(1);
  } finally {
    await close();
  }
});

// A check whose time is up stops sending: the runner aborts its requests and its Retry-After
// waits. Counted on the server's side: the requests a slow or rate-limiting server receives once
// runCheck has returned.
import { listenOnLoopback } from '../testing/loopback.ts';
import { createServer, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, test } from 'vitest';
import { ALL_CAPABILITIES, type Check } from '../check.ts';
import { runCheck } from '../runner.ts';

interface CountingServer {
  baseUrl: string;
  received(): number;
  close(): Promise<void>;
}

/** A server that counts the requests it receives and answers each one as `answer` says. */
async function countingServer(answer: (respond: (status: number, headers?: Record<string, string>) => void) => void): Promise<CountingServer> {
  let received = 0;
  const server: Server = createServer((request, response) => {
    received += 1;
    request.resume();
    answer((status, headers = {}) => {
      if (!response.destroyed) response.writeHead(status, { 'content-type': 'application/json', ...headers }).end('{}');
    });
  });
  const { url, close } = await listenOnLoopback(server);
  return { baseUrl: url, received: () => received, close };
}

/** A check that sends GET /v1/models for as long as it is let run. */
const loopingCheck: Check = {
  id: 'TEST-LOOPING',
  level: 'MUST',
  area: 'test',
  seedSections: ['4.3'],
  title: 'sends requests in a loop',
  async run(t) {
    for (;;) await t.a.send({ method: 'GET', path: '/v1/models' });
  },
};

const oneRequestCheck: Check = {
  ...loopingCheck,
  id: 'TEST-ONE-REQUEST',
  title: 'sends one request',
  run: async (t) => void (await t.a.send({ method: 'GET', path: '/v1/models' })),
};

const run = (check: Check, baseUrl: string, checkTimeoutMs: number) =>
  runCheck(check, {
    target: { baseUrl, capabilities: new Set(ALL_CAPABILITIES), hasSecondKey: false },
    keyA: 'svc_live_test',
    timeoutMs: 5_000,
    checkTimeoutMs,
  });

describe('a check whose time is up stops sending', () => {
  let server: CountingServer | undefined;
  afterEach(async () => server?.close());

  test('a check sending requests in a loop to a slow server sends none once its time is up', async () => {
    // Each answer takes 100 ms: in the 1.5 s watched afterwards, a check left running would send about 15 more.
    server = await countingServer((respond) => void setTimeout(() => respond(200), 100));
    const result = await run(loopingCheck, server.baseUrl, 600);
    expect(result.status).toBe('fail');
    expect(result.message).toMatch(/did not finish within 600 ms/);
    // A request written just before the abort may reach the server a moment later, more so on a busy
    // machine: count from 100 ms after, when a check left running would already be sending again.
    await sleep(100);
    const atTimeout = server.received();
    expect(atTimeout).toBeGreaterThan(1);
    await sleep(1_500);
    expect(server.received() - atTimeout).toBe(0);
  });

  test('a check waiting on a server that never answers stops its request at the timeout', async () => {
    server = await countingServer(() => undefined);
    // 1 s: the one request reaches the server well inside it even when the machine is busy.
    const result = await run(loopingCheck, server.baseUrl, 1_000);
    expect(result.status).toBe('fail');
    const atTimeout = server.received();
    expect(atTimeout).toBe(1);
    await sleep(1_000);
    expect(server.received()).toBe(atTimeout);
    // The request in flight at the abort is recorded as stopped by the check's timeout, not left open.
    expect(result.exchanges.at(-1)?.transportError ?? '').toMatch(/did not finish within 1000 ms/);
  });

  test("a request answered 429 is not sent again after the check's time is up", async () => {
    // Retry-After 1 s: a wait that outlives the 300 ms the check has, then a second request.
    server = await countingServer((respond) => respond(429, { 'retry-after': '1' }));
    const result = await run(oneRequestCheck, server.baseUrl, 300);
    expect(result.status).toBe('fail');
    expect(server.received()).toBe(1);
    await sleep(2_000);
    expect(server.received()).toBe(1);
  });
});

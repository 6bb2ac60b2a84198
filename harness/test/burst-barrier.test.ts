// The burst barrier makes overlap certain: requests sent a few milliseconds apart to a server that
// answers at once come back together, a request sent alone is answered after the gathering time,
// and without the barrier the same server answers each request on its own.
import { createServer, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { overlapAchieved, overlapOf, type Timed } from '../overlap.ts';
import { addBurstBarrier } from '../testing/burst-barrier.ts';
import { listenOnLoopback, type Listening } from '../testing/loopback.ts';

let server: Server;
let baseUrl: string;
let listening: Listening;
let handled = 0;

beforeAll(async () => {
  // Answers at once: on its own, never two answers together unless sent within the same instant.
  server = createServer((_request, response) => {
    handled += 1;
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end(String(handled));
  });
  listening = await listenOnLoopback(server);
  baseUrl = listening.url;
});
afterAll(() => listening.close());

/** Sends `count` requests `spacingMs` apart, each timed as the kit times its exchanges. */
async function spread(count: number, spacingMs: number): Promise<Timed[]> {
  const sends: Array<Promise<Timed>> = [];
  for (let index = 0; index < count; index += 1) {
    const startedAtMs = performance.timeOrigin + performance.now();
    sends.push(
      fetch(baseUrl).then(async (response) => {
        await response.text();
        return { startedAtMs, durationMs: performance.timeOrigin + performance.now() - startedAtMs };
      }),
    );
    await sleep(spacingMs);
  }
  return Promise.all(sends);
}

const ends = (exchanges: readonly Timed[]) => exchanges.map((exchange) => exchange.startedAtMs + exchange.durationMs);

test('eight requests sent 5 ms apart are handed over together and answered together', async () => {
  const barrier = addBurstBarrier(server, { size: 8, gatherMs: 1_000 });
  try {
    const exchanges = await spread(8, 5);
    expect(barrier.groupsTogether).toBe(1);
    // No answer came before the last request was sent: the first request waited for the eighth.
    expect(Math.min(...ends(exchanges))).toBeGreaterThan(Math.max(...exchanges.map((exchange) => exchange.startedAtMs)));
    expect(overlapOf(exchanges, 8).maxInFlight).toBe(8);
  } finally {
    barrier.remove();
  }
});

test('a burst smaller than the barrier is released after the gathering time, together', async () => {
  const barrier = addBurstBarrier(server, { size: 8, gatherMs: 60 });
  try {
    const started = performance.now();
    const exchanges = await spread(3, 2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    expect(barrier.groupsTogether).toBe(1);
    expect(Math.min(...ends(exchanges))).toBeGreaterThan(Math.max(...exchanges.map((exchange) => exchange.startedAtMs)));
  } finally {
    barrier.remove();
  }
});

test("a request alone still gets its answer, and removing the barrier gives the server's handling back", async () => {
  const barrier = addBurstBarrier(server, { gatherMs: 20 });
  const [alone] = await spread(1, 0);
  expect(alone!.durationMs).toBeGreaterThanOrEqual(15);
  expect(barrier.groupsTogether).toBe(0);
  barrier.remove();
  const before = handled;
  const response = await fetch(baseUrl);
  expect(await response.text()).toBe(String(before + 1));
  expect(server.listeners('request')).toHaveLength(1);
});

test('bursts sent 8 ms apart request by request count as overlap achieved through the barrier', async () => {
  const barrier = addBurstBarrier(server, { size: 4, gatherMs: 40 });
  // A request alone first, as a check's set-up sends: its latency is what "together" is measured against.
  let withBarrier: Timed[] = await spread(1, 0);
  try {
    for (let burst = 0; burst < 3; burst += 1) withBarrier = [...withBarrier, ...(await spread(4, 8))];
  } finally {
    barrier.remove();
  }
  expect(overlapAchieved(overlapOf(withBarrier, 4))).toBe(true);
});

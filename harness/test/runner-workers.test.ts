// --workers: checks that share no state run together and their requests share the run's slots
// (never more in flight than the workers); checks that run alone do, after the others, with no
// other request in flight; results come in the catalogue's order; and one 429 holds every worker
// for its Retry-After. The fixture server decides the timing (it holds requests until released),
// so none of this depends on the machine's speed.
import { listenOnLoopback } from '../testing/loopback.ts';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterEach, expect, test } from 'vitest';
import { asCleanup } from '../overlap-group.ts';
import { addBurstBarrier } from '../testing/burst-barrier.ts';
import { ALL_CAPABILITIES, type Check } from '../check.ts';
import type { CheckContext } from '../context.ts';
import { inOrder, requestSlots, rateGate } from '../in-flight.ts';
import { runChecks, type RunOptions } from '../runner.ts';

interface Seen {
  path: string;
  /** How many requests the server held when this one came, itself included. */
  inFlight: number;
}

/**
 * A server that answers each request after `holdMs`, or as `answer` says; what it saw, in order.
 * With `gather`, requests are held until that many are (a barrier), so that the kit's overlap, not
 * the machine's speed, decides how many the server sees at once.
 */
async function fixtureServer(options: { holdMs?: number; gather?: number; answer?: (request: IncomingMessage, response: ServerResponse) => boolean } = {}) {
  const seen: Seen[] = [];
  let inFlight = 0;
  let most = 0;
  const server = createServer((request, response) => {
    inFlight += 1;
    most = Math.max(most, inFlight);
    seen.push({ path: request.url ?? '', inFlight });
    response.on('finish', () => (inFlight -= 1));
    if (options.answer?.(request, response)) return;
    setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'), options.holdMs ?? 30);
  });
  if (options.gather) addBurstBarrier(server, { size: options.gather, gatherMs: 300 });
  const { url, close } = await listenOnLoopback(server);
  closers.push(close);
  return { baseUrl: url, seen, most: () => most };
}
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const check = (id: string, requests: number, extra: Partial<Check> = {}): Check => ({
  id,
  level: 'MUST',
  area: 'test',
  seedSections: ['4'],
  title: id,
  async run(t) {
    for (let index = 0; index < requests; index += 1) await t.a.send({ method: 'GET', path: `/${extra.exclusive ? 'alone' : 'shared'}/${id}/${index}` });
  },
  ...extra,
});

const optionsFor = (baseUrl: string, extra: Partial<RunOptions> = {}): RunOptions => ({
  target: { baseUrl, capabilities: new Set(ALL_CAPABILITIES), hasSecondKey: false },
  keyA: 'svc_live_test',
  timeoutMs: 10_000,
  ...extra,
});

test('with 3 workers, 6 checks of 4 requests each keep 3 requests in flight, never more, and report in the catalogue order', async () => {
  const server = await fixtureServer({ gather: 3 });
  const checks = ['A', 'B', 'C', 'D', 'E', 'F'].map((id) => check(id, 4));
  const told: string[] = [];
  const results = await runChecks(checks, optionsFor(server.baseUrl, { workers: 3, onResult: (result) => told.push(result.id) }));
  expect(results.map((result) => result.id)).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
  expect(told).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
  expect(results.every((result) => result.status === 'pass' && result.exchanges.length === 4)).toBe(true);
  expect(server.most()).toBe(3);
  expect(server.seen).toHaveLength(24);
});

test('a check with cases of its own shares the slots: its cases and the other checks together stay within the workers', async () => {
  const server = await fixtureServer({ gather: 4 });
  const fanning: Check = {
    ...check('FAN', 0),
    // Sends as many requests at once as the workers allow it, as the coverage phase does with its cases.
    run: async (t) => void (await Promise.all(Array.from({ length: t.workers * 2 }, (_, index) => t.a.send({ method: 'GET', path: `/shared/FAN/${index}` })))),
  };
  const results = await runChecks([fanning, check('B', 6), check('C', 6)], optionsFor(server.baseUrl, { workers: 4 }));
  expect(results.map((result) => result.status)).toEqual(['pass', 'pass', 'pass']);
  expect(server.most()).toBe(4);
});

test('checks that run alone run after the others, one at a time, with no other request in flight, and report at their place', async () => {
  // The burst's requests are held until all six are in: the kit sent them together, whatever the machine's speed.
  const burst: ServerResponse[] = [];
  const server = await fixtureServer({
    holdMs: 5,
    answer: (request, response) => {
      if (!request.url?.startsWith('/alone/BURST')) return false;
      burst.push(response);
      if (burst.length === 6) for (const held of burst) held.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      return true;
    },
  });
  const checks = [
    check('A', 3),
    check('ALONE-1', 3, { exclusive: true }),
    check('B', 3),
    check('C', 3),
    // A concurrent check runs alone too, and sends its burst unthrottled by the slots.
    {
      ...check('BURST', 0, { concurrent: true }),
      run: async (t: CheckContext) =>
        void (await Promise.all(Array.from({ length: 6 }, (_, index) => t.a.send({ method: 'GET', path: `/alone/BURST/${index}` })))),
    },
    check('D', 3),
  ];
  const told: string[] = [];
  const results = await runChecks(checks, optionsFor(server.baseUrl, { workers: 2, onResult: (result) => told.push(result.id) }));
  expect(told).toEqual(['A', 'ALONE-1', 'B', 'C', 'BURST', 'D']);
  expect(results.map((result) => result.id)).toEqual(told);
  const firstAlone = server.seen.findIndex((seen) => seen.path.startsWith('/alone/'));
  // Every shared request came before the first alone one, and each alone request had the server to itself (the burst its own).
  expect(server.seen.slice(firstAlone).every((seen) => seen.path.startsWith('/alone/'))).toBe(true);
  expect(server.seen.filter((seen) => seen.path.startsWith('/alone/ALONE-1')).map((seen) => seen.inFlight)).toEqual([1, 1, 1]);
  expect(Math.max(...server.seen.filter((seen) => seen.path.startsWith('/alone/BURST')).map((seen) => seen.inFlight))).toBe(6);
});

/** A check that starts among the others: `before` requests through the slots, then t.alone(), then a burst of `burst`. */
const startingAmongOthers = (id: string, before: number, burst: number, extra: Partial<Check> = {}): Check => ({
  ...check(id, 0, { concurrent: true, startsAmongOthers: true }),
  async run(t) {
    for (let index = 0; index < before; index += 1) await t.a.send({ method: 'GET', path: `/shared/${id}/${index}` });
    await t.alone();
    await Promise.all(Array.from({ length: burst }, (_, index) => t.a.send({ method: 'GET', path: `/alone/${id}/${index}` })));
  },
  ...extra,
});

test('a check that starts among the others sends its first requests with them and its burst alone, and its wait is not its time', async () => {
  const held: ServerResponse[] = [];
  const server = await fixtureServer({
    holdMs: 40,
    answer: (request, response) => {
      if (!request.url?.startsWith('/alone/')) return false;
      held.push(response);
      if (held.length % 4 === 0) for (const each of held.splice(0)) each.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      return true;
    },
  });
  const checks = [startingAmongOthers('EARLY', 3, 4), check('A', 6), check('B', 6), startingAmongOthers('LATE', 3, 4), check('C', 6)];
  for (const workers of [1, 3]) {
    server.seen.length = 0;
    const told: string[] = [];
    const results = await runChecks(checks, optionsFor(server.baseUrl, { workers, onResult: (result) => told.push(result.id) }));
    expect(told).toEqual(['EARLY', 'A', 'B', 'LATE', 'C']);
    expect(results.map((result) => result.status)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass']);
    const paths = server.seen.map((seen) => seen.path);
    // Every shared request, the starting ones included, came before the first burst; each burst had the server to itself.
    const firstAlone = paths.findIndex((path) => path.startsWith('/alone/'));
    expect(paths.slice(0, firstAlone).filter((path) => /^\/shared\/(EARLY|LATE)\//.test(path))).toHaveLength(6);
    expect(paths.slice(firstAlone).map((path) => path.split('/')[2])).toEqual(['EARLY', 'EARLY', 'EARLY', 'EARLY', 'LATE', 'LATE', 'LATE', 'LATE']);
    expect(server.seen.filter((seen) => seen.path.startsWith('/alone/')).map((seen) => seen.inFlight)).toEqual([1, 2, 3, 4, 1, 2, 3, 4]);
    // With 3 workers, the starting requests went out among the other checks': theirs came between them.
    const earlyFirst = paths.indexOf('/shared/EARLY/0');
    const earlyLast = paths.indexOf('/shared/EARLY/2');
    const between = paths.slice(earlyFirst + 1, earlyLast).filter((path) => !path.startsWith('/shared/EARLY/'));
    if (workers === 3) expect(between.length).toBeGreaterThan(0);
    else expect(between).toEqual([]);
    // EARLY waited for all eighteen requests of A, B and C (40 ms each at best, three at a time): its own time is its six.
    const early = results[0]!;
    expect(early.durationMs).toBeLessThan(results.slice(1, 3).reduce((sum, result) => sum + result.durationMs, 0));
  }
});

test('a check that starts among the others and never asks for the server to itself fails as a mistake of the check', async () => {
  const server = await fixtureServer({ holdMs: 5 });
  const forgetful: Check = { ...startingAmongOthers('FORGETFUL', 2, 0), run: async (t) => void (await t.a.send({ method: 'GET', path: '/shared/FORGETFUL' })) };
  const sharing: Check = { ...check('SHARING', 0), run: (t) => t.alone() };
  const [forgot, shared] = await runChecks([forgetful, sharing], optionsFor(server.baseUrl, { workers: 2 }));
  expect(forgot!.status).toBe('fail');
  expect(forgot!.message).toMatch(/The check itself failed: it started among the other checks and never asked for the server to itself/);
  expect(shared!.status).toBe('fail');
  expect(shared!.message).toMatch(/SHARING shares the server with other checks: it cannot ask for it alone/);
});

test('one 429 holds every worker for its Retry-After: no request reaches the server meanwhile, and the refused one is sent again', async () => {
  let limited = false;
  const server = await fixtureServer({
    holdMs: 10,
    answer: (request, response) => {
      if (request.url !== '/shared/A/1' || limited) return false;
      limited = true;
      response.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' }).end('{"error":{"code":"RATE_LIMITED"}}');
      return true;
    },
  });
  const gate = rateGate();
  const results = await runChecks(
    ['A', 'B', 'C', 'D'].map((id) => check(id, 8)),
    optionsFor(server.baseUrl, { workers: 4, rateGate: gate }),
  );
  expect(results.map((result) => result.status)).toEqual(['pass', 'pass', 'pass', 'pass']);
  // Requests already on their way when the 429 came back cannot be called back; every request sent
  // after it, by any worker, went out a whole Retry-After later (less a little for the clocks' rounding).
  const exchanges = results.flatMap((result) => result.exchanges);
  const refused = exchanges.find((exchange) => exchange.response?.status === 429)!;
  const answeredAt = refused.startedAtMs + refused.durationMs;
  const sentAfter = exchanges.filter((exchange) => exchange.startedAtMs > answeredAt).map((exchange) => exchange.startedAtMs - answeredAt);
  expect(sentAfter.length).toBeGreaterThan(20);
  expect(Math.min(...sentAfter)).toBeGreaterThanOrEqual(950);
  expect(server.seen.filter((seen) => seen.path === '/shared/A/1')).toHaveLength(2);
  expect(gate.held().times).toBe(1);
  expect(results[0]!.notes.join(' ')).toMatch(/1 requests answered 429 were sent again after the Retry-After wait/);
});

test('request slots: at most the limit at once, in the order asked; a wait ends with its signal', async () => {
  const slots = requestSlots(2);
  const first = await slots.acquire();
  const second = await slots.acquire();
  const order: string[] = [];
  const third = slots.acquire().then((release) => (order.push('third'), release));
  const stop = new AbortController();
  const abandoned = slots.acquire(stop.signal);
  const fourth = slots.acquire().then((release) => (order.push('fourth'), release));
  stop.abort(new Error('time is up'));
  await expect(abandoned).rejects.toThrow('time is up');
  first();
  second();
  (await third)();
  (await fourth)();
  expect(order).toEqual(['third', 'fourth']);
  expect(slots.most()).toBe(2);
});

test("a concurrent check's cleanup, sent together, is not its overlap: requests that overlapped only there are skipped for want of it", async () => {
  const server = await fixtureServer({ gather: 4 });
  const sequentialThenCleanup: Check = {
    ...check('CLEANS-UP', 0, { concurrent: true }),
    run: async (t: CheckContext) => {
      for (let index = 0; index < 4; index += 1) await t.a.send({ method: 'GET', path: `/alone/one-by-one/${index}` });
      await asCleanup(() => Promise.all(Array.from({ length: 4 }, (_, index) => t.a.send({ method: 'DELETE', path: `/alone/cleanup/${index}` }))));
    },
  };
  const [result] = await runChecks([sequentialThenCleanup], optionsFor(server.baseUrl, { concurrency: 4 }));
  // The cleanup did overlap on the server (the barrier released its four together) …
  expect(Math.max(...server.seen.filter((seen) => seen.path.startsWith('/alone/cleanup')).map((seen) => seen.inFlight))).toBe(4);
  expect(result!.exchanges.filter((exchange) => exchange.cleanup)).toHaveLength(4);
  // … but the check measured only what it judged, sent one by one.
  expect(result!.status).toBe('skip');
  expect(result!.overlap?.maxInFlight).toBe(1);
});

test('request slots narrow to half on a 429 (at least one) and widen by one per round of other answers, up to the limit', async () => {
  const slots = requestSlots(8);
  slots.narrow();
  expect(slots.inUse()).toBe(4);
  for (let index = 0; index < 3; index += 1) slots.narrow();
  expect(slots.inUse()).toBe(1);
  // With one slot in use, a second request waits although the limit is eight …
  const first = await slots.acquire();
  let second: (() => void) | undefined;
  const waiting = slots.acquire().then((release) => (second = release));
  await Promise.resolve();
  expect(second).toBeUndefined();
  // … until an answer widens the slots to two: then it goes.
  slots.widen();
  await waiting;
  expect(slots.inUse()).toBe(2);
  first();
  second!();
  for (let index = 0; index < 100; index += 1) slots.widen();
  expect(slots.inUse()).toBe(8);
});

test("inOrder: results in the items' order whatever finished first, and the first failure in that order once all have settled", async () => {
  const finished: number[] = [];
  const work = async (ms: number) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    finished.push(ms);
    if (ms % 10 === 5) throw new Error(`failed after ${ms} ms`);
    return ms * 2;
  };
  expect(await inOrder([40, 10, 30, 20], 4, work)).toEqual([80, 20, 60, 40]);
  expect(finished).toEqual([10, 20, 30, 40]);
  finished.length = 0;
  // 25 fails before 45 does, but 45 comes first among the items: its failure is the one thrown, after 60 has finished too.
  await expect(inOrder([45, 25, 60], 3, work)).rejects.toThrow('failed after 45 ms');
  expect(finished).toEqual([25, 45, 60]);
  // One at a time: the same outcome.
  await expect(inOrder([45, 25, 60], 1, work)).rejects.toThrow('failed after 45 ms');
});

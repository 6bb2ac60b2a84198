// Overlap that comes from the fixture, not from luck. The concurrency checks pass only when the
// answers of a burst come back together (overlap.ts); a server in the test's own process, on a
// slow or busy machine, can answer the first request of a burst before the kit has sent the
// second, and the check is then honestly skipped for want of overlap. A barrier on the server's
// side makes the overlap certain: requests are gathered until `size` are held (the burst the kit
// sends) or `gatherMs` have passed since the first (a request sent alone, or a smaller burst),
// handed to the server together, and their answers are written together once all of them are
// ready. A server behind it still does its own work on every request; only when its requests
// start and when its answers leave is decided here.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { DEFAULT_CONCURRENCY } from '../overlap.ts';
import type { RunOptions } from '../runner.ts';

export interface BurstBarrierOptions {
  /** Requests that make a whole burst: released at once when this many are held. */
  size?: number;
  /** The longest a request waits for others before its group is released anyway. */
  gatherMs?: number;
  /** The longest an answer waits for the rest of its group (an answer that never ends must not hold the others). */
  answerWaitMs?: number;
}

export interface BurstBarrier {
  /** How many groups of two or more requests were released together. */
  readonly groupsTogether: number;
  /** Puts the server's own request handling back. */
  remove(): void;
}

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

/** Puts a barrier in front of the server's request handlers (a node:http server, Fastify's `app.server` included). */
export function addBurstBarrier(server: Server, options: BurstBarrierOptions = {}): BurstBarrier {
  const size = options.size ?? DEFAULT_CONCURRENCY;
  const gatherMs = options.gatherMs ?? 15;
  const answerWaitMs = options.answerWaitMs ?? 2_000;
  const handlers = server.listeners('request') as RequestListener[];
  let held: Array<[IncomingMessage, ServerResponse]> = [];
  let timer: NodeJS.Timeout | undefined;
  let groupsTogether = 0;

  const release = () => {
    clearTimeout(timer);
    timer = undefined;
    const group = held;
    held = [];
    if (group.length > 1) groupsTogether += 1;
    answerTogether(
      group.map(([, response]) => response),
      answerWaitMs,
    );
    for (const [request, response] of group) for (const handler of handlers) handler.call(server, request, response);
  };

  const gather: RequestListener = (request, response) => {
    held.push([request, response]);
    if (held.length >= size) release();
    else timer ??= setTimeout(release, gatherMs);
  };

  server.removeAllListeners('request');
  server.on('request', gather);
  return {
    get groupsTogether() {
      return groupsTogether;
    },
    remove() {
      if (held.length > 0) release();
      server.removeListener('request', gather);
      for (const handler of handlers) server.on('request', handler);
    },
  };
}

/**
 * Holds each response's end until every response of the group has ended (or closed), then ends
 * them all in one turn of the event loop, so that the answers leave together.
 */
function answerTogether(group: readonly ServerResponse[], answerWaitMs: number): void {
  if (group.length < 2) return;
  const endings: Array<() => void> = [];
  let waiting = group.length;
  let cap: NodeJS.Timeout | undefined;
  let flushed = false;
  const flush = () => {
    clearTimeout(cap);
    flushed = true;
    for (const end of endings.splice(0)) end();
  };
  const settled = () => {
    waiting -= 1;
    if (waiting === 0) flush();
  };
  for (const response of group) {
    const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
    let counted = false;
    const count = () => {
      if (counted) return;
      counted = true;
      settled();
    };
    response.end = ((...args: unknown[]) => {
      response.end = end as ServerResponse['end'];
      if (flushed) return end(...args);
      endings.push(() => end(...args));
      cap ??= setTimeout(flush, answerWaitMs);
      count();
      return response;
    }) as ServerResponse['end'];
    // A request the client gave up on never ends: it must not hold the rest.
    response.once('close', count);
  }
}

/**
 * Runner hooks that put a barrier in front of `server` while a concurrent check runs, and take it
 * away for the others: the sequential checks then run as fast as ever, and the concurrent ones
 * see the overlap they need on any machine.
 */
export function barrierDuringConcurrentChecks(server: Server, options: BurstBarrierOptions = {}): Pick<RunOptions, 'onAlone' | 'onResult'> {
  let barrier: { id: string; barrier: BurstBarrier } | undefined;
  return {
    // A concurrent check's requests sent alone go out among the other checks': the barrier stands
    // only while it has the server to itself, and comes down with its result.
    onAlone(check) {
      if (check.concurrent) barrier = { id: check.id, barrier: addBurstBarrier(server, options) };
    },
    onResult(result) {
      if (result.id !== barrier?.id) return;
      barrier.barrier.remove();
      barrier = undefined;
    },
  };
}

/** Runs `use` with a barrier in front of `server`, then takes it away. */
export async function withBurstBarrier<T>(server: Server, use: () => Promise<T>, options: BurstBarrierOptions = {}): Promise<T> {
  const barrier = addBurstBarrier(server, options);
  try {
    return await use();
  } finally {
    barrier.remove();
  }
}

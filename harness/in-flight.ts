// How a run shares the server between its checks (--workers): a fixed number of request slots,
// and one pause for every request when the server answers 429. A deployed server is often one
// network round trip away, so a run keeps requests in flight instead of sending one at a time;
// and a rate limit is the project's, not a request's, so one 429 slows every worker down together.
// Written here rather than taken from p-limit: a request waiting for a slot must stop waiting when
// its check is aborted (its time is up), which p-limit's queue cannot do.
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * At most `limit` requests in flight at once, in the order they asked. A 429 narrows the slots in
 * use to half (at least one), and answers that are not 429 widen them again by one per round of
 * them, up to `limit`: a server whose rate limit is below what the workers send is sent what it
 * takes, instead of refusing the same requests again after every pause (additive increase,
 * multiplicative decrease, as TCP finds the rate a network sustains).
 */
export interface RequestSlots {
  readonly limit: number;
  /**
   * Waits for a free slot and returns its release; rejects with the signal's reason if aborted first.
   * `first`: ahead of every request waiting (a request sent again after a 429 goes first once the
   * pause ends, so that the rate limit's next window does not refuse it again for want of a turn).
   */
  acquire(signal?: AbortSignal, first?: boolean): Promise<() => void>;
  /** A 429: half the slots in use, at least one. */
  narrow(): void;
  /** An answer that is not 429: one more slot in use per round of them, up to the limit. */
  widen(): void;
  /** The slots in use now. */
  inUse(): number;
  /** The most requests that were in flight together so far. */
  most(): number;
}

export function requestSlots(limit: number): RequestSlots {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`request slots must be a positive whole number; got ${limit}`);
  let busy = 0;
  let most = 0;
  let usable = limit;
  let answered = 0;
  const waiting: Array<() => void> = [];
  const wake = () => {
    while (busy < usable && waiting.length > 0) waiting.shift()!();
  };
  const take = () => {
    busy += 1;
    most = Math.max(most, busy);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      busy -= 1;
      wake();
    };
  };
  return {
    limit,
    most: () => most,
    inUse: () => usable,
    narrow() {
      usable = Math.max(1, Math.floor(usable / 2));
      answered = 0;
    },
    widen() {
      if (usable >= limit) return;
      answered += 1;
      if (answered < usable) return;
      answered = 0;
      usable += 1;
      wake();
    },
    acquire(signal, first = false) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (busy < usable && waiting.length === 0) return Promise.resolve(take());
      return new Promise((resolve, reject) => {
        const turn = () => {
          signal?.removeEventListener('abort', abort);
          resolve(take());
        };
        const abort = () => {
          const index = waiting.indexOf(turn);
          if (index >= 0) waiting.splice(index, 1);
          reject(signal!.reason);
        };
        if (first) waiting.unshift(turn);
        else waiting.push(turn);
        signal?.addEventListener('abort', abort, { once: true });
        wake();
      });
    },
  };
}

/** One pause for every request of a run, set by a 429's Retry-After. */
export interface RateGate {
  /** Resolves once no pause is in force (at once, usually); rejects with the signal's reason if aborted first. */
  pass(signal?: AbortSignal): Promise<void>;
  /** Holds every request for `ms` from now; a pause already in force that ends later stays. */
  hold(ms: number): void;
  /** How often a pause was set, and for how long in all (overlapping pauses counted once). */
  held(): { times: number; totalMs: number };
}

export function rateGate(): RateGate {
  let until = 0;
  let times = 0;
  let totalMs = 0;
  return {
    async pass(signal) {
      // A later 429 may extend the pause while this request waits: wait again until none is in force.
      for (let left = until - Date.now(); left > 0; left = until - Date.now()) await sleep(left, undefined, signal ? { signal } : {});
      if (signal?.aborted) throw signal.reason;
    },
    hold(ms) {
      const now = Date.now();
      const end = now + ms;
      if (end <= until) return;
      times += 1;
      totalMs += end - Math.max(until, now);
      until = end;
    },
    held: () => ({ times, totalMs }),
  };
}

/** Runs `work` over `items` with at most `limit` in flight; the most that were. */
export async function inFlight<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<number> {
  let next = 0;
  let busy = 0;
  let most = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      busy += 1;
      most = Math.max(most, busy);
      try {
        await work(item);
      } finally {
        busy -= 1;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return most;
}

/**
 * `work` over `items`, at most `limit` at once, its results in the items' order. A failure is
 * thrown once every item has settled, the first in the items' order whatever finished first: a
 * check fails the same way, with the same message, whether it ran its items one by one or many
 * at once (--workers).
 */
export async function inOrder<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const settled: Array<PromiseSettledResult<R>> = [];
  await inFlight(
    items.map((_, index) => index),
    limit,
    async (index) => {
      try {
        settled[index] = { status: 'fulfilled', value: await work(items[index]!) };
      } catch (reason) {
        settled[index] = { status: 'rejected', reason };
      }
    },
  );
  const failed = settled.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<R>).value);
}

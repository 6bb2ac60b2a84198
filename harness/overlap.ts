// How much the requests of a check overlapped, measured from the exchanges it recorded, never
// assumed from how they were sent. Two figures:
// - in flight: the most requests sent and not yet answered at one instant, on the kit's side;
// - answered together: the most answers that came closer together than a server handling one
//   request at a time could give them. A server behind a lock is sent eight requests at once
//   (eight in flight) but answers them one service time apart: one answered together.

/** Requests the concurrency checks keep in flight together unless told otherwise (--concurrency). */
export const DEFAULT_CONCURRENCY = 8;

/** When a request was sent (epoch milliseconds) and how long its answer took. */
export interface Timed {
  startedAtMs: number;
  durationMs: number;
}

export interface Overlap {
  /** The number of requests the checks aimed to keep in flight together. */
  target: number;
  /** The most requests sent and not yet answered at one instant. */
  maxInFlight: number;
  /** The most answers that arrived within half the latency of a request sent alone (see answeredTogether). */
  answeredTogether: number;
}

/** The most intervals open at one instant; an answer and a send at the same instant do not overlap. */
export function maxInFlight(exchanges: readonly Timed[]): number {
  const events = exchanges.flatMap(({ startedAtMs, durationMs }) => [
    { at: startedAtMs, change: 1 },
    { at: startedAtMs + durationMs, change: -1 },
  ]);
  // Ends before starts at the same instant.
  events.sort((x, y) => x.at - y.at || x.change - y.change);
  let open = 0;
  let most = 0;
  for (const { change } of events) {
    open += change;
    most = Math.max(most, open);
  }
  return most;
}

/** The exchanges that overlapped no other: requests sent alone. */
function sentAlone(exchanges: readonly Timed[]): Timed[] {
  const end = (exchange: Timed) => exchange.startedAtMs + exchange.durationMs;
  return exchanges.filter((one) => exchanges.every((other) => other === one || end(other) <= one.startedAtMs || other.startedAtMs >= end(one)));
}

/**
 * The most answers that arrived within half the shortest latency of a request sent alone.
 * A server that handles one request at a time spends its service time between two answers, and
 * on a near server that time is most of the latency of a request sent alone: two answers closer
 * than half of it were handled together. On a far server, where the round trip dwarfs the
 * service time, this overstates (answers a round trip long could be queued and still arrive
 * close); the figure is then an upper bound. Without a request sent alone, the shortest latency
 * of all stands in for it. Ends of requests that never got an answer count as well.
 */
export function answeredTogether(exchanges: readonly Timed[]): number {
  if (exchanges.length === 0) return 0;
  const alone = sentAlone(exchanges);
  const baseline = Math.min(...(alone.length > 0 ? alone : exchanges).map((exchange) => exchange.durationMs));
  const window = baseline / 2;
  const ends = exchanges.map((exchange) => exchange.startedAtMs + exchange.durationMs).sort((x, y) => x - y);
  let most = 1;
  let first = 0;
  for (let last = 0; last < ends.length; last += 1) {
    while (ends[last]! - ends[first]! > window) first += 1;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

export function overlapOf(exchanges: readonly Timed[], target: number): Overlap {
  return { target, maxInFlight: maxInFlight(exchanges), answeredTogether: answeredTogether(exchanges) };
}

/**
 * Answers that must come together before a check may say its rule held under overlap. Two
 * answers closer than half a request's own latency cannot both have been handled one after the
 * other, as long as the server's work per request is well above the kit's own timing noise
 * (a fraction of a millisecond on loopback; a millisecond or two on a busy machine). A server
 * that works one request at a time for less than that can show two answers together by chance.
 */
export const ANSWERED_TOGETHER_FOR_OVERLAP = 2;

export function overlapAchieved(overlap: Overlap): boolean {
  return overlap.answeredTogether >= ANSWERED_TOGETHER_FOR_OVERLAP;
}

/** The overlap in one sentence, for notes and reports. */
export function describeOverlap(overlap: Overlap): string {
  return `${overlap.maxInFlight} requests in flight together at most (target ${overlap.target}); up to ${overlap.answeredTogether} answered together`;
}

/** The largest figures of several checks: the overlap of an area. */
export function combinedOverlap(overlaps: readonly Overlap[]): Overlap | undefined {
  if (overlaps.length === 0) return undefined;
  return {
    target: Math.max(...overlaps.map((overlap) => overlap.target)),
    maxInFlight: Math.max(...overlaps.map((overlap) => overlap.maxInFlight)),
    answeredTogether: Math.max(...overlaps.map((overlap) => overlap.answeredTogether)),
  };
}

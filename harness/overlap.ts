// How much the requests of a check overlapped, measured from the exchanges it recorded, never
// assumed from how they were sent. Two figures:
// - in flight: the most requests sent and not yet answered at one instant, on the kit's side;
// - answered together: how many answers of a burst typically came closer together than a server
//   handling one request at a time could give them. A server behind a lock is sent eight
//   requests at once (eight in flight) but answers them one service time apart: one together.

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
  /** How many answers of a burst typically arrived within half the latency of a request sent alone (see answeredTogether). */
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
 * The requests sent together, burst by burst: each burst is a run of requests each sent before
 * all the earlier ones of its run were answered. Requests sent alone are left out.
 */
export function bursts(exchanges: readonly Timed[]): Timed[][] {
  const byStart = [...exchanges].sort((x, y) => x.startedAtMs - y.startedAtMs);
  const groups: Timed[][] = [];
  let openUntil = -Infinity;
  for (const exchange of byStart) {
    const end = exchange.startedAtMs + exchange.durationMs;
    if (exchange.startedAtMs < openUntil) {
      groups.at(-1)!.push(exchange);
      openUntil = Math.max(openUntil, end);
    } else {
      groups.push([exchange]);
      openUntil = end;
    }
  }
  return groups.filter((group) => group.length > 1);
}

/** The most of `ends` that fall within `window` of one another. */
function mostWithin(ends: number[], window: number): number {
  const sorted = [...ends].sort((x, y) => x - y);
  let most = 1;
  let first = 0;
  for (let last = 0; last < sorted.length; last += 1) {
    while (sorted[last]! - sorted[first]! > window) first += 1;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

/**
 * How many answers of a burst typically came together: in each burst, the most answers that
 * arrived within half the shortest latency of a request sent alone; then the median over the
 * bursts (the lower one when their number is even).
 *
 * A server that handles one request at a time spends its service time between two answers, and
 * on a near server that time is most of the latency of a request sent alone: two answers closer
 * than half of it were handled together. The median, not the most, because the kit stamps an
 * answer when its own process reads it: a stall of that process (a busy machine, the scheduler)
 * can bunch the answers of one burst, but not of most of them, while a server that really handles
 * requests together does so in every burst. On a far server, where the round trip dwarfs the
 * service time, the figure can overstate (queued answers a round trip long could still arrive
 * close). Without a request sent alone, the shortest latency of all stands in for it.
 */
export function answeredTogether(exchanges: readonly Timed[]): number {
  const groups = bursts(exchanges);
  if (groups.length === 0) return exchanges.length > 0 ? 1 : 0;
  const alone = sentAlone(exchanges);
  const window = Math.min(...(alone.length > 0 ? alone : exchanges).map((exchange) => exchange.durationMs)) / 2;
  const perBurst = groups
    .map((group) =>
      mostWithin(
        group.map((exchange) => exchange.startedAtMs + exchange.durationMs),
        window,
      ),
    )
    .sort((x, y) => x - y);
  return perBurst[Math.floor((perBurst.length - 1) / 2)]!;
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
const ANSWERED_TOGETHER_FOR_OVERLAP = 2;

export function overlapAchieved(overlap: Overlap): boolean {
  return overlap.answeredTogether >= ANSWERED_TOGETHER_FOR_OVERLAP;
}

/** The overlap in one sentence, for notes and reports. */
export function describeOverlap(overlap: Overlap): string {
  return `${overlap.maxInFlight} requests in flight together at most (target ${overlap.target}); typically ${overlap.answeredTogether} answered together`;
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

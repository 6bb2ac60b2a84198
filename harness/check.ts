// What a check is: a small named function with metadata, traced to seed sections.
// Modelled on Schemathesis's checks and oasdiff's rule registry: a stable id, a level, a
// title, and a body that says what it expected and what it got.
import type { Capability, CheckContext, Observation } from './context.ts';
import type { CoverageRecord } from './coverage.ts';
import type { Exchange } from './http.ts';
import type { Overlap } from './overlap.ts';

// What a check's body can end with and what it observes, and the capabilities a target claims, live
// beside the context that throws and records them (context.ts imports nothing from here: no cycle).
export { ALL_CAPABILITIES, CheckFailure, CheckSkipped, type Capability, type Observation } from './context.ts';

/** MUST: the seed states it. SHOULD: the seed strongly implies it. OBSERVE: an open point, reported, never failed. */
export type Level = 'MUST' | 'SHOULD' | 'OBSERVE';

export interface CheckRequirements {
  /** Capabilities the target must claim; otherwise the check is skipped with the reason. */
  capabilities?: Capability[];
  /** Needs a key of a second project (isolation). */
  secondKey?: boolean;
}

export interface CheckMeta {
  /** Stable id, e.g. DECIDE-CHOICE-MARGIN. */
  id: string;
  level: Level;
  /** The area of the API, one per file of conformance/. */
  area: string;
  seedSections: string[];
  title: string;
  requires?: CheckRequirements;
  /** For OBSERVE checks: the spec's open point whose reference choice the observation is shown beside. */
  openPoint?: string;
  /** For OBSERVE checks that look at several open points at once (the coverage phase's): all of them. */
  openPoints?: string[];
  /**
   * For MUST and SHOULD checks inside an open point: the open points whose seed-stated bounds
   * (x-seed-bounds) the check enforces. Such a check judges only what the seed states, never a
   * reference choice, so every server choice the seed allows passes it.
   */
  bounds?: string[];
  /**
   * Sends requests together to judge a rule under overlap (the concurrency area). The runner
   * measures the overlap the check achieved from its exchanges, reports it, and lets it pass only
   * when answers came together (see runner.ts).
   */
  concurrent?: boolean;
  /**
   * Runs alone, with no other check's requests in flight (--workers): a check whose verdict could
   * change with the server's other work, such as one that compares two answers of the same request.
   * Concurrent checks and checks that wait on the server's clock run alone too (runsAlone).
   */
  exclusive?: boolean;
  /**
   * For a check that runs alone: its first requests, which need not, are sent among the other
   * checks' (through the run's slots), and it calls `t.alone()` before the part that must run
   * alone. A concurrency check sends each request alone, one after the other, before its bursts:
   * that part is as many round trips as it has requests, which a run with workers need not wait
   * for with the server to itself. The check's time does not run while it waits for its turn.
   */
  startsAmongOthers?: boolean;
  /** How long the check may take in all, over the run's default (a suite whose checks send hundreds of requests). */
  timeoutMs?: number;
}

export interface Check extends CheckMeta {
  run(t: CheckContext): Promise<void>;
  /**
   * For a check that waits on the server's clock (an asset expiring): sends what the wait is for
   * (the upload) and starts the wait in shared work (t.shared), which run() then awaits. The runner
   * calls it before any check runs, one check at a time, so that the wait overlaps the checks
   * before this one while no request of the run overlaps another; its requests are reported with
   * the check's own.
   */
  prepare?(t: CheckContext): Promise<void>;
}

export type CheckStatus = 'pass' | 'fail' | 'skip' | 'observed';

export interface CheckResult extends CheckMeta {
  status: CheckStatus;
  durationMs: number;
  /** Why it failed (expectation and observation) or why it was skipped. */
  message?: string;
  observation?: Observation;
  notes: string[];
  exchanges: Exchange[];
  /** For concurrent checks: the overlap measured from the exchanges (overlap.ts). */
  overlap?: Overlap;
  /** For a check of the coverage phase: the cases it sent, by the keyword or HTTP dimension each exercises. */
  coverage?: CoverageRecord[];
  /** For a response rule's result (response-rules/): how many exchanges it judged and broke, and who sent those. */
  rule?: { judged: number; breached: number; breachedBy: Record<string, number> };
}

/**
 * Whether a check runs alone: it says so, it measures overlap (its bursts are its own, not a mix
 * with other checks'), or it waits on the server's clock (an expiry seen late is still right, but
 * a wait that shares the run with other checks is no longer the short one the check announced).
 */
export const runsAlone = (check: Pick<Check, 'exclusive' | 'concurrent' | 'prepare'>): boolean =>
  check.exclusive === true || check.concurrent === true || check.prepare !== undefined;

/**
 * A suite's checks by id. An id names a check in --only, --skip, reports and replays, so a second
 * check under the same id is a mistake in the catalogue: refused when the suite is assembled.
 */
export function checksById(checks: readonly Check[], suite: string): ReadonlyMap<string, Check> {
  const byId = new Map<string, Check>();
  for (const check of checks) {
    if (byId.has(check.id)) throw new Error(`Duplicate ${suite} check id ${check.id}`);
    byId.set(check.id, check);
  }
  return byId;
}

/** Declares the checks of one area, stamping the area name on each. */
export function area(name: string, checks: Array<Omit<Check, 'area'>>): Check[] {
  return checks.map((check) => ({ ...check, area: name }));
}

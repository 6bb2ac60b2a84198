// Runs checks against a target and turns each outcome into a result with evidence: up to --workers
// checks at once, sharing the run's request slots and its pause after a 429, and the checks that
// must run alone after them, one by one. Results come out in the catalogue's order whatever ran when.
import { setMaxListeners } from 'node:events';
import { openPoint } from '../spec/index.ts';
import { CheckFailure, CheckSkipped, runsAlone, type Check, type CheckResult, type Observation } from './check.ts';
import { createCheckContext, type SharedWork, type Target } from './context.ts';
import type { CoverageRecord } from './coverage.ts';
import { inFlight, rateGate, requestSlots, type RateGate, type RequestSlots } from './in-flight.ts';
import { createHttp, KEY_VARIABLES, TransportError, type BodyStore, type Exchange, type KeyVariable } from './http.ts';
import { DEFAULT_CONCURRENCY, describeOverlap, overlapAchieved, overlapOf, type Overlap } from './overlap.ts';
import { redactDeep, redactText } from './redaction.ts';
import { judgedExchange } from './response-rules/exchange.ts';
import type { RuleLedger } from './response-rules/ledger.ts';

export interface RunOptions {
  target: Target;
  keyA: string;
  keyB?: string;
  timeoutMs: number;
  /** Seed of generated inputs; a run with the same seed generates the same inputs. */
  seed?: number;
  /** Cases per property-based check (the property suite); undefined: each property's default. */
  numRuns?: number;
  /** How many requests the concurrency checks aim to keep in flight together (default DEFAULT_CONCURRENCY). */
  concurrency?: number;
  /**
   * How many requests of the run may be in flight at once, and how many checks run together
   * (default 1: one request at a time). Checks that run alone (runsAlone) run after the others.
   */
  workers?: number;
  /** The run's request slots and pause after 429 (runChecks makes them; runCheck alone: none, and its own pause). */
  slots?: RequestSlots;
  rateGate?: RateGate;
  /**
   * For a check that starts among others (Check.startsAmongOthers), run by runChecks: called when
   * the check asks for the server to itself (t.alone()); resolves when its turn comes. Absent: at once.
   */
  aloneTurn?(): Promise<void>;
  /** How long one check may take in all; default ten request timeouts. Property checks need more. */
  checkTimeoutMs?: number;
  /** Run only these check ids (others are left out of the results). */
  only?: readonly string[];
  /** Report these check ids as skipped without running them. */
  skip?: readonly string[];
  /** Values redacted like keys wherever they appear (the values of --header-secret). */
  secrets?: readonly string[];
  /** Keeps the bodies too large to inline in reproduce lines, for the reports to write out. */
  bodies?: BodyStore;
  /** Work the checks of one run share (runChecks makes one per run). */
  sharedWork?: SharedWork;
  /** Judges every exchange of every check by the response rules, as it is received (one ledger per run). */
  ruleLedger?: RuleLedger;
  onStart?(check: Check): void;
  /**
   * When a check that runs alone gets the server to itself: as it starts, or, for a check that
   * started among the others, when its turn comes (a check that finished before it never gets one).
   */
  onAlone?(check: Check): void;
  /** What a running check is waiting for, to show the person running the kit. */
  onAnnounce?(check: Check, text: string): void;
  onResult?(result: CheckResult): void;
}

/** Each key of the run with the variable its reproduce lines name. */
function keyVariables(options: RunOptions): KeyVariable[] {
  return [
    { key: options.keyA, variable: KEY_VARIABLES.a },
    ...(options.keyB ? [{ key: options.keyB, variable: KEY_VARIABLES.b }] : []),
    ...(options.target.shortTtl ? [{ key: options.target.shortTtl.key, variable: KEY_VARIABLES.expiry }] : []),
  ];
}

/** Why a check cannot run against this target, or undefined when it can. */
export function unmetRequirement(check: Check, target: Target): string | undefined {
  const missing = (check.requires?.capabilities ?? []).filter((capability) => !target.capabilities.has(capability));
  if (missing.length > 0) return `the target does not claim the capability ${missing.join(', ')} (--capabilities)`;
  if (check.requires?.secondKey && !target.hasSecondKey) return 'needs a key of a second project (--api-key-b or DECISION_API_KEY_B)';
  return undefined;
}

export async function runCheck(check: Check, options: RunOptions): Promise<CheckResult> {
  const exchanges: Exchange[] = [];
  const notes: string[] = [];
  const coverage: CoverageRecord[] = [];
  let observation: Observation | undefined;
  const { run: _run, ...meta } = check;
  const started = performance.now();
  /** How long the check waited for its turn to run alone: not its own time. */
  let waitedMs = 0;
  const secrets = [options.keyA, options.keyB ?? '', options.target.shortTtl?.key ?? '', ...(options.secrets ?? [])].filter(Boolean);
  // Messages quote what servers sent, and a server may echo a key: results are redacted whole,
  // since the command line prints them as they are.
  let rateLimited = 0;
  const finish = (result: Pick<CheckResult, 'status'> & Partial<CheckResult>): CheckResult =>
    redactDeep(
      {
        ...meta,
        notes: rateLimited > 0 ? [...notes, `${rateLimited} requests answered 429 were sent again after the Retry-After wait.`] : notes,
        exchanges,
        durationMs: performance.now() - started - waitedMs,
        ...(observation ? { observation } : {}),
        ...(coverage.length > 0 ? { coverage } : {}),
        ...result,
      },
      secrets,
    );

  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  /** The overlap of the exchanges so far, also written as a note. */
  const measuredOverlap = (): Overlap => {
    // A check's cleanup (its deletions, sent together) is not what it measured.
    const overlap = overlapOf(
      exchanges.filter((exchange) => !exchange.cleanup),
      concurrency,
    );
    notes.push(`Overlap: ${describeOverlap(overlap)}.`);
    return overlap;
  };
  const excluded = options.skip?.includes(check.id);
  if (excluded) return finish({ status: 'skip', message: 'excluded by --skip' });
  const unmet = unmetRequirement(check, options.target);
  if (unmet) return finish({ status: 'skip', message: unmet });

  // Aborted when the check's time is up, and when it ends: a check that has stopped counting
  // sends nothing more (neither the next request of a loop nor the rest of a burst).
  const stop = new AbortController();
  // Every request in flight and every wait for a slot listens to it: up to --workers of each at once
  // (the coverage phase's cases), past Node's default of ten before it warns of a leak.
  setMaxListeners(0, stop.signal);
  // The run's slots, until a check that started among the others is given the server to itself.
  let slots = options.slots;
  const http = createHttp({
    signal: stop.signal,
    baseUrl: options.target.baseUrl,
    timeoutMs: options.timeoutMs,
    ...(options.target.headers ? { extraHeaders: options.target.headers } : {}),
    ...(options.target.dispatcher ? { dispatcher: options.target.dispatcher } : {}),
    secrets,
    keys: keyVariables(options),
    ...(options.bodies ? { bodies: options.bodies } : {}),
    record: (exchange, answered) => {
      exchanges.push(exchange);
      if (answered && options.ruleLedger) options.ruleLedger.judge(judgedExchange(answered.sent, answered.reply, secrets), exchange, check.id);
    },
    onRateLimited: () => {
      rateLimited += 1;
    },
    slots: () => slots,
    ...(options.rateGate ? { rateGate: options.rateGate } : {}),
  });
  const reference = check.openPoint ? openPoint(check.openPoint).referenceChoice.summary : undefined;
  const context = createCheckContext({
    target: options.target,
    seed: options.seed ?? 1,
    ...(options.numRuns !== undefined ? { numRuns: options.numRuns } : {}),
    concurrency,
    workers: options.workers ?? 1,
    http,
    keyA: options.keyA,
    ...(options.keyB ? { keyB: options.keyB } : {}),
    observe: (seen) => {
      observation = { ...(reference ? { reference } : {}), ...seen };
    },
    note: (text) => notes.push(text),
    cover: (records) => coverage.push(...records),
    announce: (text) => options.onAnnounce?.(check, redactText(text, secrets)),
    ...(options.sharedWork ? { sharedWork: options.sharedWork } : {}),
    signal: stop.signal,
    alone: async () => {
      if (!runsAlone(check)) throw new Error(`${check.id} shares the server with other checks: it cannot ask for it alone`);
      if (!check.startsAmongOthers || !slots) return;
      // The check's time stops while it waits: the wait is the other checks', not the server's.
      const waitStarted = performance.now();
      const worked = waitStarted - started - waitedMs;
      clearTimeout(timer);
      await options.aloneTurn?.();
      waitedMs += performance.now() - waitStarted;
      slots = undefined;
      if (!stop.signal.aborted) arm(Math.max(0, checkTimeoutMs - worked));
    },
  });

  // A check may make several requests, each with its own timeout; this bounds the whole check
  // so that no target, however hostile, can stall a run.
  let timer: NodeJS.Timeout | undefined;
  const checkTimeoutMs = check.timeoutMs ?? options.checkTimeoutMs ?? options.timeoutMs * 10;
  let timeUp: (error: TransportError) => void = () => undefined;
  const overall = new Promise<never>((_, reject) => {
    timeUp = reject;
  });
  const arm = (ms: number) => {
    timer = setTimeout(() => {
      const timedOut = new TransportError('timeout', `the check did not finish within ${checkTimeoutMs} ms`);
      stop.abort(timedOut);
      timeUp(timedOut);
    }, ms);
  };
  arm(checkTimeoutMs);
  try {
    await Promise.race([check.run(context), overall]);
    // Its bursts would have shared the server with other checks' requests: not what it measured.
    if (check.startsAmongOthers && slots) throw new Error('it started among the other checks and never asked for the server to itself (t.alone())');
    const overlap = check.concurrent ? measuredOverlap() : undefined;
    if (check.level === 'OBSERVE')
      return finish({ status: 'observed', ...(observation ? {} : { message: 'nothing observed' }), ...(overlap ? { overlap } : {}) });
    // A rule that held while the server answered one request at a time says nothing about
    // overlapping requests: a pass would claim what was not seen. The check is skipped with
    // the figures, like any check this run cannot verify; failures stand whatever the overlap.
    if (overlap && !overlapAchieved(overlap)) return finish({ status: 'skip', message: noOverlapMessage(overlap), overlap });
    return finish({ status: 'pass', ...(overlap ? { overlap } : {}) });
  } catch (error) {
    if (error instanceof CheckSkipped) return finish({ status: 'skip', message: error.reason });
    const message =
      error instanceof CheckFailure
        ? error.message
        : error instanceof TransportError
          ? `No usable response: ${error.message}.`
          : `The check itself failed: ${(error as Error).message}`;
    // OBSERVE checks report what happened and never fail a run.
    const overlap = check.concurrent ? measuredOverlap() : undefined;
    if (check.level === 'OBSERVE') {
      observation ??= { summary: message, ...(reference ? { reference } : {}), matchesReference: false };
      return finish({ status: 'observed', message, ...(overlap ? { overlap } : {}) });
    }
    return finish({ status: 'fail', message, ...(overlap ? { overlap } : {}) });
  } finally {
    clearTimeout(timer);
    if (!stop.signal.aborted) stop.abort(new TransportError('timeout', 'the check is over'));
  }
}

/** Why a concurrent check whose rule held is skipped: the answers never came together. */
function noOverlapMessage(overlap: Overlap): string {
  return `no overlap achieved: the server answered one request at a time (${describeOverlap(overlap)}), so the rule was seen to hold for requests handled one by one only; the sequential checks judge that`;
}

export async function runChecks(checks: readonly Check[], options: RunOptions): Promise<CheckResult[]> {
  const selected = options.only && options.only.length > 0 ? checks.filter((check) => options.only!.includes(check.id)) : checks;
  const sharedWork: SharedWork = options.sharedWork ?? new Map();
  const workers = options.workers ?? 1;
  const gate = options.rateGate ?? rateGate();
  const slots = options.slots ?? requestSlots(workers);
  // What every check of the run gets; the slots only go to checks that share the server (below).
  const { slots: _given, ...shared } = { ...options, sharedWork, rateGate: gate };
  // A wait on the server's clock (up to a minute for a deployed server's short-lifetime project)
  // starts before the first check, so that it passes during the checks before the one that waits.
  // Each preparation runs alone: a race between two requests of the run would show as a failure
  // of whichever check happened to be sending.
  const prepared = new Map<string, CheckResult['exchanges']>();
  for (const check of selected) {
    if (!check.prepare) continue;
    const preparation = await runCheck({ ...check, run: check.prepare }, shared);
    prepared.set(check.id, preparation.exchanges);
  }
  // Results are told in the catalogue's order: each as soon as every check before it has its own.
  const done = new Map<Check, CheckResult>();
  const results: CheckResult[] = [];
  const tell = () => {
    for (let next = selected[results.length]; next && done.has(next); next = selected[results.length]) {
      results.push(done.get(next)!);
      options.onResult?.(done.get(next)!);
    }
  };
  const finished = (check: Check, ran: CheckResult) => {
    // The preparation's requests are the check's: reported, and replayed, before its own.
    done.set(check, prepared.get(check.id)?.length ? { ...ran, exchanges: [...prepared.get(check.id)!, ...ran.exchanges] } : ran);
    tell();
  };
  const run = async (check: Check, alone: boolean) => {
    options.onStart?.(check);
    if (alone) options.onAlone?.(check);
    finished(check, await runCheck(check, { ...shared, ...(alone ? { workers: 1 } : { slots, workers }) }));
  };
  // A check that starts among the others sends its first requests with them, then waits for its
  // turn with the server to itself: its worker is free meanwhile, and the check goes on later.
  /** Each check waiting for its turn, and what gives it; each started check's end. */
  const waiting = new Map<Check, () => void>();
  const over = new Map<Check, Promise<void>>();
  const startAmongOthers = (check: Check) =>
    new Promise<void>((workerFree) => {
      options.onStart?.(check);
      const ran = runCheck(check, {
        ...shared,
        slots,
        workers,
        aloneTurn: () =>
          new Promise<void>((give) => {
            waiting.set(check, give);
            workerFree();
          }),
      });
      over.set(
        check,
        ran.then((result) => {
          finished(check, result);
          workerFree();
        }),
      );
    });
  // The checks that share no state first, `workers` at once, their requests through the run's slots;
  // then each check that runs alone, with the server to itself (no slots: its bursts are its own).
  // Those that start among them go first: their requests sent alone are a chain of round trips,
  // done by the time the others are, instead of holding up the checks that run alone at the end.
  await inFlight(
    [...selected.filter((check) => runsAlone(check) && check.startsAmongOthers), ...selected.filter((check) => !runsAlone(check))],
    workers,
    (check) => (runsAlone(check) ? startAmongOthers(check) : run(check, false)),
  );
  for (const check of selected.filter(runsAlone)) {
    const give = waiting.get(check);
    if (give) {
      options.onAlone?.(check);
      give();
    }
    // A check that started among the others has either asked for its turn or finished already.
    await (over.get(check) ?? run(check, true));
  }
  return results;
}

// The memory budget every decoder of the server shares (OCR, PDF pages, audio, DOCX): a
// semaphore counted in bytes. Each decode step reserves its estimated peak (memory-limits.ts,
// from what the file declares) and waits, in arrival order, until the steps running leave room;
// a step larger than the budget runs alone. A step still waiting at its asset's deadline is not
// started.
//
// Estimates are a schedule, not a guarantee: what OCR costs depends on what the picture shows
// (noise costs several times a page of text). A watchdog samples the decoders' memory every 50 ms
// while steps run; above `watchdogBytes` over idle it first lets go of what is idle (the readers'
// idle worker threads), and if that is not enough it aborts the running steps: each one ends its
// worker and is tried again alone, measured from what is resident when it starts. A step that
// still overruns alone is the file's doing: it fails with 'over-memory', which the decision
// answers as DECODE_FAILED.
//
// The decoders' memory is the resident set less the main thread's JavaScript heap and the buffers
// it holds (`residentOutsideMainHeap`): decoding runs in worker threads and their native code,
// while the main thread's heap grows with everything else the process does (the decision index,
// the read cache, and, when the server is embedded in a test run, the whole kit). Counting the
// whole resident set once took a test run's own growth for a decode and refused ordinary files.
// Idle is that measure when steps begin after the readers have been idle long enough to end their
// workers (memory-limits.ts IDLE_WORKER_MS).
//
// Memory is the process's, so a server takes the process's budget (processDecodeBudget): servers
// embedded side by side (a test run of the kit, a user's own suite starting both profiles) share
// one watchdog, and a step retried alone is alone in the process. With a budget each, one
// server's decodes count as the other's growth, and a retry alone is not alone: an ordinary PDF
// could be refused as over-memory while the other server read pictures.
import { DECODE_BUDGET_BYTES, IDLE_WORKER_MS, WATCHDOG_BYTES } from '../memory-limits.ts';

export type StepFailure = 'timed-out' | 'over-memory';
export type StepResult<T> = { value: T } | { failure: StepFailure };

/** Longest wait after an abort for the ended workers' memory to come back. */
const SETTLE_MS = 1_000;

export interface DecodeBudget {
  /**
   * Runs `step` once `estimate` bytes of the budget are free, before `deadline` (ms since the
   * epoch). `step` gets a signal the watchdog aborts: it must then stop its work (end its worker)
   * and settle; it is tried again alone, once.
   */
  run<T>(estimate: number, deadline: number, step: (signal: AbortSignal) => Promise<T>): Promise<StepResult<T>>;
  /** Something to let go of under pressure (idle worker threads); returns its removal. */
  onPressure(release: () => void): () => void;
  /** Reserved bytes and steps running and waiting, for tests and benchmarks. */
  readonly state: { reserved: number; running: number; waiting: number; aborted: number };
}

export interface DecodeBudgetOptions {
  budgetBytes?: number;
  watchdogBytes?: number;
  /** How long the readers must have been idle for the resident set to count as idle again. */
  rebaseAfterMs?: number;
  sampleMs?: number;
  /** The decoders' resident memory in bytes (tests inject their own). */
  resident?: () => number;
}

interface Running {
  reserved: number;
  controller: AbortController;
}

interface Waiter {
  reserved: number;
  deadline: number;
  grant: () => void;
  timer?: NodeJS.Timeout;
}

let shared: DecodeBudget | undefined;

/** The budget of this process, made on first use: what every server started here shares. */
export function processDecodeBudget(): DecodeBudget {
  shared ??= createDecodeBudget();
  return shared;
}

/** The resident set less the main thread's heap and external buffers: what worker threads and native code hold. */
export function residentOutsideMainHeap(): number {
  const { rss, heapTotal, external } = process.memoryUsage();
  return rss - heapTotal - external;
}

export function createDecodeBudget(options: DecodeBudgetOptions = {}): DecodeBudget {
  const budget = options.budgetBytes ?? DECODE_BUDGET_BYTES;
  const watchdogBytes = options.watchdogBytes ?? WATCHDOG_BYTES;
  const rebaseAfterMs = options.rebaseAfterMs ?? IDLE_WORKER_MS + 1_000;
  const sampleMs = options.sampleMs ?? 50;
  const rss = options.resident ?? residentOutsideMainHeap;
  const running = new Set<Running>();
  const waiting: Waiter[] = [];
  const releasers = new Set<() => void>();
  const state = { reserved: 0, running: 0, waiting: 0, aborted: 0 };
  let idleSince: number | undefined;
  let base: number | undefined;
  let watchdog: NodeJS.Timeout | undefined;
  let pressured = false;

  const sync = () => {
    state.running = running.size;
    state.waiting = waiting.length;
  };

  function watch(): void {
    if (base === undefined) return;
    const over = rss() - base > watchdogBytes;
    if (!over) {
      pressured = false;
      return;
    }
    if (!pressured) {
      // First, what nobody is using.
      pressured = true;
      for (const release of releasers) release();
      return;
    }
    pressured = false;
    for (const step of running) {
      if (!step.controller.signal.aborted) {
        state.aborted += 1;
        step.controller.abort();
      }
    }
  }

  function becameBusy(rebase = false): void {
    const now = Date.now();
    if (rebase || base === undefined || (idleSince !== undefined && now - idleSince >= rebaseAfterMs)) base = rss();
    idleSince = undefined;
    watchdog ??= setInterval(watch, sampleMs);
    watchdog.unref();
  }

  function becameIdle(): void {
    idleSince = Date.now();
    if (watchdog) clearInterval(watchdog);
    watchdog = undefined;
    pressured = false;
    // Decoders leave large buffers to the garbage collector: collect now if the process allows it.
    (globalThis as { gc?: () => void }).gc?.();
  }

  const fits = (reserved: number) => running.size === 0 || state.reserved + reserved <= budget;

  function pump(): void {
    while (waiting.length > 0 && fits(waiting[0]!.reserved)) {
      const next = waiting.shift()!;
      clearTimeout(next.timer);
      next.grant();
    }
    sync();
  }

  /** Resolves with the running entry, or undefined at the deadline. */
  function acquire(reserved: number, deadline: number, alone = false): Promise<Running | undefined> {
    const start = (): Running => {
      // A step retried alone starts with nothing else decoding: what is resident then (memory the
      // allocator kept after the aborted workers, another step's leftovers) is not its doing, so
      // it is judged by its own growth from there.
      if (running.size === 0) becameBusy(alone);
      const entry = { reserved, controller: new AbortController() };
      running.add(entry);
      state.reserved += reserved;
      sync();
      return entry;
    };
    if (waiting.length === 0 && fits(reserved)) return Promise.resolve(start());
    if (deadline <= Date.now()) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const waiter: Waiter = { reserved, deadline, grant: () => resolve(start()) };
      waiter.timer = setTimeout(() => {
        const at = waiting.indexOf(waiter);
        if (at >= 0) waiting.splice(at, 1);
        resolve(undefined);
        // A large step leaving the head of the queue may let smaller ones start.
        pump();
      }, deadline - Date.now());
      waiting.push(waiter);
      sync();
    });
  }

  function release(entry: Running): void {
    running.delete(entry);
    state.reserved -= entry.reserved;
    if (running.size === 0) becameIdle();
    pump();
  }

  /**
   * After an abort: a moment for the ended workers' memory to come back (the resident set under
   * the watchdog's line), at most SETTLE_MS and never past the deadline. Memory the allocator keeps
   * does not come back; the retry alone is measured from where it starts (acquire), so waiting
   * longer would only spend the asset's time.
   */
  async function settle(deadline: number): Promise<void> {
    const until = Math.min(deadline, Date.now() + SETTLE_MS);
    while (base !== undefined && rss() - base > watchdogBytes && Date.now() + sampleMs <= until) await new Promise((resolve) => setTimeout(resolve, sampleMs));
  }

  return {
    async run(estimate, deadline, step) {
      for (const alone of [false, true]) {
        if (alone) await settle(deadline);
        // Alone: the whole budget, so nothing else starts meanwhile.
        const entry = await acquire(alone ? Math.max(budget, estimate) : estimate, deadline, alone);
        if (!entry) return { failure: 'timed-out' };
        try {
          const value = await step(entry.controller.signal);
          if (!entry.controller.signal.aborted) return { value };
        } catch (error) {
          if (!entry.controller.signal.aborted) throw error;
        } finally {
          release(entry);
        }
        // Even a step that was running alone is tried again, alone and measured from where it
        // starts: the line it crossed may have been memory already resident (a stale idle level,
        // what the allocator kept), which its retry no longer counts.
        if (alone) return { failure: 'over-memory' };
      }
      return { failure: 'over-memory' };
    },
    onPressure(release) {
      releasers.add(release);
      return () => releasers.delete(release);
    },
    state,
  };
}

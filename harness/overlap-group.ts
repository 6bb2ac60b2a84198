// Which requests were sent together: each burst of the concurrency checks runs in an overlap
// group, and every exchange sent inside one is recorded with its id, so that replay can send the
// group together again (or say why it cannot) instead of one by one. Carried through async
// calls rather than passed as an argument: a burst's requests go through the same clients as
// every other request.
import { AsyncLocalStorage } from 'node:async_hooks';

const groups = new AsyncLocalStorage<number>();
let lastGroup = 0;

/** Starts every send at once, each inside one new overlap group; the promises in the order given. */
export function sendTogether<T>(sends: ReadonlyArray<() => Promise<T>>): Array<Promise<T>> {
  lastGroup += 1;
  const group = lastGroup;
  return sends.map((send) => groups.run(group, send));
}

/** The overlap group the current request is sent in, if any: unique within a process, so within a run. */
export const currentOverlapGroup = (): number | undefined => groups.getStore();

const cleaning = new AsyncLocalStorage<true>();

/**
 * Runs `work` as a check's cleanup (deleting what it uploaded): its requests are recorded, judged
 * by the response rules and replayed like any other, but they are not part of what the check
 * measures: a concurrent check sends its deletions together, and their overlap is left out of the
 * check's own (runner.ts), so that it never stands in for the overlap of the bursts it judged.
 */
export const asCleanup = <T>(work: () => Promise<T>): Promise<T> => cleaning.run(true, work);

/** Whether the current request is sent as cleanup. */
export const inCleanup = (): boolean => cleaning.getStore() === true;

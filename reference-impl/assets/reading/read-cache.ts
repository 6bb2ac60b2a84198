// What was read from each file, keyed by its type and SHA-256, so a file is read once however many
// assets and decisions use it. A read in progress is shared: a decision that arrives while the
// upload's background read runs waits for that read instead of starting another. Only successful
// reads stay; a failure (a time limit under load, say) is forgotten so the next use tries again.
// The least recently used entries go first beyond `maxEntries`. Entries live in memory only.
import type { ReadOutcome } from './outcome.ts';

export interface ReadCache {
  /** The cached or in-progress read of `key`, or a new one started by `read`. */
  get(key: string, read: () => Promise<ReadOutcome>): Promise<ReadOutcome>;
  /** Whether `key` was read successfully and is still held. */
  has(key: string): boolean;
}

export function createReadCache(maxEntries: number): ReadCache {
  const entries = new Map<string, Promise<ReadOutcome>>();
  const settled = new Set<string>();
  return {
    get(key, read) {
      const held = entries.get(key);
      if (held) {
        // Map order is insertion order: re-inserting marks the entry as the most recently used.
        entries.delete(key);
        entries.set(key, held);
        return held;
      }
      const reading = read().then(
        (outcome) => {
          if ('failure' in outcome) entries.delete(key);
          else settled.add(key);
          return outcome;
        },
        (error: unknown) => {
          entries.delete(key);
          throw error;
        },
      );
      entries.set(key, reading);
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next().value as string;
        entries.delete(oldest);
        settled.delete(oldest);
      }
      return reading;
    },
    has(key) {
      return entries.has(key) && settled.has(key);
    },
  };
}

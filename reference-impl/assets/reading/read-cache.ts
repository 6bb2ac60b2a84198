// What was read from each file, keyed by its type and SHA-256, so a file is read once however many
// assets and decisions use it. A read in progress is shared: a decision that arrives while the
// upload's background read runs waits for that read instead of starting another. Only successful
// reads stay; a failure (a time limit under load, say) is forgotten so the next use tries again.
// The least recently used entries go first beyond `maxEntries`, or while the texts held pass
// `maxChars` in all (the memory ceiling, memory-limits.ts). Entries live in memory only.
import type { ReadOutcome } from './outcome.ts';

export interface ReadCache {
  /** The cached or in-progress read of `key`, or a new one started by `read`. */
  get(key: string, read: () => Promise<ReadOutcome>): Promise<ReadOutcome>;
  /** Whether `key` was read successfully and is still held. */
  has(key: string): boolean;
}

export function createReadCache(maxEntries: number, maxChars = Number.POSITIVE_INFINITY): ReadCache {
  const entries = new Map<string, Promise<ReadOutcome>>();
  /** Settled entries and the length of their text. */
  const settled = new Map<string, number>();
  let chars = 0;

  const forget = (key: string): void => {
    entries.delete(key);
    chars -= settled.get(key) ?? 0;
    settled.delete(key);
  };

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
          if ('failure' in outcome) {
            if (entries.get(key) === reading) entries.delete(key);
            return outcome;
          }
          if (entries.get(key) !== reading) return outcome; // evicted while it was read
          settled.set(key, outcome.text.length);
          chars += outcome.text.length;
          for (const oldest of entries.keys()) {
            if (chars <= maxChars) break;
            if (oldest !== key && settled.has(oldest)) forget(oldest);
          }
          return outcome;
        },
        (error: unknown) => {
          if (entries.get(key) === reading) entries.delete(key);
          throw error;
        },
      );
      entries.set(key, reading);
      while (entries.size > maxEntries) forget(entries.keys().next().value as string);
      return reading;
    },
    has(key) {
      return entries.has(key) && settled.has(key);
    },
  };
}

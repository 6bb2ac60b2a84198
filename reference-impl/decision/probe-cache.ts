// Feature vectors of probe texts (option texts, instructions), kept across requests: callers tend
// to send the same questions with every context, and hashing a few hundred option texts costs
// more than the model run itself.
import { featureVector, type Polarity, type SparseVector } from './features.ts';

export const PROBE_CACHE_ENTRIES = 4096;
/** Longer texts (a 100 kB option id) are hashed every time rather than pinned in memory. */
const MAX_CACHED_TEXT_LENGTH = 2048;

/** A least-recently-used cache (Map keeps insertion order; a hit moves the entry to the end). */
export class ProbeVectorCache {
  private readonly entries = new Map<string, SparseVector>();

  constructor(private readonly capacity = PROBE_CACHE_ENTRIES) {}

  vectorOf(text: string, polarity: Polarity): SparseVector {
    if (text.length > MAX_CACHED_TEXT_LENGTH) return featureVector(text, polarity);
    const key = `${polarity}\u0000${text}`;
    const cached = this.entries.get(key);
    if (cached) {
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached;
    }
    const vector = featureVector(text, polarity);
    this.entries.set(key, vector);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return vector;
  }

  get size(): number {
    return this.entries.size;
  }
}

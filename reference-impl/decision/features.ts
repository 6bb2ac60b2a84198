// Hashed lexical features: a text becomes a sparse vector over BUCKET_COUNT signed buckets.
//
// Features, for every word of every clause (see tokens.ts) except stopwords:
// - the word itself (unigram), weight 1;
// - the word with its predecessor in the clause (bigram), weight 1;
// - the character 3-, 4- and 5-grams of the word between boundary marks, weight 0.5: they carry
//   the topic across inflections ("refund", "refunds", "refunded") and typos.
// A word inside a negation's scope hashes its unigram and bigram under a separate seed, so
// "not … refund" and "refund" share their character grams (same topic) but not their words
// (opposite polarity). The noul probe relies on this (see layout.ts).
//
// Each feature hashes (FNV-1a, then the murmur3 finaliser) to a bucket and a sign; the sign makes
// collisions cancel on average instead of piling up. Repeats are damped: a feature seen c times
// counts sqrt(c), so a long context that repeats one word does not swamp everything else it says.
import { tokenise, type Clauses } from './tokens.ts';

export const BUCKET_BITS = 18;
export const BUCKET_COUNT = 1 << BUCKET_BITS;
const BUCKET_MASK = BUCKET_COUNT - 1;

/** A text as the model sees it: distinct bucket ids with their signed weights. */
export interface SparseVector {
  readonly ids: Int32Array;
  readonly weights: Float32Array;
}

/** 'flipped' reads every word as if its negation status were the opposite (see layout.ts). */
export type Polarity = 'as-written' | 'flipped';

const KIND_WORD = 0;
const KIND_BIGRAM = 1;
const KIND_CHAR_GRAM = 2;
const KIND_MARKER = 3;
const KIND_COUNT = 4;
const KIND_WEIGHT: readonly number[] = [1, 1, 0.5, 1];
const KIND_SEED = [0x9e3779b9, 0x85ebca6b, 0xc2b2ae35, 0x27d4eb2f] as const;
/** Mixed into a word or bigram seed when the word is negated. */
const NEGATED_SEED = 0x165667b1;

const MIN_GRAM = 3;
const MAX_GRAM = 5;
// Control characters never appear inside a word token, so they can mark word boundaries.
const WORD_START = 0x02;
const WORD_END = 0x03;
const BIGRAM_JOINER = 0x20;

/** The one feature of a context that has no word at all (" ", "..."): every context has one. */
const EMPTY_CONTEXT_MARKER = 'empty context';

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function fnvStart(seed: number): number {
  return (FNV_OFFSET ^ seed) >>> 0;
}

function fnvString(state: number, text: string): number {
  let h = state;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME);
  }
  return h;
}

function fnvUnit(state: number, unit: number): number {
  return Math.imul(state ^ unit, FNV_PRIME);
}

/** murmur3's fmix32: spreads FNV's weak low bits over the bucket and sign bits. */
function finalise(h: number): number {
  let x = h;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/**
 * Accumulates signed feature counts per (kind, bucket) in preallocated scratch arrays, then
 * damps and weights them into one value per bucket. Synchronous use only: every call of
 * featureVector drains it completely before returning.
 */
class FeatureAccumulator {
  private readonly counts = new Int32Array(KIND_COUNT * BUCKET_COUNT);
  private readonly touchedSlots: number[] = [];
  private readonly values = new Float64Array(BUCKET_COUNT);
  private readonly touchedBuckets: number[] = [];
  // The distinct buckets of one text go here, then are copied out at their exact length: cheaper
  // than growing arrays of numbers and converting them.
  private readonly outIds = new Int32Array(BUCKET_COUNT);
  private readonly outWeights = new Float32Array(BUCKET_COUNT);

  add(kind: number, hash: number): void {
    const slot = kind * BUCKET_COUNT + (hash & BUCKET_MASK);
    if (this.counts[slot] === 0) this.touchedSlots.push(slot);
    this.counts[slot]! += hash >>> 31 === 1 ? -1 : 1;
  }

  drain(): SparseVector {
    for (const slot of this.touchedSlots) {
      const count = this.counts[slot]!;
      if (count === 0) continue;
      this.counts[slot] = 0;
      const bucket = slot & BUCKET_MASK;
      const weight = KIND_WEIGHT[slot >>> BUCKET_BITS]!;
      if (this.values[bucket] === 0) this.touchedBuckets.push(bucket);
      this.values[bucket]! += Math.sign(count) * Math.sqrt(Math.abs(count)) * weight;
    }
    this.touchedSlots.length = 0;
    let count = 0;
    for (const bucket of this.touchedBuckets) {
      const value = this.values[bucket]!;
      if (value === 0) continue;
      this.values[bucket] = 0;
      this.outIds[count] = bucket;
      this.outWeights[count] = value;
      count += 1;
    }
    this.touchedBuckets.length = 0;
    return { ids: this.outIds.slice(0, count), weights: this.outWeights.slice(0, count) };
  }
}

let sharedAccumulator: FeatureAccumulator | undefined;

function addClauses(accumulator: FeatureAccumulator, clauses: Clauses, polarity: Polarity): void {
  const flip = polarity === 'flipped';
  // Stopwords are skipped (bigrams join the words around them) unless they are all there is.
  const keepStopwords = clauses.every((clause) => clause.every((word) => word.stopword));
  for (const clause of clauses) {
    let previous: string | undefined;
    for (const word of clause) {
      if (word.stopword && !keepStopwords) continue;
      const negated = word.negated !== flip;
      const polaritySeed = negated ? NEGATED_SEED : 0;
      accumulator.add(KIND_WORD, finalise(fnvString(fnvStart(KIND_SEED[KIND_WORD] ^ polaritySeed), word.text)));
      if (previous !== undefined) {
        let h = fnvString(fnvStart(KIND_SEED[KIND_BIGRAM] ^ polaritySeed), previous);
        h = fnvString(fnvUnit(h, BIGRAM_JOINER), word.text);
        accumulator.add(KIND_BIGRAM, finalise(h));
      }
      addCharGrams(accumulator, word.text);
      previous = word.text;
    }
  }
}

/** Character 3- to 5-grams of the word between boundary marks, over code points. */
function addCharGrams(accumulator: FeatureAccumulator, word: string): void {
  const units: number[] = [WORD_START];
  for (const char of word) units.push(char.codePointAt(0)!);
  units.push(WORD_END);
  for (let start = 0; start + MIN_GRAM <= units.length; start += 1) {
    let h = fnvStart(KIND_SEED[KIND_CHAR_GRAM]);
    for (let end = start; end < start + MAX_GRAM && end < units.length; end += 1) {
      h = fnvUnit(h, units[end]!);
      if (end - start + 1 >= MIN_GRAM) accumulator.add(KIND_CHAR_GRAM, finalise(h));
    }
  }
}

/** The sparse feature vector of a text; empty when the text has no word. */
export function featureVector(text: string, polarity: Polarity = 'as-written'): SparseVector {
  sharedAccumulator ??= new FeatureAccumulator();
  addClauses(sharedAccumulator, tokenise(text), polarity);
  return sharedAccumulator.drain();
}

/**
 * The feature vector of a context. A context without any word (only spaces or punctuation) gets
 * one marker feature instead, so the model always has at least one input feature and usage is
 * never zero; the marker never occurs in a probe, so such a context matches nothing.
 */
export function contextVector(text: string): SparseVector {
  const vector = featureVector(text);
  if (vector.ids.length > 0) return vector;
  const hash = finalise(fnvString(fnvStart(KIND_SEED[KIND_MARKER]), EMPTY_CONTEXT_MARKER));
  return { ids: Int32Array.of(hash & BUCKET_MASK), weights: Float32Array.of(KIND_WEIGHT[KIND_MARKER]!) };
}

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
import { readWords, type WordSink } from './tokens.ts';

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
  private readonly values = new Float64Array(BUCKET_COUNT);
  // Slots and buckets touched by the current text, as typed arrays kept from text to text: an
  // array of numbers emptied with `length = 0` gives up its storage, and growing it again for
  // every request was a third of the server's allocations (and so of its scavenges).
  // A slot whose count returns to 0 can be listed twice; drain skips it the second time.
  private touchedSlots = new Int32Array(4096);
  private touchedSlotCount = 0;
  private touchedBuckets = new Int32Array(4096);
  // The distinct buckets of one text go here, then are copied out at their exact length: cheaper
  // than growing arrays of numbers and converting them.
  private readonly outIds = new Int32Array(BUCKET_COUNT);
  private readonly outWeights = new Float32Array(BUCKET_COUNT);

  add(kind: number, hash: number): void {
    const slot = kind * BUCKET_COUNT + (hash & BUCKET_MASK);
    if (this.counts[slot] === 0) {
      if (this.touchedSlotCount === this.touchedSlots.length) this.growTouched();
      this.touchedSlots[this.touchedSlotCount++] = slot;
    }
    this.counts[slot]! += hash >>> 31 === 1 ? -1 : 1;
  }

  /** Twice the room; kept for later texts. touchedBuckets never lists more than touchedSlots. */
  private growTouched(): void {
    const slots = new Int32Array(this.touchedSlots.length * 2);
    slots.set(this.touchedSlots);
    this.touchedSlots = slots;
    this.touchedBuckets = new Int32Array(slots.length);
  }

  drain(): SparseVector {
    const slots = this.touchedSlots;
    const buckets = this.touchedBuckets;
    let bucketCount = 0;
    for (let i = 0; i < this.touchedSlotCount; i += 1) {
      const slot = slots[i]!;
      const count = this.counts[slot]!;
      if (count === 0) continue;
      this.counts[slot] = 0;
      const bucket = slot & BUCKET_MASK;
      const weight = KIND_WEIGHT[slot >>> BUCKET_BITS]!;
      if (this.values[bucket] === 0) buckets[bucketCount++] = bucket;
      this.values[bucket]! += Math.sign(count) * Math.sqrt(Math.abs(count)) * weight;
    }
    this.touchedSlotCount = 0;
    let count = 0;
    for (let i = 0; i < bucketCount; i += 1) {
      const bucket = buckets[i]!;
      const value = this.values[bucket]!;
      if (value === 0) continue;
      this.values[bucket] = 0;
      this.outIds[count] = bucket;
      this.outWeights[count] = value;
      count += 1;
    }
    return { ids: this.outIds.slice(0, count), weights: this.outWeights.slice(0, count) };
  }
}

let sharedAccumulator: FeatureAccumulator | undefined;

/** What a word contributes wherever it occurs; index 0 as written, 1 negated. */
interface WordHashes {
  readonly unigram: readonly [number, number];
  /** The FNV state after the word under the bigram seed: a bigram's hash continues from it. */
  readonly bigramPrefix: readonly [number, number];
  readonly charGrams: Int32Array;
}

// Word hashes are cached, as subword tokenisers cache words: texts draw on a vocabulary where a
// few thousand words make up most of what is written, so most words of a context are hashed
// once per process instead of once per request. Bounded: emptied when full, and words longer
// than MAX_CACHED_WORD_LENGTH are not kept (no vocabulary has them; a document read from a
// file can hold one a million letters long, whose grams would stay in memory).
const WORD_CACHE_LIMIT = 50_000;
const MAX_CACHED_WORD_LENGTH = 64;
const wordCache = new Map<string, WordHashes>();

function wordHashes(word: string): WordHashes {
  let hashes = wordCache.get(word);
  if (hashes) return hashes;
  hashes = {
    unigram: [finalise(fnvString(fnvStart(KIND_SEED[KIND_WORD]), word)), finalise(fnvString(fnvStart(KIND_SEED[KIND_WORD] ^ NEGATED_SEED), word))],
    bigramPrefix: [fnvString(fnvStart(KIND_SEED[KIND_BIGRAM]), word), fnvString(fnvStart(KIND_SEED[KIND_BIGRAM] ^ NEGATED_SEED), word)],
    charGrams: charGramHashes(word),
  };
  if (word.length > MAX_CACHED_WORD_LENGTH) return hashes;
  if (wordCache.size >= WORD_CACHE_LIMIT) wordCache.clear();
  wordCache.set(word, hashes);
  return hashes;
}

/**
 * Hashes each word into the accumulator as readWords reads it, with the bigram it forms with the
 * word before it in its clause. One sink serves every text: synchronous use only.
 */
class WordFeatureSink implements WordSink {
  private flip = false;
  private keepStopwords = false;
  /** Words of the text read since start() that are not stopwords. */
  contentWords = 0;
  private previous: WordHashes | undefined;

  constructor(private readonly accumulator: FeatureAccumulator) {}

  start(polarity: Polarity, keepStopwords: boolean): void {
    this.flip = polarity === 'flipped';
    this.keepStopwords = keepStopwords;
    this.contentWords = 0;
    this.previous = undefined;
  }

  word(text: string, negatedAsWritten: boolean, stopword: boolean): void {
    if (!stopword) this.contentWords += 1;
    else if (!this.keepStopwords) return;
    const negated = negatedAsWritten !== this.flip ? 1 : 0;
    const hashes = wordHashes(text);
    this.accumulator.add(KIND_WORD, hashes.unigram[negated]);
    if (this.previous !== undefined) {
      // The predecessor's state under this word's polarity, the joiner, then this word.
      this.accumulator.add(KIND_BIGRAM, finalise(fnvString(fnvUnit(this.previous.bigramPrefix[negated], BIGRAM_JOINER), text)));
    }
    for (const gram of hashes.charGrams) this.accumulator.add(KIND_CHAR_GRAM, gram);
    this.previous = hashes;
  }

  clauseEnd(): void {
    this.previous = undefined;
  }
}

let sharedSink: WordFeatureSink | undefined;

/** The code points of the word being split into character grams, between boundary marks (reused). */
let gramUnits = new Int32Array(64);

/** Hashes of the character 3- to 5-grams of the word between boundary marks, over code points. */
function charGramHashes(word: string): Int32Array {
  // At most one code point per UTF-16 unit, plus the two marks.
  if (gramUnits.length < word.length + 2) gramUnits = new Int32Array(word.length * 2 + 2);
  const units = gramUnits;
  let count = 0;
  units[count++] = WORD_START;
  for (let i = 0; i < word.length; i += 1) {
    const code = word.codePointAt(i)!;
    units[count++] = code;
    if (code > 0xffff) i += 1;
  }
  units[count++] = WORD_END;
  // At most MAX_GRAM - MIN_GRAM + 1 grams start at each unit: filled in place, then cut to length.
  const hashes = new Int32Array(Math.max(0, count - MIN_GRAM + 1) * (MAX_GRAM - MIN_GRAM + 1));
  let found = 0;
  for (let start = 0; start + MIN_GRAM <= count; start += 1) {
    let h = fnvStart(KIND_SEED[KIND_CHAR_GRAM]);
    const end = Math.min(start + MAX_GRAM, count);
    for (let at = start; at < end; at += 1) {
      h = fnvUnit(h, units[at]!);
      if (at - start + 1 >= MIN_GRAM) hashes[found++] = finalise(h);
    }
  }
  // A very long word's units are not kept for the next word.
  if (gramUnits.length > 4096) gramUnits = new Int32Array(64);
  return found === hashes.length ? hashes : hashes.slice(0, found);
}

/** The sparse feature vector of a text; empty when the text has no word. */
export function featureVector(text: string, polarity: Polarity = 'as-written'): SparseVector {
  sharedAccumulator ??= new FeatureAccumulator();
  sharedSink ??= new WordFeatureSink(sharedAccumulator);
  sharedSink.start(polarity, false);
  readWords(text, sharedSink);
  // Stopwords are skipped (bigrams join the words around them) unless they are all there is:
  // such a text (an option id "a") added nothing, and is read again keeping them.
  if (sharedSink.contentWords === 0) {
    sharedSink.start(polarity, true);
    readWords(text, sharedSink);
  }
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

// A mergeable log-linear latency histogram in HdrHistogram's layout, so that a run's percentiles
// take bounded memory however many requests it sends, and the histograms of several generators
// (the pods of a distributed run) add up to the histogram of all their requests.
//
// Layout: values in whole microseconds (a duration in ms is rounded to the nearest µs), 3
// significant digits: 2048 sub-buckets, the first bucket covering 0–2047 µs one µs each, then
// for each further power of two b = 1…21 the values [1024·2^b, 2048·2^b) in 1024 sub-buckets
// of width 2^b µs. 22 buckets reach 2^32 µs (71.6 minutes); a longer duration is counted in the
// top sub-bucket, and the exact largest and smallest durations are kept beside the counts.
//
// Precision: a value reads back as the highest value of its sub-bucket (below), clamped to the
// exact max. A sub-bucket of width 2^b starts at 1024·2^b or above, so the value read back is
// at least the recorded one and exceeds it by less than 1/1024 of it (< 0.098 %); below 2.048 ms
// it is exact. Rounding to the microsecond adds at most 0.5 µs either way. As µs rounding keeps
// the order of durations, the k-th smallest recorded value is the rounded k-th smallest
// duration: a nearest-rank percentile read here is the exact nearest-rank duration x or above
// it, by less than x/1024 + 0.5 µs (at 100 ms: under 98 µs; at 1 s: under 1 ms).
//
// Why the highest equivalent value, as HdrHistogram reports percentiles: the error is then one
// sided. A percentile is never reported below a duration that was measured at that rank, so a
// threshold such as p99 < 500 ms cannot pass because of the histogram (a run within 0.1 % of
// the limit may fail where the exact figure would pass, never the reverse), and the figures
// compare with those of HdrHistogram-based tools. Clamping to the exact max keeps p99 <= max.
//
// Counts are float64: exact up to 2^53 per sub-bucket, so merging never overflows. The count
// array (23,552 entries, 184 KiB) is allocated at the first value, so an empty histogram (a
// timeline window without requests) costs a few fields.

const SUB_BUCKET_HALF_BITS = 10;
const SUB_BUCKET_HALF = 1 << SUB_BUCKET_HALF_BITS;
const SUB_BUCKET_MASK = 2 * SUB_BUCKET_HALF - 1;
const BUCKETS = 22;
/** Sub-buckets in all: the first bucket's 2048, then 1024 for each further bucket. */
export const HISTOGRAM_LENGTH = (BUCKETS + 1) * SUB_BUCKET_HALF;
/** The largest value with a sub-bucket of its own: 2^32 − 1 µs (71.6 minutes). */
export const HIGHEST_TRACKABLE_US = 2 ** 32 - 1;
/** Names the layout in a histogram written to a file, so that only like histograms are merged. */
export const HISTOGRAM_LAYOUT = 'log-linear µs, 2048 sub-buckets, 22 buckets';

export interface Histogram {
  /** Values per sub-bucket index; null until the first value. */
  counts: Float64Array | null;
  count: number;
  /** The smallest and largest values recorded, in ms, exactly as given (Infinity and -Infinity while empty). */
  minMs: number;
  maxMs: number;
}

/** A histogram as JSON: the non-zero sub-buckets as [index, count] pairs, ascending. */
export interface HistogramJSON {
  layout: string;
  count: number;
  /** null while empty. */
  min_ms: number | null;
  max_ms: number | null;
  counts: [number, number][];
}

export function createHistogram(): Histogram {
  return { counts: null, count: 0, minMs: Infinity, maxMs: -Infinity };
}

/** The sub-bucket of `us`, a whole number of µs in 0…HIGHEST_TRACKABLE_US. */
export function indexOfMicros(us: number): number {
  // Bucket 0 holds 0–2047; bucket b ≥ 1 holds [1024·2^b, 2048·2^b). For us >= 2^31 the | makes
  // a negative int32, whose clz32 (of its uint32 bits) is 0: bucket 21, as it should be.
  const bucket = 31 - SUB_BUCKET_HALF_BITS - Math.clz32(us | SUB_BUCKET_MASK);
  return (bucket << SUB_BUCKET_HALF_BITS) + (us >>> bucket);
}

/** The smallest and largest µs of sub-bucket `index`. */
export function microsOfIndex(index: number): { lowest: number; highest: number } {
  let bucket = (index >> SUB_BUCKET_HALF_BITS) - 1;
  let subBucket = (index & (SUB_BUCKET_HALF - 1)) + SUB_BUCKET_HALF;
  if (bucket < 0) {
    bucket = 0;
    subBucket -= SUB_BUCKET_HALF;
  }
  const width = 2 ** bucket;
  return { lowest: subBucket * width, highest: subBucket * width + width - 1 };
}

export function recordValue(histogram: Histogram, ms: number): void {
  if (!(ms >= 0) || ms === Infinity) throw new RangeError(`a latency must be a finite number of ms, 0 or more; got ${ms}`);
  const us = Math.min(HIGHEST_TRACKABLE_US, Math.round(ms * 1000));
  histogram.counts ??= new Float64Array(HISTOGRAM_LENGTH);
  histogram.counts[indexOfMicros(us)]!++;
  histogram.count++;
  if (ms < histogram.minMs) histogram.minMs = ms;
  if (ms > histogram.maxMs) histogram.maxMs = ms;
}

/** Adds `source`'s values to `target`: the histogram of both runs' values together. */
export function mergeInto(target: Histogram, source: Histogram): void {
  if (!source.counts) return;
  target.counts ??= new Float64Array(HISTOGRAM_LENGTH);
  for (let index = 0; index < HISTOGRAM_LENGTH; index++) target.counts[index]! += source.counts[index]!;
  target.count += source.count;
  target.minMs = Math.min(target.minMs, source.minMs);
  target.maxMs = Math.max(target.maxMs, source.maxMs);
}

/**
 * The value of rank `rank` (1 = smallest, count = largest) in ms: the highest value of its
 * sub-bucket, at most the exact max (header: why, and how far from the exact value).
 */
export function valueAtRank(histogram: Histogram, rank: number): number {
  const { counts, count } = histogram;
  if (!counts || !Number.isInteger(rank) || rank < 1 || rank > count) throw new RangeError(`rank ${rank} is outside 1…${count}`);
  let below = 0;
  for (let index = 0; index < HISTOGRAM_LENGTH; index++) {
    below += counts[index]!;
    if (below >= rank) return Math.min(histogram.maxMs, microsOfIndex(index).highest / 1000);
  }
  // The counts add up to `count`, so the walk ends inside the loop.
  throw new Error(`the histogram's counts add up to ${below}, not ${count}`);
}

export function histogramToJSON(histogram: Histogram): HistogramJSON {
  const counts: [number, number][] = [];
  if (histogram.counts) for (let index = 0; index < HISTOGRAM_LENGTH; index++) if (histogram.counts[index]! > 0) counts.push([index, histogram.counts[index]!]);
  const empty = histogram.count === 0;
  return { layout: HISTOGRAM_LAYOUT, count: histogram.count, min_ms: empty ? null : histogram.minMs, max_ms: empty ? null : histogram.maxMs, counts };
}

/** A histogram from `histogramToJSON`'s output, checked: the same layout, indices in range, counts adding up. */
export function histogramFromJSON(json: HistogramJSON): Histogram {
  if (json.layout !== HISTOGRAM_LAYOUT) throw new Error(`a histogram of layout "${json.layout}" cannot be read as "${HISTOGRAM_LAYOUT}"`);
  const histogram = createHistogram();
  let total = 0;
  for (const [index, count] of json.counts) {
    if (!Number.isInteger(index) || index < 0 || index >= HISTOGRAM_LENGTH) throw new Error(`histogram index ${index} is outside 0…${HISTOGRAM_LENGTH - 1}`);
    if (!Number.isInteger(count) || count <= 0) throw new Error(`histogram count ${count} at index ${index} is not a positive whole number`);
    histogram.counts ??= new Float64Array(HISTOGRAM_LENGTH);
    histogram.counts[index]! += count;
    total += count;
  }
  if (total !== json.count) throw new Error(`the histogram's counts add up to ${total}, not its count ${json.count}`);
  if (total > 0) {
    if (typeof json.min_ms !== 'number' || typeof json.max_ms !== 'number') throw new Error('a histogram with values needs min_ms and max_ms');
    histogram.count = total;
    histogram.minMs = json.min_ms;
    histogram.maxMs = json.max_ms;
  }
  return histogram;
}

// The latency histogram: its layout covers 1 µs to over an hour at 3 significant digits; a value
// read at a rank is the exact nearest-rank value or above it by less than 1/1024 of it (+0.5 µs
// of rounding), on seeded data of several shapes; merging and JSON lose nothing.
import { describe, expect, test } from 'vitest';
import { seededRandom } from '../definitions/common.js';
import {
  createHistogram,
  HIGHEST_TRACKABLE_US,
  HISTOGRAM_LENGTH,
  histogramFromJSON,
  histogramToJSON,
  indexOfMicros,
  mergeInto,
  microsOfIndex,
  recordValue,
  valueAtRank,
} from '../histogram.ts';
import { latencyShapes } from './latency-shapes.ts';

/** The bound of histogram.ts: read back at least the value (less 0.5 µs of rounding), above it by less than 1/1024 of it. */
function expectWithinPrecision(read: number, exact: number, what: string) {
  expect(read, what).toBeGreaterThanOrEqual(exact - 0.0005);
  expect(read, what).toBeLessThan(exact + exact / 1024 + 0.0005);
}

describe('the layout', () => {
  test('below 2048 µs each µs has its own sub-bucket; above, the sub-bucket of 2^b µs starts at 1024·2^b or more', () => {
    for (const us of [0, 1, 1023, 1024, 2047]) expect(microsOfIndex(indexOfMicros(us))).toEqual({ lowest: us, highest: us });
    expect(microsOfIndex(indexOfMicros(2048))).toEqual({ lowest: 2048, highest: 2049 });
    expect(microsOfIndex(indexOfMicros(4095))).toEqual({ lowest: 4094, highest: 4095 });
    expect(microsOfIndex(indexOfMicros(4096))).toEqual({ lowest: 4096, highest: 4099 });
    // Every sub-bucket: its ends map back to it, it starts where the one before ends, its width is within 1/1024.
    const problems: string[] = [];
    for (let index = 0; index < HISTOGRAM_LENGTH; index++) {
      const { lowest, highest } = microsOfIndex(index);
      if (indexOfMicros(lowest) !== index || indexOfMicros(highest) !== index) problems.push(`${index}: ends map elsewhere`);
      if (index > 0 && lowest !== microsOfIndex(index - 1).highest + 1) problems.push(`${index}: gap or overlap`);
      if (highest - lowest > lowest / 1024) problems.push(`${index}: wider than 1/1024`);
    }
    expect(problems).toEqual([]);
  });

  test('reaches 2^32 µs (71.6 minutes), beyond the hour it must cover', () => {
    expect(indexOfMicros(HIGHEST_TRACKABLE_US)).toBe(HISTOGRAM_LENGTH - 1);
    expect(microsOfIndex(HISTOGRAM_LENGTH - 1).highest).toBe(HIGHEST_TRACKABLE_US);
    const hour = 3_600_000_000;
    const { lowest, highest } = microsOfIndex(indexOfMicros(hour));
    expect(lowest).toBeLessThanOrEqual(hour);
    expect(highest).toBeGreaterThanOrEqual(hour);
    expect(highest - lowest).toBeLessThan(hour / 1024);
  });
});

describe('values read at a rank', () => {
  test.each(Object.keys(latencyShapes(1)))('%s: every rank within the precision of the exact sorted value', (shape) => {
    const draw = latencyShapes(7)[shape]!;
    const values = Array.from({ length: 20_000 }, draw);
    const histogram = createHistogram();
    for (const value of values) recordValue(histogram, value);
    const sorted = [...values].sort((a, b) => a - b);
    expect(histogram.count).toBe(values.length);
    expect(histogram.minMs).toBe(sorted[0]);
    expect(histogram.maxMs).toBe(sorted.at(-1));
    // Every 37th rank and the extremes: each read is the value at that rank, not at a neighbour's.
    for (let rank = 1; rank <= sorted.length; rank += rank < sorted.length - 37 ? 37 : 1)
      expectWithinPrecision(valueAtRank(histogram, rank), sorted[rank - 1]!, `rank ${rank}`);
    expect(valueAtRank(histogram, sorted.length)).toBe(sorted.at(-1));
  });

  test('values 1 % apart, shuffled: each rank reads its own value, not a neighbour (which lies beyond the 1/1024 bound)', () => {
    const sorted = Array.from({ length: 1200 }, (_, k) => 0.5 * 1.01 ** k);
    const shuffled = [...sorted];
    const random = seededRandom(11);
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
    }
    const histogram = createHistogram();
    for (const value of shuffled) recordValue(histogram, value);
    sorted.forEach((value, index) => expectWithinPrecision(valueAtRank(histogram, index + 1), value, `rank ${index + 1}`));
  });

  test('the highest equivalent value: never below the value at that rank (beyond rounding to the µs), at most the max', () => {
    const histogram = createHistogram();
    for (const ms of [100, 100.001, 100.06]) recordValue(histogram, ms);
    // 100 ms lies in a sub-bucket of 64 µs, [99,968, 100,031] µs; 100.06 in the next one.
    expect(valueAtRank(histogram, 1)).toBe(100.031);
    expect(valueAtRank(histogram, 2)).toBe(100.031);
    expect(valueAtRank(histogram, 3)).toBe(100.06);
  });

  test('a duration beyond 71.6 minutes is counted in the top sub-bucket; the max stays exact', () => {
    const histogram = createHistogram();
    recordValue(histogram, 5 * 3_600_000);
    expect(histogram.counts![HISTOGRAM_LENGTH - 1]).toBe(1);
    expect(histogram.maxMs).toBe(5 * 3_600_000);
    expect(valueAtRank(histogram, 1)).toBe(HIGHEST_TRACKABLE_US / 1000);
  });

  test('an empty histogram has no count array; ranks outside 1…count and unmeasurable values are refused', () => {
    const histogram = createHistogram();
    expect(histogram.counts).toBeNull();
    expect(() => valueAtRank(histogram, 1)).toThrow(RangeError);
    recordValue(histogram, 1);
    expect(() => valueAtRank(histogram, 2)).toThrow(RangeError);
    expect(() => valueAtRank(histogram, 0)).toThrow(RangeError);
    for (const bad of [Number.NaN, -1, Infinity]) expect(() => recordValue(histogram, bad)).toThrow(RangeError);
    expect(histogram.count).toBe(1);
  });
});

describe('merging and files', () => {
  const filled = (values: readonly number[]) => {
    const histogram = createHistogram();
    for (const value of values) recordValue(histogram, value);
    return histogram;
  };

  test("two histograms merged are the histogram of both runs' values", () => {
    const draw = latencyShapes(3)['Pareto heavy tail from 5 ms (α 1.1)']!;
    const first = Array.from({ length: 5000 }, draw);
    const second = Array.from({ length: 3000 }, () => draw() * 3);
    const merged = filled(first);
    mergeInto(merged, filled(second));
    mergeInto(merged, createHistogram());
    expect(histogramToJSON(merged)).toEqual(histogramToJSON(filled([...first, ...second])));
    const empty = createHistogram();
    mergeInto(empty, filled(second));
    expect(histogramToJSON(empty)).toEqual(histogramToJSON(filled(second)));
  });

  test('JSON lists the non-zero sub-buckets and reads back to the same histogram', () => {
    const histogram = filled([0.5, 0.5, 12.25, 3_000, 9e6]);
    const json = histogramToJSON(histogram);
    expect(json.counts).toEqual([
      [500, 2],
      [indexOfMicros(12_250), 1],
      [indexOfMicros(3_000_000), 1],
      [indexOfMicros(HIGHEST_TRACKABLE_US), 1],
    ]);
    const read = histogramFromJSON(JSON.parse(JSON.stringify(json)));
    expect(read).toEqual(histogram);
    expect(histogramFromJSON(histogramToJSON(createHistogram()))).toEqual(createHistogram());
  });

  test('JSON of another layout, an index out of range or counts that do not add up is refused', () => {
    const json = histogramToJSON(filled([1, 2]));
    expect(() => histogramFromJSON({ ...json, layout: 'linear' })).toThrow(/layout/);
    expect(() => histogramFromJSON({ ...json, counts: [[HISTOGRAM_LENGTH, 2]] })).toThrow(/outside/);
    expect(() => histogramFromJSON({ ...json, count: 3 })).toThrow(/add up/);
    expect(() => histogramFromJSON({ ...json, counts: [[5, 1.5]], count: 1.5 })).toThrow(/whole number/);
  });
});

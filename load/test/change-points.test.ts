// The detector on known inputs: q̂ as the formula defines it, a clean step found where it is, two
// steps found both, nothing in constant or pure-noise series, segments never shorter than asked,
// and p-values that are the same for the same seed.
import { describe, expect, test } from 'vitest';
import { seededRandom } from '../definitions/common.js';
import { bestSplit, changePoints } from '../change-points.ts';
import { gaussian } from './synthetic-history.ts';

/** q̂ of one split straight from Matteson & James's definition (alpha = 1), no running sums. */
function qHatByDefinition(values: readonly number[], tau: number): number {
  const x = values.slice(0, tau);
  const y = values.slice(tau);
  let between = 0;
  for (const a of x) for (const b of y) between += Math.abs(a - b);
  const within = (part: number[]) => {
    let sum = 0;
    for (let i = 0; i < part.length; i++) for (let k = i + 1; k < part.length; k++) sum += Math.abs(part[i]! - part[k]!);
    return sum / ((part.length * (part.length - 1)) / 2);
  };
  const energy = (2 * between) / (x.length * y.length) - within(x) - within(y);
  return ((x.length * y.length) / values.length) * energy;
}

const noisy = (seed: number, levels: readonly number[], sd: number) => {
  const random = seededRandom(seed);
  return levels.map((level) => level * (1 + sd * gaussian(random)));
};
const repeat = (value: number, count: number) => Array.from({ length: count }, () => value);

describe('the divergence', () => {
  test('the best split has the largest q̂ of the definition, over the splits the minimum segment allows', () => {
    const values = noisy(5, [...repeat(10, 7), ...repeat(12, 9)], 0.05);
    const split = bestSplit(values, 3)!;
    const byDefinition = Array.from({ length: values.length - 5 }, (_, i) => ({ index: i + 3, qHat: qHatByDefinition(values, i + 3) }));
    const best = byDefinition.reduce((a, b) => (b.qHat > a.qHat ? b : a));
    expect(split.index).toBe(best.index);
    expect(split.qHat).toBeCloseTo(best.qHat, 9);
    expect(split.index).toBe(7);
  });

  test('a segment shorter than two minimum segments has no split', () => {
    expect(bestSplit([1, 2, 3, 4, 5], 3)).toBeUndefined();
    expect(bestSplit([1, 2, 3, 4, 5, 6], 3)?.index).toBe(3);
  });
});

describe('change points', () => {
  test('a clean step is found at the first value after it, with the means either side', () => {
    const values = [...repeat(100, 12), ...repeat(130, 8)].map((value, i) => value + (i % 3) - 1);
    const [point, ...others] = changePoints(values);
    expect(others).toEqual([]);
    expect(point).toMatchObject({ index: 12 });
    expect(point!.mean_before).toBeCloseTo(100, 0);
    expect(point!.mean_after).toBeCloseTo(130, 0);
    expect(point!.relative_change).toBeCloseTo(0.3, 1);
    expect(point!.p_value).toBeLessThan(0.01);
  });

  test('two steps in noise are both found, each with the means of its neighbouring segments', () => {
    const values = noisy(11, [...repeat(100, 10), ...repeat(90, 10), ...repeat(110, 10)], 0.01);
    const points = changePoints(values);
    expect(points.map((point) => point.index)).toEqual([10, 20]);
    expect(points[0]!.mean_after).toBeCloseTo(points[1]!.mean_before, 9);
    expect(points[0]!.relative_change).toBeLessThan(-0.08);
    expect(points[1]!.relative_change).toBeGreaterThan(0.2);
  });

  test('p-values are the same for the same seed, multiples of 1 / (permutations + 1), and below the level', () => {
    // A small step in noise: p sits near the level, where another seed's shuffles can tell.
    const values = noisy(3, [...repeat(100, 15), ...repeat(102, 15)], 0.01);
    const first = changePoints(values, { seed: 7 });
    expect(changePoints(values, { seed: 7 })).toEqual(first);
    expect(first.length).toBeGreaterThan(0);
    for (const point of first) {
      expect(point.p_value).toBeLessThan(0.01);
      expect(point.p_value * 1000).toBeCloseTo(Math.round(point.p_value * 1000), 9);
    }
    // The seed, not an absence of chance, makes them repeatable: another seed shuffles otherwise.
    const otherSeed = changePoints(values, { seed: 8 });
    expect(otherSeed.map((point) => point.index)).toEqual(first.map((point) => point.index));
    expect(otherSeed.map((point) => point.p_value)).not.toEqual(first.map((point) => point.p_value));
    const withFewer = changePoints(values, { seed: 7, permutations: 199 });
    for (const point of withFewer) expect(point.p_value).toBe(1 / 200);
  });

  test('a constant series, and one too short, have none', () => {
    expect(changePoints(repeat(5, 30))).toEqual([]);
    expect(changePoints([1, 1, 1, 9, 9])).toEqual([]);
    expect(changePoints([])).toEqual([]);
  });

  test('noise alone gives none in 20 of 20 series of 30', () => {
    const found = Array.from({ length: 20 }, (_, seed) => changePoints(noisy(100 + seed, repeat(100, 30), 0.02)).length);
    expect(found).toEqual(repeat(0, 20));
  });

  test('no segment is shorter than the minimum: a step two values from the end is placed where the minimum allows', () => {
    const values = [...repeat(100, 38), 160, 160].map((value, i) => value + (i % 2));
    for (const minSegment of [2, 3, 5]) {
      const bounds = [0, ...changePoints(values, { minSegment }).map((point) => point.index), values.length];
      for (let i = 1; i < bounds.length; i++) expect(bounds[i]! - bounds[i - 1]!).toBeGreaterThanOrEqual(minSegment);
    }
    expect(changePoints(values, { minSegment: 2 }).map((point) => point.index)).toEqual([38]);
    expect(changePoints(values, { minSegment: 3 }).map((point) => point.index)).toEqual([37]);
  });

  test('settings out of range and values that are no numbers are refused', () => {
    expect(() => changePoints([1, 2, 3], { minSegment: 1 })).toThrow(/minSegment/);
    expect(() => changePoints([1, 2, 3], { pValue: 0 })).toThrow(/pValue/);
    expect(() => changePoints([1, Number.NaN, 3])).toThrow(/value 1/);
  });
});

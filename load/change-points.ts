// Change points in a series of measurements: E-divisive means with a permutation test.
//
// Method. Matteson & James, "A Nonparametric Approach for Multiple Change Point Analysis"
// (JASA 2014), as MongoDB's CI applies it to performance results (Daly et al., "The Use of Change
// Point Detection to Identify Software Performance Regressions in a Continuous Integration
// System", ICPE 2020) and as Hunter, now Apache Otava, does (Fleming et al., ICPE 2023).
//  - Divergence. For a split of a segment Z into X = Z[0, τ) and Y = Z[τ, n), the energy statistic
//    with alpha = 1 (plain absolute differences) is
//      Ê = 2/(τm) Σ|x − y| − 1/C(τ,2) Σ_{i<k}|x_i − x_k| − 1/C(m,2) Σ_{j<k}|y_j − y_k|,  m = n − τ,
//    twice the mean distance between the parts less the mean distances within each: zero in
//    expectation when X and Y come from one distribution, positive when they differ in location
//    (or in spread: alpha = 1 sees any difference of distribution, and needs no normality, which
//    latency percentiles and throughput on a shared machine do not have). The scaled form
//    q̂ = τm/n · Ê is comparable across split positions, and the split is where q̂ is largest.
//  - Significance. The best q̂ of any series is positive, so it proves nothing by itself. The
//    segment is shuffled `permutations` times (no order left: the null hypothesis), the best q̂ of
//    each shuffle recomputed, and p = (1 + shuffles reaching the observed q̂) / (1 + shuffles).
//    The shuffles come from a seeded generator, so one history always gives one verdict.
//    (Hunter later replaced the permutation test by a Student t-test between the two parts, for
//    speed and for results that do not move from one check to the next; a seeded generator
//    gives the second here, and keeps a test that assumes no distribution.)
//  - Binary segmentation. An accepted split divides its segment in two and each part is searched
//    again, until no part holds a significant split or is too short to split (`minSegment`).
//    Each part is tested on its own at the same level (Matteson & James test the best split of
//    all parts at once; for the short series of a CI history the two find the same points).
//
// Defaults, and why:
//  - p < 0.01 with 999 permutations: the smallest p is 1/1000, and p < 0.01 means at most 8 of
//    999 shuffles reached the observed divergence, a test of level 0.009 (with 199 shuffles the
//    only p below 0.01 would be 1/200, i.e. no shuffle at all: coarser, and weaker on a short
//    segment). A history is checked on every CI run, over six metrics, so the level must be
//    stricter than the papers' 0.05 for false alarms to stay rare (load/README.md has the
//    measured rate). 999 shuffles of 30 values cost about a millisecond each test.
//  - Segments of at least 3 values: the within-part terms need 2, and 3 asks a change to persist
//    over three separately recorded runs before it is a change, not one bad afternoon.
import { seededRandom } from './definitions/common.js';

export interface ChangePointOptions {
  /** A split is accepted when its permutation p-value is below this. */
  pValue: number;
  /** Shuffles of the segment per test. */
  permutations: number;
  /** Fewest values on either side of a split (at least 2). */
  minSegment: number;
  /** Seed of the shuffles: the same values and seed give the same change points and p-values. */
  seed: number;
}

export const DEFAULT_CHANGE_POINT_OPTIONS: Readonly<ChangePointOptions> = Object.freeze({ pValue: 0.01, permutations: 999, minSegment: 3, seed: 1 });

export interface ChangePoint {
  /** Position of the first value after the change. */
  index: number;
  /** Permutation p-value of the split when it was accepted. */
  p_value: number;
  /** The divergence q̂ of the split within the segment it was found in. */
  q_hat: number;
  /** Means of the segments either side, bounded by the neighbouring change points. */
  mean_before: number;
  mean_after: number;
  /** mean_after / mean_before − 1; null when mean_before is 0 (no ratio exists). */
  relative_change: number | null;
}

export interface Split {
  /** Position of the first value of the second part. */
  index: number;
  qHat: number;
}

/**
 * The split of `segment` with the largest q̂, both parts at least `minSegment` long; undefined
 * when the segment is too short to split. O(n²): the within-part sums move one value from the
 * right part to the left at each position instead of being summed anew.
 */
export function bestSplit(segment: readonly number[], minSegment: number): Split | undefined {
  const n = segment.length;
  if (n < 2 * minSegment) return undefined;
  let total = 0;
  for (let i = 0; i < n; i++) for (let k = i + 1; k < n; k++) total += Math.abs(segment[i]! - segment[k]!);
  let withinLeft = 0;
  let withinRight = total;
  let best: Split | undefined;
  for (let tau = 1; tau <= n - minSegment; tau++) {
    // segment[tau - 1] leaves the right part for the left one.
    const moved = segment[tau - 1]!;
    for (let i = 0; i < tau - 1; i++) withinLeft += Math.abs(segment[i]! - moved);
    for (let k = tau; k < n; k++) withinRight -= Math.abs(moved - segment[k]!);
    if (tau < minSegment) continue;
    const m = n - tau;
    const between = total - withinLeft - withinRight;
    const energy = (2 * between) / (tau * m) - withinLeft / ((tau * (tau - 1)) / 2) - withinRight / ((m * (m - 1)) / 2);
    const qHat = ((tau * m) / n) * energy;
    if (best === undefined || qHat > best.qHat) best = { index: tau, qHat };
  }
  return best;
}

/** Fisher–Yates, in place: from any order, a uniformly random one. */
function shuffle(values: number[], random: () => number): void {
  for (let i = values.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [values[i], values[j]] = [values[j]!, values[i]!];
  }
}

/**
 * The permutation p-value of `observed`, the best q̂ of `segment`. A shuffle counts when its best
 * q̂ reaches the observed one (within rounding: sums in another order differ in the last bits).
 * The test stops once p can no longer fall below the level: a p-value at or above the level is
 * a lower bound, and is never reported.
 */
function permutationPValue(segment: readonly number[], observed: number, options: ChangePointOptions, random: () => number): number {
  const shuffled = [...segment];
  const reaching = observed * (1 - 1e-9);
  let atLeast = 0;
  for (let round = 0; round < options.permutations; round++) {
    shuffle(shuffled, random);
    if (bestSplit(shuffled, options.minSegment)!.qHat >= reaching) {
      atLeast++;
      if ((atLeast + 1) / (options.permutations + 1) >= options.pValue) break;
    }
  }
  return (atLeast + 1) / (options.permutations + 1);
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** The significant change points of `values`, in order of position. */
export function changePoints(values: readonly number[], options: Partial<ChangePointOptions> = {}): ChangePoint[] {
  const settings: ChangePointOptions = { ...DEFAULT_CHANGE_POINT_OPTIONS, ...options };
  if (!(Number.isInteger(settings.minSegment) && settings.minSegment >= 2))
    throw new Error(`minSegment must be an integer of at least 2; got ${settings.minSegment}`);
  if (!(Number.isInteger(settings.permutations) && settings.permutations >= 1))
    throw new Error(`permutations must be a positive integer; got ${settings.permutations}`);
  if (!(settings.pValue > 0 && settings.pValue < 1)) throw new Error(`pValue must lie between 0 and 1; got ${settings.pValue}`);
  const bad = values.findIndex((value) => !Number.isFinite(value));
  if (bad >= 0) throw new Error(`value ${bad} is not a finite number (${values[bad]})`);

  const random = seededRandom(settings.seed);
  const accepted: { index: number; p_value: number; q_hat: number }[] = [];
  const search = (start: number, end: number) => {
    const segment = values.slice(start, end);
    const split = bestSplit(segment, settings.minSegment);
    // q̂ of 0 or less: the parts are no further apart than their own values (a constant segment).
    if (!split || !(split.qHat > 0)) return;
    const pValue = permutationPValue(segment, split.qHat, settings, random);
    if (pValue >= settings.pValue) return;
    accepted.push({ index: start + split.index, p_value: pValue, q_hat: split.qHat });
    search(start, start + split.index);
    search(start + split.index, end);
  };
  search(0, values.length);

  accepted.sort((a, b) => a.index - b.index);
  const bounds = [0, ...accepted.map((point) => point.index), values.length];
  return accepted.map((point, i) => {
    const before = mean(values.slice(bounds[i], bounds[i + 1]));
    const after = mean(values.slice(bounds[i + 1], bounds[i + 2]));
    return { ...point, mean_before: before, mean_after: after, relative_change: before === 0 ? null : after / before - 1 };
  });
}

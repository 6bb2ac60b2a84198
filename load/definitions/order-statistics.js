// How many requests a p99 verdict needs, and the p99's confidence interval from the sorted
// durations themselves (distribution-free: no shape of the latency distribution is assumed).
//
// Of n durations, the number B below the true p99 is Binomial(n, 0.99). The k-th smallest
// duration X(k) lies at or above the true p99 exactly when B < k, so X(k) is an upper bound at
// confidence P(B <= k - 1), and X(r) a lower bound at confidence P(B >= r). With a 95 % interval
// (2.5 % on each side) the upper bound exists only when even the slowest request, X(n), is one:
// P(B <= n - 1) = 1 - 0.99^n >= 0.975, that is n >= ln(0.025) / ln(0.99) = 367.04, so 368
// requests. With fewer, nothing measured bounds the p99 from above, and a verdict on it would be
// a guess. Plain JavaScript: the k6 scripts import it too.

export const TAIL_QUANTILE = 0.99;
/** Two-sided confidence of the interval: 2.5 % on each side. */
export const TAIL_CONFIDENCE = 0.95;

/** Fewest requests for which the p99's upper confidence bound exists: 368. */
export const P99_MIN_REQUESTS = Math.ceil(Math.log((1 - TAIL_CONFIDENCE) / 2) / Math.log(TAIL_QUANTILE));

/**
 * The ranks (1 = smallest) of the two order statistics that bound the p99 of n values at 95 %
 * confidence, from n alone; undefined with fewer than P99_MIN_REQUESTS values. A histogram reads
 * its interval at these ranks (load/percentiles.ts), a sorted list by p99Interval.
 * @returns {{ lowerRank: number, upperRank: number } | undefined}
 */
export function p99IntervalRanks(/** @type {number} */ n) {
  if (n < P99_MIN_REQUESTS) return undefined;
  const tail = (1 - TAIL_CONFIDENCE) / 2;
  const q = TAIL_QUANTILE;
  // Walk k down from n, summing P(B = k) in log space (q^n underflows for large n): `above` is P(B >= k).
  let logPmf = n * Math.log(q);
  let above = 0;
  let upperRank = n;
  let lowerRank = 1;
  for (let k = n; k >= 1; k--) {
    above += Math.exp(logPmf);
    // X(k) is an upper bound while P(B <= k - 1) = 1 - P(B >= k) >= 97.5 %: keep the smallest such k.
    if (1 - above >= 1 - tail) upperRank = k;
    // X(k) is a lower bound once P(B >= k) >= 97.5 %: the first (largest) such k.
    if (above >= 1 - tail) {
      lowerRank = k;
      break;
    }
    logPmf += Math.log(k) - Math.log(n - k + 1) + Math.log((1 - q) / q);
  }
  // Both ranks lie in 1..n (the walk starts at n and stops at 1 at the latest).
  return { lowerRank, upperRank };
}

/**
 * The 95 % distribution-free confidence interval of the p99 of ascending `sorted`, as two of its
 * own values; undefined with fewer than P99_MIN_REQUESTS values.
 * @returns {{ lower: number, upper: number } | undefined}
 */
export function p99Interval(/** @type {readonly number[]} */ sorted) {
  const ranks = p99IntervalRanks(sorted.length);
  if (!ranks) return undefined;
  return { lower: /** @type {number} */ (sorted[ranks.lowerRank - 1]), upper: /** @type {number} */ (sorted[ranks.upperRank - 1]) };
}

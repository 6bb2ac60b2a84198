// Probability arithmetic on the model's float32 outputs. Answers carry probabilities rounded to
// PROBABILITY_DECIMALS decimals; a distribution is rounded so that it still adds up to exactly 1
// in millionths, and margins are computed afterwards from the rounded numbers, so a caller can
// recompute every confidence from the probabilities it received.

export const PROBABILITY_DECIMALS = 6;
const UNITS = 10 ** PROBABILITY_DECIMALS;

function checkedProbability(value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new Error(`The scoring model returned an invalid probability: ${String(value)}`);
  return value;
}

/**
 * Rounds a distribution to multiples of 10^-PROBABILITY_DECIMALS whose units add up to exactly
 * 10^PROBABILITY_DECIMALS (largest-remainder rounding). Equal remainders are broken by `tieKeys`
 * (the option ids) when given, so that the order options were sent in changes no probability;
 * otherwise the earlier entry wins. Renormalises first: float32 softmax outputs add up to 1 only
 * within about 1e-7.
 */
export function roundDistribution(values: ArrayLike<number>, tieKeys?: readonly string[]): number[] {
  const raw = Array.from(values, checkedProbability);
  // Summed smallest first, whatever the order of the entries: the total, and so every scaled value
  // and remainder, is then the same in any order, to the last bit.
  const total = [...raw].sort((a, b) => a - b).reduce((sum, value) => sum + value, 0);
  if (!(total > 0)) throw new Error('The scoring model returned a distribution that sums to 0');
  const scaled = raw.map((value) => (value / total) * UNITS);
  const units = scaled.map(Math.floor);
  let missing = UNITS - units.reduce((sum, unit) => sum + unit, 0);
  const byRemainder = scaled
    .map((value, index) => ({ index, remainder: value - units[index]! }))
    .sort((a, b) => b.remainder - a.remainder || compareKeys(tieKeys, a.index, b.index) || a.index - b.index);
  for (const { index } of byRemainder) {
    if (missing <= 0) break;
    units[index]! += 1;
    missing -= 1;
  }
  return units.map((unit) => unit / UNITS);
}

function compareKeys(keys: readonly string[] | undefined, a: number, b: number): number {
  if (!keys) return 0;
  const [left, right] = [keys[a]!, keys[b]!];
  return left < right ? -1 : left > right ? 1 : 0;
}

/** One independent probability, clamped to [0, 1] and rounded like a distribution's entries. */
export function roundProbability(value: number): number {
  return Math.min(UNITS, Math.max(0, Math.round(checkedProbability(value) * UNITS))) / UNITS;
}

export interface TopTwo {
  /** Index of the highest probability; the first one on a tie. */
  readonly top: number;
  /** Highest minus second-highest probability (the second is 0 for a single entry). */
  readonly margin: number;
}

export function topTwo(probabilities: readonly number[]): TopTwo {
  if (probabilities.length === 0) throw new Error('topTwo needs at least one probability');
  let top = 0;
  probabilities.forEach((p, index) => {
    if (p > probabilities[top]!) top = index;
  });
  const runnerUp = probabilities.reduce((best, p, index) => (index !== top && p > best ? p : best), 0);
  return { top, margin: probabilities[top]! - runnerUp };
}

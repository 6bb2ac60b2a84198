// Seeded latency shapes (ms) for the tests of the histogram and of the figures read from it:
// from a calm service to a heavy tail, each the same on every run.
import { seededRandom } from '../definitions/common.js';

export function latencyShapes(seed: number): Record<string, () => number> {
  const random = seededRandom(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return {
    'uniform 0–3 ms (exact below 2.048 ms)': () => random() * 3,
    'exponential, mean 20 ms': () => -20 * Math.log(1 - random()),
    'lognormal, median 8 ms': () => 8 * Math.exp(0.6 * normal()),
    'Pareto heavy tail from 5 ms (α 1.1)': () => 5 * (1 - random()) ** (-1 / 1.1),
    'bimodal: 2 ms, and 2 % at 400–4,000 ms': () => (random() < 0.02 ? 400 + random() * 3600 : 2 + random()),
  };
}

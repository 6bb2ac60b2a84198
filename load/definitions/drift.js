// The soak's own drift verdict: the last timeline window against the first, for p50 and p99, and
// the server's resident memory where the kit can see it. A server whose latency grows with uptime
// keeps every absolute threshold for a while; this is what fails it without a baseline.
// Plain JavaScript: k6 (alone) and the kit both judge with it.
import { P99_MIN_REQUESTS } from './order-statistics.js';
import { setting } from './common.js';

/**
 * @typedef {{ p50Ratio: number, p99Ratio: number, floorMs: number, rssGrowthMb: number }} DriftLimits
 *   The last window may be `ratio` times the first, and always `floorMs` more; memory may grow by `rssGrowthMb` MiB.
 * @typedef {{ start_s: number, count: number, p50_ms: number, p95_ms: number, p99_ms: number }} Window
 * @typedef {{ metric: string, condition: string, ok: boolean }} Threshold
 */

/** Drift limits with their defaults, each overridable: DRIFT_P50_RATIO, DRIFT_P99_RATIO, DRIFT_FLOOR_MS, DRIFT_RSS_MB. */
export function driftLimits(/** @type {import('./common.js').Settings} */ env) {
  return {
    p50Ratio: setting(env, 'DRIFT_P50_RATIO', 2),
    p99Ratio: setting(env, 'DRIFT_P99_RATIO', 3),
    floorMs: setting(env, 'DRIFT_FLOOR_MS', 5),
    rssGrowthMb: setting(env, 'DRIFT_RSS_MB', 256),
  };
}

/** Highest value the last window may reach: `ratio` times the first, and at least `floorMs` above it. */
export const driftCeiling = (/** @type {number} */ first, /** @type {number} */ ratio, /** @type {number} */ floorMs) =>
  Math.max(first * ratio, first + floorMs);

/**
 * The latency drift thresholds of a timeline: p50 whenever there are two windows; p99 only when
 * both windows hold P99_MIN_REQUESTS requests (fewer do not bound a p99; see order-statistics.js).
 * @returns {Threshold[]}
 */
export function latencyDriftThresholds(/** @type {DriftLimits} */ limits, /** @type {readonly Window[]} */ timeline) {
  const first = timeline[0];
  const last = timeline[timeline.length - 1];
  if (!first || !last || first === last) return [];
  const thresholds = [
    {
      metric: 'drift p50',
      condition: `last<=${limits.p50Ratio}*first (floor ${limits.floorMs} ms)`,
      ok: last.p50_ms <= driftCeiling(first.p50_ms, limits.p50Ratio, limits.floorMs),
    },
  ];
  if (first.count >= P99_MIN_REQUESTS && last.count >= P99_MIN_REQUESTS) {
    thresholds.push({
      metric: 'drift p99',
      condition: `last<=${limits.p99Ratio}*first (floor ${limits.floorMs} ms)`,
      ok: last.p99_ms <= driftCeiling(first.p99_ms, limits.p99Ratio, limits.floorMs),
    });
  }
  return thresholds;
}

/**
 * The memory drift threshold from resident-memory samples of the server (first and last).
 * @returns {Threshold[]}
 */
export function memoryDriftThresholds(/** @type {DriftLimits} */ limits, /** @type {readonly { rss_bytes: number }[]} */ samples) {
  const first = samples[0];
  const last = samples[samples.length - 1];
  if (samples.length < 2 || !first || !last) return [];
  const growth = last.rss_bytes - first.rss_bytes;
  return [{ metric: 'drift rss', condition: `growth<=${limits.rssGrowthMb} MiB`, ok: growth <= limits.rssGrowthMb * 1024 * 1024 }];
}

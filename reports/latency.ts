// Latency per operation, from every exchange of a run.

export interface LatencyStats {
  count: number;
  p50_ms: number;
  p90_ms: number;
  p99_ms: number;
  max_ms: number;
}

export interface TimedExchange {
  operation_id?: string;
  duration_ms: number;
  /** Exchanges that ended in a transport error are left out: their duration measures the kit's timeout, not the server. */
  transport_error?: string;
}

/**
 * Fewest responses for which a p99 is shown: with fewer than 100, the nearest-rank p99 is simply
 * the slowest response, which the max already says.
 */
export const P99_MIN_RESPONSES = 100;

/** Whether `stats` has enough responses for its p99 to mean more than its max. */
export function hasMeaningfulP99(stats: Pick<LatencyStats, 'count'>): boolean {
  return stats.count >= P99_MIN_RESPONSES;
}

/** The nearest rank of percentile `p` among `count` values (count ≥ 1): ceil(p/100 · count), within 1…count. */
export function nearestRank(p: number, count: number): number {
  return Math.min(count, Math.max(1, Math.ceil((p / 100) * count)));
}

/** Nearest-rank percentile of ascending `sorted` (non-empty): a value that was actually measured, never an interpolation. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[nearestRank(p, sorted.length) - 1]!;
}

/**
 * operationId -> stats, keys in alphabetical order so that two runs compare line by line.
 * Requests to paths the spec does not describe (unknown routes) have no operationId and are not counted.
 */
export function latencyByOperation(exchanges: Iterable<TimedExchange>): Record<string, LatencyStats> {
  const durations = new Map<string, number[]>();
  for (const exchange of exchanges) {
    if (!exchange.operation_id || exchange.transport_error !== undefined) continue;
    const list = durations.get(exchange.operation_id) ?? [];
    list.push(exchange.duration_ms);
    durations.set(exchange.operation_id, list);
  }
  const stats: Record<string, LatencyStats> = {};
  for (const operationId of [...durations.keys()].sort()) {
    const sorted = durations.get(operationId)!.sort((a, b) => a - b);
    stats[operationId] = {
      count: sorted.length,
      p50_ms: percentile(sorted, 50),
      p90_ms: percentile(sorted, 90),
      p99_ms: percentile(sorted, 99),
      max_ms: sorted[sorted.length - 1]!,
    };
  }
  return stats;
}

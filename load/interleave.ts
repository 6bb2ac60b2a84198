// Interleaved A/B: baseline and candidate measured in turn, so that a busy minute of a shared
// machine falls on both sides instead of on whichever side ran then. The order ABBA ABBA... also
// cancels the cost of going second (a warmer cache, a neighbour's burst that tends to last).
import type { LoadRun } from '../reports/load-run.ts';
import { runOnce, warmUp, type LoadRunOptions } from './run.ts';

export type Order = 'abab' | 'abba';

export interface Side {
  baseUrl: string;
  apiKey: string;
}

export interface InterleavedOptions extends Pick<LoadRunOptions, 'scenario' | 'k6'> {
  baseline: Side;
  candidate: Side;
  /** The scenario's settings for both sides (DURATION, RATE, VUS...), without target. */
  settings: Record<string, string | undefined>;
  /** Runs per side. */
  repeat: number;
  order?: Order;
  /** Warm both sides first (default true); false when the caller already did. */
  warm?: boolean;
  output?(line: string): void;
}

/** Which side runs at position `index` (0-based) of the sequence: true for the baseline. */
export function baselineAt(order: Order, index: number): boolean {
  return order === 'abab' ? index % 2 === 0 : [true, false, false, true][index % 4]!;
}

export async function interleavedRuns(options: InterleavedOptions): Promise<{ baseline: LoadRun[]; candidate: LoadRun[] }> {
  const order = options.order ?? 'abba';
  const settingsOf = (side: Side) => ({ ...options.settings, BASE_URL: side.baseUrl, API_KEY: side.apiKey });
  // Both sides are warmed before either is measured, for the reason `load run` warms up.
  if (options.warm !== false) {
    await warmUp(options.scenario, settingsOf(options.baseline));
    await warmUp(options.scenario, settingsOf(options.candidate));
  }
  const runs = { baseline: [] as LoadRun[], candidate: [] as LoadRun[] };
  for (let index = 0; index < options.repeat * 2; index++) {
    const isBaseline = baselineAt(order, index);
    const side = isBaseline ? 'baseline' : 'candidate';
    const run = await runOnce({
      scenario: options.scenario,
      settings: settingsOf(options[side]),
      ...(options.k6 ? { k6: options.k6 } : {}),
      tag: `${side[0]}${runs[side].length}`,
    });
    runs[side].push(run);
    options.output?.(
      `${side} ${runs[side].length}/${options.repeat}: ${run.requests} requests, ${run.throughput_rps} req/s, p50 ${run.latency.all?.p50_ms ?? '-'} ms, p99 ${run.latency.all?.p99_ms ?? '-'} ms`,
    );
  }
  return runs;
}

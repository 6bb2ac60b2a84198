// The latency chart reads at every scale: a log axis keeps fast operations visible beside an upload
// near a second, and a p99 is drawn only from enough responses, the count stated otherwise.
import { describe, expect, it } from 'vitest';
import { latencyChart, logTicks } from '../latency-chart.ts';
import type { LatencyStats } from '../latency.ts';

const stats = (count: number, p50: number, p90: number, p99: number, max = p99): LatencyStats => ({
  count,
  p50_ms: p50,
  p90_ms: p90,
  p99_ms: p99,
  max_ms: max,
});

/** Width of the bar titled "<operation> <series>: …". */
function barWidth(svg: string, operation: string, series: string): number {
  const match = new RegExp(`width="([\\d.]+)"[^>]*><title>${operation} ${series}:`).exec(svg);
  if (!match) throw new Error(`no ${series} bar for ${operation}`);
  return Number(match[1]);
}

describe('latency chart', () => {
  it('spans decades from one below the fastest value to the one above the slowest', () => {
    expect(logTicks(1.5, 950)).toEqual([0.1, 1, 10, 100, 1000]);
    expect(logTicks(0.001, 3)).toEqual([0.01, 0.1, 1, 10]);
    expect(logTicks(5, 5)).toEqual([0.1, 1, 10]);
  });

  it('keeps a 2 ms operation readable beside an upload near one second', () => {
    const svg = latencyChart({ getHealth: stats(40, 1.2, 2, 2), uploadAsset: stats(12, 120, 950, 950) });
    const fast = barWidth(svg, 'getHealth', 'p50');
    const slow = barWidth(svg, 'uploadAsset', 'p90');
    // On a linear axis the fast bar would be 1.2 / 1000 of the slow one, a sliver of under a pixel.
    expect(fast / slow).toBeGreaterThan(0.2);
    expect(fast).toBeGreaterThan(50);
    expect(svg).toContain('log scale');
  });

  it('draws a p99 only from 100 responses or more, and states the count otherwise', () => {
    const svg = latencyChart({ decide: stats(420, 8, 20, 60, 300), listModels: stats(7, 3, 5, 5) });
    expect(barWidth(svg, 'decide', 'p99')).toBeGreaterThan(barWidth(svg, 'decide', 'p90'));
    expect(() => barWidth(svg, 'listModels', 'p99')).toThrow();
    expect(svg).toContain('p99 not shown: 7 of the 100 responses it needs');
    expect(svg).not.toContain('p99 not shown: 420');
  });
});

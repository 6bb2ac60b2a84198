// The latency chart of report.html: inline SVG, one group of p50/p90/p99 bars per operation,
// drawn here rather than by a charting library so that the report stays one offline file.
import { html } from './escape.ts';
import { formatMs } from './format.ts';
import type { LatencyStats } from './latency.ts';

const WIDTH = 960;
const LABEL_WIDTH = 190;
const VALUE_WIDTH = 76;
const AXIS_HEIGHT = 26;
const LEGEND_HEIGHT = 30;
const BAR_HEIGHT = 9;
const BAR_GAP = 3;
const ROW_PADDING = 16;
const ROW_HEIGHT = 3 * BAR_HEIGHT + 2 * BAR_GAP + ROW_PADDING;

const SERIES = [
  { key: 'p50_ms', label: 'p50', colour: '#9ec5fe' },
  { key: 'p90_ms', label: 'p90', colour: '#3d8bfd' },
  { key: 'p99_ms', label: 'p99', colour: '#0a4fb5' },
] as const;

/** Round axis steps (1, 2 or 5 times a power of ten) giving about five ticks up to `max`. */
export function axisTicks(max: number): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const normalised = raw / magnitude;
  const step = (normalised <= 1 ? 1 : normalised <= 2 ? 2 : normalised <= 5 ? 5 : 10) * magnitude;
  const ticks: number[] = [];
  for (let i = 0; i * step < max + step * 1e-9 || ticks.length < 2; i++) ticks.push(Number((i * step).toPrecision(12)));
  if (ticks[ticks.length - 1]! < max) ticks.push(Number((ticks.length * step).toPrecision(12)));
  return ticks;
}

export function latencyChart(latency: Record<string, LatencyStats>): string {
  const operations = Object.entries(latency);
  if (operations.length === 0) return '';
  const ticks = axisTicks(Math.max(...operations.map(([, stats]) => stats.p99_ms)));
  const axisMax = ticks[ticks.length - 1]!;
  const plotWidth = WIDTH - LABEL_WIDTH - VALUE_WIDTH;
  const x = (ms: number) => LABEL_WIDTH + (ms / axisMax) * plotWidth;
  const plotBottom = AXIS_HEIGHT + operations.length * ROW_HEIGHT;
  const height = plotBottom + LEGEND_HEIGHT;

  const grid = ticks.map((tick) => {
    const at = x(tick).toFixed(1);
    return `<line x1="${at}" y1="${AXIS_HEIGHT - 4}" x2="${at}" y2="${plotBottom}" class="grid"/><text x="${at}" y="${AXIS_HEIGHT - 10}" text-anchor="middle" class="tick">${html(`${tick} ms`)}</text>`;
  });

  const rows = operations.map(([operationId, stats], row) => {
    const top = AXIS_HEIGHT + row * ROW_HEIGHT + ROW_PADDING / 2;
    const bars = SERIES.map((series, i) => {
      const value = stats[series.key];
      const y = top + i * (BAR_HEIGHT + BAR_GAP);
      const width = Math.max(1, x(value) - LABEL_WIDTH);
      return (
        `<rect x="${LABEL_WIDTH}" y="${y}" width="${width.toFixed(1)}" height="${BAR_HEIGHT}" rx="2" fill="${series.colour}">` +
        `<title>${html(`${operationId} ${series.label}: ${formatMs(value)}`)}</title></rect>` +
        `<text x="${(LABEL_WIDTH + width + 6).toFixed(1)}" y="${y + BAR_HEIGHT - 1}" class="value">${html(`${series.label} ${formatMs(value)}`)}</text>`
      );
    });
    const middle = top + (3 * BAR_HEIGHT + 2 * BAR_GAP) / 2;
    return (
      `<g class="operation">` +
      `<text x="${LABEL_WIDTH - 12}" y="${middle - 2}" text-anchor="end" class="operation-id">${html(operationId)}</text>` +
      `<text x="${LABEL_WIDTH - 12}" y="${middle + 12}" text-anchor="end" class="count">${html(`${stats.count} response${stats.count === 1 ? '' : 's'} · max ${formatMs(stats.max_ms)}`)}</text>` +
      bars.join('') +
      `</g>`
    );
  });

  const legend = SERIES.map((series, i) => {
    const left = LABEL_WIDTH + i * 90;
    return `<rect x="${left}" y="${plotBottom + 12}" width="12" height="12" rx="2" fill="${series.colour}"/><text x="${left + 18}" y="${plotBottom + 22}" class="legend">${series.label}</text>`;
  });

  return (
    `<svg class="latency-chart" viewBox="0 0 ${WIDTH} ${height}" width="100%" role="img" aria-label="Latency per operation: p50, p90 and p99 in milliseconds">` +
    `<line x1="${LABEL_WIDTH}" y1="${AXIS_HEIGHT - 4}" x2="${LABEL_WIDTH}" y2="${plotBottom}" class="axis"/>` +
    grid.join('') +
    rows.join('') +
    legend.join('') +
    `</svg>`
  );
}

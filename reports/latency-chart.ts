// The latency chart of report.html: inline SVG, one group of p50/p90/p99 bars per operation,
// drawn here rather than by a charting library so that the report stays one offline file.
// The axis is logarithmic: a run mixes sub-millisecond reads with uploads near a second, and on a
// linear axis one slow upload leaves every other bar a sliver. A p99 is drawn only where enough
// responses were timed for it to differ from the max; elsewhere the row says how many there were.
import { html } from './escape.ts';
import { formatMs } from './format.ts';
import { hasMeaningfulP99, P99_MIN_RESPONSES, type LatencyStats } from './latency.ts';

const WIDTH = 960;
const LABEL_WIDTH = 190;
const VALUE_WIDTH = 150;
const AXIS_HEIGHT = 26;
const LEGEND_HEIGHT = 30;
const BAR_HEIGHT = 9;
const BAR_GAP = 3;
const ROW_PADDING = 16;
const ROW_HEIGHT = 3 * BAR_HEIGHT + 2 * BAR_GAP + ROW_PADDING;
/** The axis starts no lower than this: below it, timings measure the machine, not the server. */
const FLOOR_MS = 0.01;

const SERIES = [
  { key: 'p50_ms', label: 'p50', colour: '#9ec5fe' },
  { key: 'p90_ms', label: 'p90', colour: '#3d8bfd' },
  { key: 'p99_ms', label: 'p99', colour: '#0a4fb5' },
] as const;

/**
 * The decades of a log axis: powers of ten from one decade below `min` (so that the shortest bar
 * still has length) to the one at or above `max`.
 */
export function logTicks(min: number, max: number): number[] {
  const low = Math.max(Math.log10(FLOOR_MS), Math.floor(Math.log10(Math.max(min, FLOOR_MS))) - 1);
  const high = Math.max(low + 1, Math.ceil(Math.log10(Math.max(max, FLOOR_MS))));
  const ticks: number[] = [];
  for (let exponent = low; exponent <= high; exponent++) ticks.push(Number((10 ** exponent).toPrecision(12)));
  return ticks;
}

/** The values of `stats` the chart draws: p99 only where it means something. */
function shownValues(stats: LatencyStats): number[] {
  return hasMeaningfulP99(stats) ? [stats.p50_ms, stats.p90_ms, stats.p99_ms] : [stats.p50_ms, stats.p90_ms];
}

export function latencyChart(latency: Record<string, LatencyStats>): string {
  const operations = Object.entries(latency);
  if (operations.length === 0) return '';
  const values = operations.flatMap(([, stats]) => shownValues(stats));
  const ticks = logTicks(Math.min(...values), Math.max(...values));
  const axisMin = ticks[0]!;
  const axisMax = ticks[ticks.length - 1]!;
  const plotWidth = WIDTH - LABEL_WIDTH - VALUE_WIDTH;
  const x = (ms: number) => LABEL_WIDTH + ((Math.log10(Math.max(ms, axisMin)) - Math.log10(axisMin)) / (Math.log10(axisMax) - Math.log10(axisMin))) * plotWidth;
  const plotBottom = AXIS_HEIGHT + operations.length * ROW_HEIGHT;
  const height = plotBottom + LEGEND_HEIGHT;

  const grid = ticks.map((tick) => {
    const at = x(tick).toFixed(1);
    return `<line x1="${at}" y1="${AXIS_HEIGHT - 4}" x2="${at}" y2="${plotBottom}" class="grid"/><text x="${at}" y="${AXIS_HEIGHT - 10}" text-anchor="middle" class="tick">${html(tick >= 1000 ? `${tick / 1000} s` : `${tick} ms`)}</text>`;
  });

  const rows = operations.map(([operationId, stats], row) => {
    const top = AXIS_HEIGHT + row * ROW_HEIGHT + ROW_PADDING / 2;
    const bars = SERIES.map((series, i) => {
      const y = top + i * (BAR_HEIGHT + BAR_GAP);
      if (series.key === 'p99_ms' && !hasMeaningfulP99(stats)) {
        return `<text x="${LABEL_WIDTH + 4}" y="${y + BAR_HEIGHT - 1}" class="no-p99">${html(`p99 not shown: ${stats.count} of the ${P99_MIN_RESPONSES} responses it needs`)}</text>`;
      }
      const value = stats[series.key];
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
  const scaleNote = `<text x="${WIDTH - 4}" y="${plotBottom + 22}" text-anchor="end" class="legend">log scale; p99 from ${P99_MIN_RESPONSES} responses</text>`;

  return (
    `<svg class="latency-chart" viewBox="0 0 ${WIDTH} ${height}" width="100%" role="img" aria-label="Latency per operation on a logarithmic axis: p50, p90, and p99 where at least ${P99_MIN_RESPONSES} responses were timed, in milliseconds">` +
    `<line x1="${LABEL_WIDTH}" y1="${AXIS_HEIGHT - 4}" x2="${LABEL_WIDTH}" y2="${plotBottom}" class="axis"/>` +
    grid.join('') +
    rows.join('') +
    legend.join('') +
    scaleNote +
    `</svg>`
  );
}

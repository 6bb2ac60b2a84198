// One metric's history as inline SVG for history.html: each entry's median as a dot, the mean of
// each segment between change points as a level line, each change point as a vertical rule (red
// when worse, green when better), and the newest entries the verdict looks at shaded. Drawn here,
// as reports/latency-chart.ts draws its chart, so the page stays one offline file. Labels come
// from store files: every one goes through html(), and shows on hover as an SVG <title>.
import { html } from '../reports/escape.ts';
import type { MetricCheck } from './history.ts';

const WIDTH = 960;
const HEIGHT = 230;
const LEFT = 78;
const RIGHT = 16;
const TOP = 14;
const BOTTOM = 30;
const COLOURS = { dot: '#0969da', level: '#8c959f', worse: '#cf222e', better: '#1a7f37', newest: '#fff8c5', grid: '#eaeef2', axis: '#afb8c1', text: '#59636e' };

/** A figure for people: four significant digits, no exponent for the sizes a load run has. */
export function figure(value: number): string {
  return String(Number(value.toPrecision(4)));
}

/** The change from before to after, for people: "-3.1 %", or "from 0" where no ratio exists. */
export function changeText(relative: number | null): string {
  return relative === null ? 'from 0' : `${relative >= 0 ? '+' : ''}${(relative * 100).toFixed(1)} %`;
}

export function historyChart(check: MetricCheck, newest: number): string {
  const { values, labels, change_points: points } = check;
  if (values.length === 0) return '';
  const low = Math.min(...values);
  const high = Math.max(...values);
  // A flat series still gets a band to sit in: ±5 % of its value (or ±1 for zeros).
  const pad = high > low ? (high - low) * 0.08 : Math.abs(high) * 0.05 || 1;
  const axisLow = low - pad;
  const axisHigh = high + pad;
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotBottom = HEIGHT - BOTTOM;
  const x = (i: number) => LEFT + (values.length === 1 ? plotWidth / 2 : (i / (values.length - 1)) * plotWidth);
  const y = (value: number) => TOP + ((axisHigh - value) / (axisHigh - axisLow)) * (plotBottom - TOP);
  const step = values.length > 1 ? plotWidth / (values.length - 1) : plotWidth;
  const at = (n: number) => n.toFixed(1);

  const grid = [0, 1, 2, 3, 4].map((k) => {
    const value = axisLow + ((axisHigh - axisLow) * k) / 4;
    return `<line x1="${LEFT}" y1="${at(y(value))}" x2="${WIDTH - RIGHT}" y2="${at(y(value))}" stroke="${COLOURS.grid}"/><text x="${LEFT - 8}" y="${at(y(value) + 4)}" text-anchor="end" font-size="11" fill="${COLOURS.text}">${html(figure(value))}</text>`;
  });

  const firstNewest = Math.max(0, values.length - newest);
  const newestBand = `<rect x="${at(Math.max(LEFT, x(firstNewest) - step / 2))}" y="${TOP}" width="${at(Math.min(WIDTH - RIGHT, x(values.length - 1) + step / 2) - Math.max(LEFT, x(firstNewest) - step / 2))}" height="${plotBottom - TOP}" fill="${COLOURS.newest}"><title>${html(`the newest ${Math.min(newest, values.length)} runs: a change here, for the worse, fails the check`)}</title></rect>`;

  const bounds = [0, ...points.map((point) => point.index), values.length];
  const levels = bounds.slice(0, -1).map((start, i) => {
    const end = bounds[i + 1]!;
    const mean = values.slice(start, end).reduce((sum, value) => sum + value, 0) / (end - start);
    return `<line x1="${at(x(start))}" y1="${at(y(mean))}" x2="${at(x(end - 1))}" y2="${at(y(mean))}" stroke="${COLOURS.level}" stroke-width="2" stroke-dasharray="5 3"><title>${html(`mean of runs ${start + 1}–${end}: ${figure(mean)}`)}</title></line>`;
  });

  const rules = points.map((point) => {
    const worse = check.better === 'higher' ? point.mean_after < point.mean_before : point.mean_after > point.mean_before;
    const colour = worse ? COLOURS.worse : COLOURS.better;
    const middle = at(x(point.index) - step / 2);
    const title = html(
      `change at run ${point.index + 1} "${point.label}": ${figure(point.mean_before)} -> ${figure(point.mean_after)} (${changeText(point.relative_change)}), p ${point.p_value}, ${worse ? 'worse' : 'better'}`,
    );
    return (
      `<g class="change"><title>${title}</title>` +
      `<line x1="${middle}" y1="${TOP}" x2="${middle}" y2="${plotBottom}" stroke="${colour}" stroke-width="2"/>` +
      `<path d="M ${at(Number(middle) - 6)} ${TOP} h 12 l -6 9 z" fill="${colour}"/></g>`
    );
  });

  const dots = values.map(
    (value, i) =>
      `<circle cx="${at(x(i))}" cy="${at(y(value))}" r="3.5" fill="${COLOURS.dot}"><title>${html(`run ${i + 1} "${labels[i]}": ${figure(value)}`)}</title></circle>`,
  );

  const ends =
    `<text x="${LEFT}" y="${HEIGHT - 10}" font-size="11" fill="${COLOURS.text}">${html(`run 1 "${shorten(labels[0]!)}"`)}</text>` +
    (values.length > 1
      ? `<text x="${WIDTH - RIGHT}" y="${HEIGHT - 10}" text-anchor="end" font-size="11" fill="${COLOURS.text}">${html(`run ${values.length} "${shorten(labels[values.length - 1]!)}"`)}</text>`
      : '');

  return (
    `<svg class="history-chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%" style="display:block;max-width:${WIDTH}px" role="img" aria-label="${html(`${check.metric} of each run, oldest first, with ${points.length} change point${points.length === 1 ? '' : 's'} marked`)}">` +
    newestBand +
    grid.join('') +
    `<line x1="${LEFT}" y1="${TOP}" x2="${LEFT}" y2="${plotBottom}" stroke="${COLOURS.axis}"/>` +
    levels.join('') +
    rules.join('') +
    dots.join('') +
    ends +
    `</svg>`
  );
}

/** A label under the axis: long commit messages would run into each other. */
function shorten(label: string): string {
  return label.length > 40 ? `${label.slice(0, 39)}…` : label;
}

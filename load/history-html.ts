// history.html of `load history check`: the verdict, then per series each metric's chart and its
// change points. In the frame of the run reports (reports/html-page.ts: the same stylesheet and
// Content-Security-Policy). Every label, scenario, generator and note comes from a store file
// someone else may have written, and goes through html().
import { html } from '../reports/escape.ts';
import { htmlDocument } from '../reports/html-page.ts';
import { plural } from '../reports/format.ts';
import { kitIdentity } from '../reports/kit-identity.ts';
import { changeText, figure, historyChart } from './history-chart.ts';
import type { HistoryCheck, MetricCheck, SeriesCheck } from './history.ts';

export const HISTORY_HTML = 'history.html';

const PILLS: Record<MetricCheck['verdict'], { css: string; text: string }> = {
  worse: { css: 'fail', text: 'worse in the newest runs' },
  better: { css: 'pass', text: 'better in the newest runs' },
  earlier: { css: 'skip', text: 'earlier change only' },
  none: { css: 'skip', text: 'no change point' },
};

export function historyHeadline(check: HistoryCheck): string {
  const failed = check.series.filter((series) => series.regression).length;
  return check.regression
    ? `REGRESSION in the newest runs of ${failed} of ${check.series.length} series`
    : `no regression in the newest runs of ${check.series.length} series`;
}

/** What the check assumed, in one sentence: the method and its settings. */
export function methodText(check: HistoryCheck): string {
  const { settings } = check;
  return `a change accepted at p < ${settings.p_value} (${settings.permutations} permutations, seed ${settings.seed}), segments of at least ${settings.min_segment} runs; a change counts among the newest ${settings.newest} runs`;
}

function metricHtml(metric: MetricCheck, newest: number): string {
  const pill = PILLS[metric.verdict];
  const rows = metric.change_points.map(
    (point) =>
      `<tr><td class="num">${point.index + 1}</td><td class="text"><code>${html(point.label)}</code></td><td class="num">${html(figure(point.mean_before))}</td><td class="num">${html(figure(point.mean_after))}</td><td class="num">${html(changeText(point.relative_change))}</td><td class="num">${html(point.p_value)}</td></tr>`,
  );
  return (
    `<h3>${html(metric.metric)} <span class="muted">(${html(metric.better)} is better)</span> <span class="pill ${pill.css}">${html(pill.text)}</span></h3>` +
    `<p class="lead">${html(metric.reason)}</p>` +
    historyChart(metric, newest) +
    (rows.length > 0
      ? `<table><thead><tr><th class="num">run</th><th>label of the first run after</th><th class="num">before</th><th class="num">after</th><th class="num">change</th><th class="num">p</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
      : '')
  );
}

function seriesHtml(series: SeriesCheck, index: number, newest: number): string {
  const notes = series.notes.length > 0 ? `<ul class="notes">${series.notes.map((note) => `<li>${html(note)}</li>`).join('')}</ul>` : '';
  return (
    `<section id="series-${index + 1}"><h2>${html(`${series.scenario} · ${series.generator_kind}`)} <span class="pill ${series.regression ? 'fail' : 'pass'}">${series.regression ? 'regression' : 'no regression'}</span></h2>` +
    `<p class="lead">${html(`${plural(series.runs, 'run')} in the series, oldest first; each dot is one added run folder's median over its repeats. Hover for labels.`)}</p>` +
    notes +
    series.metrics.map((metric) => metricHtml(metric, newest)).join('') +
    `</section>`
  );
}

export function historyHtml(check: HistoryCheck, writtenAt: Date): string {
  return htmlDocument(
    {
      title: `${check.regression ? 'REGRESSION' : 'NO REGRESSION'}: Decision Service load history`,
      verdict: check.regression ? 'fail' : 'pass',
      eyebrow: 'Decision Service load history',
      headline: historyHeadline(check),
      facts: [
        { label: 'Store', value: `<code>${html(check.store)}</code>`, sub: html(`${check.entries} ${check.entries === 1 ? 'entry' : 'entries'} in all`) },
        { label: 'Series', value: html(check.series.length), sub: 'one per scenario and generator kind' },
        { label: 'Method', value: 'E-divisive means', sub: html(methodText(check)) },
        { label: 'Kit', value: `${html(kitIdentity.name)} ${html(kitIdentity.version)}` },
      ],
      sections: check.series.map((series, i) => [`series-${i + 1}`, `${series.scenario} · ${series.generator_kind}`] as [string, string]),
      main: check.series.map((series, i) => seriesHtml(series, i, check.settings.newest)).join('\n'),
    },
    `Written by ${html(kitIdentity.name)} ${html(kitIdentity.version)} at ${html(writtenAt.toISOString())}. For machines: <code>load history check --json</code>.`,
  );
}

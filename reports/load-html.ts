// report.html of a load run and of a cold-start run: the headline is the load verdict, and the
// page shows only what the run has (runs, checks by rule, latency, drift; or the spawns), none of
// the conformance run's sections.
import { html } from './escape.ts';
import { formatDuration, plural } from './format.ts';
import { htmlPage, specFact, startedText, type BannerFact } from './html-page.ts';
import type { ColdStartRunReport, LoadRunReport } from './load-report.ts';
import { coldStartHeadline, coldStartHtml, loadHeadline, loadSectionHtml, loadVerdict } from './load-section.ts';
import type { RunBasics } from './run-report.ts';

export function loadRunHtml(report: LoadRunReport): string {
  const { load, target } = report;
  const verdict = loadVerdict(load);
  const first = load.runs[0];
  const missed = load.runs.filter((run) => !run.passed).length;
  return htmlPage(report, {
    title: `${verdict === 'pass' ? 'THRESHOLDS HELD' : 'THRESHOLDS MISSED'}: Decision Service load ${load.scenario}, ${target.base_url}`,
    verdict,
    eyebrow: 'Decision Service load report',
    headline: loadHeadline(load),
    facts: [
      { label: 'Target', value: `<code>${html(target.base_url)}</code>`, sub: target.embedded ? "the kit's embedded reference server" : 'an external server' },
      { label: 'Scenario', value: html(load.scenario), ...(first ? { sub: html(first.description) } : {}) },
      {
        label: 'Runs',
        value: html(`${plural(load.runs.length, 'run')}, ${missed === 0 ? 'every threshold held' : `${missed} missed thresholds`}`),
        sub: html(`${load.runs.reduce((sum, run) => sum + run.requests, 0)} requests in all`),
      },
      ...(first
        ? [
            {
              label: 'Generator',
              value: html(`${first.generator.name} ${first.generator.version}`),
              sub: html(first.percentile_method ? `${first.percentile_method} percentiles` : 'percentile method not recorded'),
            },
          ]
        : []),
      { label: 'Capabilities claimed', value: html(target.capabilities.join(', ') || 'none'), sub: 'scenarios send nothing else' },
      ...sharedFacts(report),
    ],
    sections: [
      ['runs', 'Runs'],
      ['checks', 'Response checks'],
      ...(first ? [['latency', 'Latency'] as [string, string]] : []),
      ...(load.drift ? [['drift', 'Drift'] as [string, string]] : []),
    ],
    main: loadSectionHtml(load),
  });
}

export function coldStartRunHtml(report: ColdStartRunReport): string {
  const cold = report.cold_start;
  return htmlPage(report, {
    title: `${cold.within_allowance ? 'WITHIN ALLOWANCE' : 'ALLOWANCE EXCEEDED'}: Decision Service cold start, ${report.server.command}`,
    verdict: cold.within_allowance ? 'pass' : 'fail',
    eyebrow: 'Decision Service cold-start report',
    headline: coldStartHeadline(cold),
    facts: [
      {
        label: 'Server',
        value: `<code>${html(report.server.command)}</code>`,
        sub: html(`spawned ${plural(cold.runs, 'time')}, each with a fresh data folder`),
      },
      ...sharedFacts(report),
    ],
    sections: [['cold-start', 'Cold start']],
    main: coldStartHtml(cold),
  });
}

/** Spec, kit, start and duration: the facts every kind of run has. */
function sharedFacts(report: RunBasics): BannerFact[] {
  return [
    specFact(report),
    { label: 'Kit', value: `${html(report.kit.name)} ${html(report.kit.version)}` },
    { label: 'Started', value: html(startedText(report.started_at)) },
    { label: 'Duration', value: html(formatDuration(report.duration_ms)) },
  ];
}

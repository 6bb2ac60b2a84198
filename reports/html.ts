// report.html: one self-contained page for people. Inline CSS, one small inline script admitted
// by hash, an inline SVG chart; nothing is fetched, so it opens the same offline, from a CI
// artifact or an e-mail. Every string from the run goes through html(). Each kind of run has its
// own page: a conformance run's here, a load or cold-start run's in load-html.ts.
import { coverageSection } from './coverage-html.ts';
import { exchangeHeadline, shownEvidence } from './evidence.ts';
import { html } from './escape.ts';
import { formatDuration, formatMs, overlapText, plural, verdictHeadline } from './format.ts';
import { htmlPage, specFact, startedText } from './html-page.ts';
import { latencyChart } from './latency-chart.ts';
import { hasMeaningfulP99, P99_MIN_RESPONSES } from './latency.ts';
import { coldStartRunHtml, loadRunHtml } from './load-html.ts';
import {
  checksByArea,
  summarize,
  verdictOf,
  type CheckReport,
  type ConformanceRunReport,
  type EvidenceReport,
  type RunReport,
  type RunSummary,
} from './run-report.ts';

const STATUS_LABEL: Record<CheckReport['status'], string> = { pass: 'pass', fail: 'fail', skip: 'skipped', observed: 'observed' };

export function renderHtml(report: RunReport): string {
  switch (report.kind) {
    case 'conformance':
      return conformanceHtml(report);
    case 'load':
      return loadRunHtml(report);
    case 'cold-start':
      return coldStartRunHtml(report);
  }
}

function conformanceHtml(report: ConformanceRunReport): string {
  const verdict = verdictOf(report.summary);
  const failures = [
    ...report.checks.filter((c) => c.status === 'fail' && c.level === 'MUST'),
    ...report.checks.filter((c) => c.status === 'fail' && c.level !== 'MUST'),
  ];
  const observations = report.checks.filter((check) => check.level === 'OBSERVE');
  const skipped = report.checks.filter((check) => check.status === 'skip');
  const { target, warmup } = report;
  return htmlPage(report, {
    title: `${verdict === 'fail' ? 'FAILED' : verdict === 'warn' ? 'PASSED with warnings' : verdict === 'pass' ? 'PASSED' : 'NOTHING RAN'}: Decision Service conformance, ${target.base_url}`,
    verdict,
    eyebrow: 'Decision Service conformance report',
    headline: verdictHeadline(verdict, report.summary),
    facts: [
      { label: 'Target', value: `<code>${html(target.base_url)}</code>`, sub: target.embedded ? "the kit's embedded reference server" : 'an external server' },
      {
        label: 'Capabilities claimed',
        value: html(target.capabilities.join(', ') || 'none'),
        sub: target.second_key ? 'second project key given' : 'no second project key: isolation checks skipped',
      },
      specFact(report),
      { label: 'Kit', value: `${html(report.kit.name)} ${html(report.kit.version)}`, sub: `suites: ${html(report.suites.join(', ') || 'none')}` },
      { label: 'Started', value: html(startedText(report.started_at)), sub: `seed ${html(report.seed)}` },
      { label: 'Duration', value: html(formatDuration(report.duration_ms)), sub: `${html(plural(report.summary.total, 'check'))}` },
      {
        label: 'Warm-up',
        value: warmup.ok
          ? `ok in ${html(formatDuration(warmup.duration_ms))}`
          : `<strong class="bad-text">failed</strong> after ${html(formatDuration(warmup.duration_ms))}`,
        ...(warmup.message !== undefined ? { sub: html(warmup.message) } : {}),
      },
    ],
    sections: [
      ['summary', 'Summary'],
      ['areas', 'Areas'],
      ...(report.overlap_by_area ? [['overlap', 'Overlap'] as [string, string]] : []),
      ['failures', `Failures (${failures.length})`],
      ['open-points', `Open points (${observations.length})`],
      ['skipped', `Skipped (${skipped.length})`],
      ...(report.coverage ? [['coverage', 'Coverage'] as [string, string]] : []),
      ['latency', 'Latency'],
      ['all-checks', `All checks (${report.checks.length})`],
    ],
    main: `${summarySection(report.summary)}
${areasSection(report.checks)}
${overlapSection(report)}
${failuresSection(failures)}
${openPointsSection(report, observations)}
${skippedSection(skipped)}
${coverageSection(report.coverage)}
${latencySection(report)}
${allChecksSection(report.checks)}`,
  });
}

function summarySection(summary: RunSummary): string {
  const shouldFailed = summary.fail - summary.must_failed;
  // data-summary names the summary field each card shows, for people's scripts and the rendering test.
  const card = (kind: string, field: string, label: string, count: number, sub: string) =>
    `<div class="card ${kind}${count === 0 && !kind.startsWith('must') ? ' zero' : ''}" data-summary="${field}"><div class="label">${html(label)}</div><div class="count">${count}</div><div class="sub">${html(sub)}</div></div>`;
  return `<section id="summary">
<h2>Summary</h2>
<div class="cards">
${card(summary.must_failed > 0 ? 'must bad' : 'must good', 'must_failed', 'MUST failures', summary.must_failed, summary.must_failed > 0 ? 'hard requirements of the seed not met' : 'every hard requirement that ran is met')}
${card('should', 'should_failed', 'SHOULD failures', shouldFailed, 'strongly implied by the seed')}
${card('pass', 'pass', 'Passed', summary.pass, 'MUST and SHOULD checks')}
${card('observed', 'observed', 'Observed', summary.observed, 'open points, never failed')}
${card('skip', 'skip', 'Skipped', summary.skip, 'not applicable to this target')}
${card('total', 'total', 'Total', summary.total, 'checks in this run')}
</div>
${proportionBar(summary)}
</section>`;
}

function proportionBar(summary: RunSummary, small = false): string {
  if (summary.total === 0) return `<div class="bar${small ? ' small' : ''}"></div>`;
  const segments: Array<[string, number, string]> = [
    ['seg-must', summary.must_failed, 'MUST failed'],
    ['seg-should', summary.fail - summary.must_failed, 'SHOULD failed'],
    ['seg-pass', summary.pass, 'passed'],
    ['seg-observed', summary.observed, 'observed'],
    ['seg-skip', summary.skip, 'skipped'],
  ];
  const spans = segments
    .filter(([, count]) => count > 0)
    .map(([kind, count, label]) => `<span class="${kind}" style="width:${((count / summary.total) * 100).toFixed(2)}%" title="${count} ${label}"></span>`);
  return `<div class="bar${small ? ' small' : ''}" aria-hidden="true">${spans.join('')}</div>`;
}

function areasSection(checks: CheckReport[]): string {
  const rows = [...checksByArea(checks)].map(([area, inArea]) => {
    const s = summarize(inArea);
    const time = inArea.reduce((sum, check) => sum + check.duration_ms, 0);
    return `<tr><td><strong>${html(area)}</strong></td><td class="num">${s.total}</td><td class="num">${s.pass}</td><td class="num${s.must_failed > 0 ? ' bad' : ''}">${s.must_failed}</td><td class="num${s.fail - s.must_failed > 0 ? ' warn' : ''}">${s.fail - s.must_failed}</td><td class="num">${s.observed}</td><td class="num">${s.skip}</td><td class="num">${html(formatDuration(time))}</td><td>${proportionBar(s, true)}</td></tr>`;
  });
  return `<section id="areas">
<h2>Areas</h2>
<p class="lead">One row per area of the API (one file of checks each).</p>
<table>
<thead><tr><th>Area</th><th class="num">Checks</th><th class="num">Passed</th><th class="num">MUST failed</th><th class="num">SHOULD failed</th><th class="num">Observed</th><th class="num">Skipped</th><th class="num">Time</th><th>Outcome</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
</section>`;
}

/** For the checks that send requests together: how many were in flight, and answered, together. */
function overlapSection(report: ConformanceRunReport): string {
  const areas = Object.entries(report.overlap_by_area ?? {});
  if (areas.length === 0) return '';
  const rows = report.checks
    .filter((check) => check.overlap !== undefined)
    .map((check) => {
      const overlap = check.overlap!;
      return `<tr><td><span class="pill ${check.status}">${STATUS_LABEL[check.status]}</span></td><td class="nowrap"><code>${html(check.id)}</code></td><td class="nowrap">${html(check.area)}</td><td class="num">${overlap.target}</td><td class="num">${overlap.max_in_flight}</td><td class="num">${overlap.answered_together}</td><td>${overlap.achieved ? 'yes' : '<strong>no overlap achieved</strong>'}</td></tr>`;
    });
  return `<section id="overlap">
<h2>Overlap</h2>
<p class="lead">${areas.map(([area, overlap]) => `Area <strong>${html(area)}</strong>: ${html(overlapText(overlap))}.`).join(' ')} In flight: requests sent and not yet answered at one instant. Answered together: answers closer together than a server handling one request at a time can give them. A check whose rule held without overlap is skipped: it saw the rule hold for requests handled one by one only.</p>
<table>
<thead><tr><th>Status</th><th>Check</th><th>Area</th><th class="num">Target</th><th class="num">In flight</th><th class="num">Answered together</th><th>Overlap</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
</section>`;
}

function failuresSection(failures: CheckReport[]): string {
  const body = failures.length === 0 ? '<p class="empty">No check failed.</p>' : failures.map(failureCard).join('\n');
  return `<section id="failures">
<h2>Failures</h2>
<p class="lead">MUST failures first. Each shows what the seed requires and what the server did, the last requests and responses (keys redacted), and a curl line to reproduce it: run it from this report's folder (uploads send <code>bodies/&lt;sha256&gt;.bin</code>, or read <code>bodies/&lt;sha256&gt;.bin.gz</code> through <code>gzip -dc</code> from 1 MiB) with <code>$DECISION_API_KEY</code> set, and <code>$DECISION_API_KEY_B</code> or <code>$DECISION_EXPIRY_API_KEY</code> where a line names them.</p>
${body}
</section>`;
}

function failureCard(check: CheckReport): string {
  const { exchanges, omitted } = shownEvidence(check);
  const notes = check.notes.length > 0 ? `<ul class="notes">${check.notes.map((note) => `<li>${html(note)}</li>`).join('')}</ul>` : '';
  return `<article class="failure ${html(check.level)}">
<header><span class="level ${html(check.level)}">${html(check.level)}</span><code>${html(check.id)}</code><span>area ${html(check.area)}</span><span>seed § ${html(check.seed_sections.join(', '))}</span><span>${html(formatDuration(check.duration_ms))}</span></header>
<h3>${html(check.title)}</h3>
<p class="message">${html(check.message ?? 'Failed without a message.')}</p>
${notes}
${omitted > 0 ? `<p class="omitted">${html(plural(omitted, 'earlier exchange'))} left out; results.json has them all.</p>` : ''}
${exchanges.map((exchange, i) => exchangeBlock(exchange, i === exchanges.length - 1)).join('\n')}
${exchanges.length === 0 ? '<p class="omitted">This check made no request.</p>' : ''}
</article>`;
}

/** One exchange; only the last (the one a check usually fails on) starts open. */
function exchangeBlock(exchange: EvidenceReport, open: boolean): string {
  const { request, response } = exchange;
  const status = response
    ? `<span class="status ${response.status < 400 ? 'ok' : 'bad'}">${response.status}</span>`
    : '<span class="status bad">no response</span>';
  const requestText = httpMessageText(`${request.method} ${request.url}`, request.headers, request.body ?? '');
  const responseText = response ? httpMessageText(String(response.status), response.headers, response.body) : undefined;
  return `<details class="exchange"${open ? ' open' : ''}>
<summary class="exchange-head" title="${html(exchangeHeadline(exchange))}">${html(request.method)} ${html(request.url)} → ${status} · ${html(formatMs(exchange.duration_ms))}${exchange.operation_id !== undefined ? ` · ${html(exchange.operation_id)}` : ''}</summary>
<div class="panes">
<div class="pane"><h4>Request</h4><pre>${html(requestText)}</pre></div>
<div class="pane"><h4>Response</h4>${responseText !== undefined ? `<pre>${html(responseText)}</pre>` : '<p class="empty">No response.</p>'}</div>
</div>
${exchange.transport_error !== undefined ? `<p class="transport">Transport error: ${html(exchange.transport_error)}</p>` : ''}
<div class="reproduce"><h4>Reproduce</h4><pre class="curl">${html(exchange.curl)}</pre></div>
</details>`;
}

/** A start line, header lines, a blank line and the body: an HTTP message as people read one. */
function httpMessageText(startLine: string, headers: Record<string, string>, body: string): string {
  const lines = [startLine, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  if (body !== '') lines.push('', body);
  return lines.join('\n');
}

function openPointsSection(report: ConformanceRunReport, observations: CheckReport[]): string {
  const openPoints = new Map(report.open_points.map((point) => [point.id, point]));
  const rows = observations.map((check) => {
    const point = check.open_point !== undefined ? openPoints.get(check.open_point) : undefined;
    const reference = check.observation?.reference ?? point?.reference_choice;
    const observed =
      check.status === 'skip'
        ? `<span class="muted">Not observed: ${html(check.message ?? 'skipped')}</span>`
        : html(check.observation?.summary ?? check.message ?? 'nothing observed');
    const matches = check.observation?.matches_reference;
    const verdict =
      matches === true
        ? '<span class="pill yes">matches</span>'
        : matches === false
          ? '<span class="pill no">differs</span>'
          : '<span class="pill unknown">not judged</span>';
    return `<tr><td class="text"><code>${html(check.id)}</code><div class="muted">${html(check.title)}</div></td><td class="text">${check.open_point !== undefined ? `<code>${html(check.open_point)}</code>` : '<span class="muted">none named</span>'}${point ? `<div class="muted">§ ${html(point.seed_section)}: ${html(point.open)}</div>` : ''}</td><td class="text">${observed}</td><td class="text">${reference !== undefined ? html(reference) : '<span class="muted">none recorded</span>'}</td><td class="nowrap">${verdict}</td></tr>`;
  });
  const body =
    rows.length === 0
      ? '<p class="empty">No OBSERVE check ran.</p>'
      : `<table>
<thead><tr><th style="width:22%">Check</th><th style="width:24%">Open point</th><th style="width:22%">What this server does</th><th style="width:22%">Reference server's choice</th><th>Same?</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`;
  return `<section id="open-points">
<h2>Open points</h2>
<p class="lead">Where the seed says "not shown", the kit reports what the server does beside what the bundled reference server chose. These never fail a run.</p>
${body}
</section>`;
}

function skippedSection(skipped: CheckReport[]): string {
  const body =
    skipped.length === 0
      ? '<p class="empty">No check was skipped.</p>'
      : `<table>
<thead><tr><th>Check</th><th>Level</th><th>Title</th><th>Reason</th></tr></thead>
<tbody>
${skipped.map((check) => `<tr><td class="nowrap"><code>${html(check.id)}</code></td><td><span class="level ${html(check.level)}">${html(check.level)}</span></td><td class="text">${html(check.title)}</td><td class="text">${html(check.message ?? 'no reason given')}</td></tr>`).join('\n')}
</tbody>
</table>`;
  return `<section id="skipped">
<h2>Skipped</h2>
<p class="lead">Checks that could not run against this target, with the reason.</p>
${body}
</section>`;
}

function latencySection(report: ConformanceRunReport): string {
  const operations = Object.entries(report.latency);
  const body =
    operations.length === 0
      ? '<p class="empty">No response was timed in this run.</p>'
      : `${latencyChart(report.latency)}
<table>
<thead><tr><th>Operation</th><th class="num">Responses</th><th class="num">p50</th><th class="num">p90</th><th class="num">p99</th><th class="num">max</th></tr></thead>
<tbody>
${operations.map(([operationId, stats]) => `<tr><td><code>${html(operationId)}</code></td><td class="num">${stats.count}</td><td class="num">${html(formatMs(stats.p50_ms))}</td><td class="num">${html(formatMs(stats.p90_ms))}</td><td class="num">${hasMeaningfulP99(stats) ? html(formatMs(stats.p99_ms)) : `<span class="muted" title="fewer than ${P99_MIN_RESPONSES} responses: the p99 would be the max">–</span>`}</td><td class="num">${html(formatMs(stats.max_ms))}</td></tr>`).join('\n')}
</tbody>
</table>`;
  return `<section id="latency">
<h2>Latency per operation</h2>
<p class="lead">Every response the checks received, by operation (transport errors left out). Conformance requests are few and varied: read these as a sanity check, not a benchmark.</p>
${body}
</section>`;
}

function allChecksSection(checks: CheckReport[]): string {
  const rows = checks.map(
    (check) =>
      `<tr><td><span class="pill ${check.status}">${STATUS_LABEL[check.status]}</span></td><td><span class="level ${html(check.level)}">${html(check.level)}</span></td><td class="nowrap"><code>${html(check.id)}</code></td><td class="text">${html(check.title)}</td><td class="nowrap">${html(check.area)}</td><td class="muted nowrap">${html(check.seed_sections.join(', '))}</td><td class="num">${html(formatDuration(check.duration_ms))}</td></tr>`,
  );
  return `<section id="all-checks">
<details open>
<summary>All ${plural(checks.length, 'check')}, in the order they ran</summary>
<table>
<thead><tr><th>Status</th><th>Level</th><th>Check</th><th>Title</th><th>Area</th><th>Seed §</th><th class="num">Time</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
</details>
</section>`;
}

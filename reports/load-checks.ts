// The response checks of a load run in the reports: how much was validated, refusals of
// open-point shapes (counted apart, never errors), and every failed check by its rule with one
// example exchange, so a failure under load reads like a conformance failure.
import { html, markdownCode, markdownInline } from './escape.ts';
import type { LoadCheck, LoadSection } from './load-run.ts';

export interface LoadCheckOverRuns {
  name: string;
  rule?: string;
  fails: number;
  judged: number;
  example?: LoadCheck['example'];
}

/** Every check over every run of the section, in the order the runs name them, the first example of a failure kept. */
export function loadChecksOverRuns(load: LoadSection): LoadCheckOverRuns[] {
  const byName = new Map<string, LoadCheckOverRuns>();
  for (const check of load.runs.flatMap((run) => run.checks)) {
    const entry = byName.get(check.name) ?? { name: check.name, ...(check.rule ? { rule: check.rule } : {}), fails: 0, judged: 0 };
    entry.fails += check.fails;
    entry.judged += check.passes + check.fails;
    if (!entry.example && check.example) entry.example = check.example;
    byName.set(check.name, entry);
  }
  return [...byName.values()];
}

/** Failed checks over every run of the section, the first example kept, most failures first. */
export function failedLoadChecks(load: LoadSection): LoadCheckOverRuns[] {
  return loadChecksOverRuns(load)
    .filter((entry) => entry.fails > 0)
    .sort((a, b) => b.fails - a.fails);
}

/** "every response validated", or the stated sample; undefined for runs written before validation existed. */
export function validationLine(load: LoadSection): string | undefined {
  const runs = load.runs.filter((run) => run.validation);
  if (runs.length === 0) return undefined;
  const validated = runs.reduce((sum, run) => sum + run.validation!.validated, 0);
  const requests = runs.reduce((sum, run) => sum + run.requests, 0);
  const every = Math.max(...runs.map((run) => run.validation!.every));
  const scope = every === 1 ? 'every response' : `every ${every}th response of each generator (VALIDATE_EVERY)`;
  return `Body and answers validated on ${scope}: ${validated} of ${requests} responses, against the contract form of the spec and the answer rules of the conformance suite; status and X-Request-ID on all.`;
}

/** Refusals of open-point shapes over every run, e.g. "feedback-shape: 12 requests refused". */
export function refusalLine(load: LoadSection): string | undefined {
  const totals = new Map<string, number>();
  for (const run of load.runs)
    for (const [openPoint, count] of Object.entries(run.open_point_refusals ?? {})) totals.set(openPoint, (totals.get(openPoint) ?? 0) + count);
  if (totals.size === 0) return undefined;
  return `Refused by the server on an open point (not errors, not failed checks): ${[...totals].map(([openPoint, count]) => `${openPoint} ${count} request${count === 1 ? '' : 's'}`).join(', ')}.`;
}

export function loadChecksHtml(load: LoadSection): string {
  const failed = failedLoadChecks(load);
  const notes = [validationLine(load), refusalLine(load)].filter((line): line is string => line !== undefined).map((line) => `<p>${html(line)}</p>`);
  const items = failed.map((check) => {
    const example = check.example
      ? `<dl class="load-example"><dt>request</dt><dd><code>${html(check.example.request)}</code></dd><dt>status</dt><dd>${check.example.status}</dd><dt>expected</dt><dd>${html(check.example.expected)}</dd><dt>observed</dt><dd>${html(check.example.observed)}</dd><dt>body</dt><dd><pre>${html(check.example.body_excerpt)}</pre></dd></dl>`
      : '<p class="empty">No example exchange was recorded (standalone k6 writes examples to its log only).</p>';
    return `<li><strong><code>${html(check.name)}</code></strong> failed ${check.fails} of ${check.judged}${check.rule ? ` — ${html(check.rule)}` : ''}${example}</li>`;
  });
  const list = failed.length > 0 ? `<h3>Failed checks by rule</h3><ul class="load-failed-checks">${items.join('\n')}</ul>` : '';
  return `${notes.join('\n')}${list}${checksTable(load)}`;
}

/** Every check of the runs with its rule, held and failed counts: what was judged, not only what failed. */
function checksTable(load: LoadSection): string {
  const checks = loadChecksOverRuns(load);
  if (checks.length === 0) return '<p class="empty">The runs judged no response.</p>';
  const rows = checks.map(
    (check) =>
      `<tr><td><span class="pill ${check.fails > 0 ? 'fail' : 'pass'}">${check.fails > 0 ? 'failed' : 'held'}</span></td><td class="nowrap"><code>${html(check.name)}</code></td><td class="text">${check.rule !== undefined ? html(check.rule) : '<span class="muted">no rule recorded</span>'}</td><td class="num">${check.judged - check.fails}</td><td class="num${check.fails > 0 ? ' bad' : ''}">${check.fails}</td></tr>`,
  );
  return `<h3>Checks by rule (all runs)</h3>
<table>
<thead><tr><th>Outcome</th><th>Check</th><th>Rule</th><th class="num">Held</th><th class="num">Failed</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`;
}

export function loadChecksMarkdown(load: LoadSection): string[] {
  const lines = [validationLine(load), refusalLine(load)].filter((line): line is string => line !== undefined).flatMap((line) => ['', markdownInline(line)]);
  const failed = failedLoadChecks(load);
  if (failed.length === 0) return lines;
  lines.push('', '**Failed checks by rule**', '');
  for (const check of failed) {
    const example = check.example
      ? ` — e.g. ${markdownCode(check.example.request)} → ${check.example.status}: expected ${markdownInline(check.example.expected)}; observed ${markdownInline(check.example.observed)}`
      : '';
    lines.push(`- ${markdownCode(check.name)} failed ${check.fails} of ${check.judged}${check.rule ? ` (${markdownInline(check.rule)})` : ''}${example}`);
  }
  return lines;
}

// The Coverage section of report.html: what the coverage phase tried of the request space the
// spec defines, one block per operation, with the keywords it never tried in red. Pointers,
// values, codes and reasons come from the spec and from the server's answers: every string goes
// through html(), numbers too, since a report may be rendered again from a results.json on disk.
import {
  untriedKeywords,
  type CoverageReport,
  type DimensionCoverage,
  type KeywordCoverage,
  type ResponseCoverage,
  type UntestableEntry,
} from '../harness/coverage.ts';
import { html } from './escape.ts';
import { coverageText } from './format.ts';

/** The section, or nothing when the run has no coverage (the phase did not run). */
export function coverageSection(coverage: CoverageReport | undefined): string {
  if (!coverage) return '';
  // untriedKeywords filters coverage.keywords itself, so its entries are the very objects rendered below.
  const untried = new Set(untriedKeywords(coverage));
  const blocks = operationsOf(coverage).map((operation) =>
    operationBlock(
      operation,
      coverage.keywords.filter((entry) => entry.operation === operation),
      coverage.dimensions.filter((entry) => entry.operation === operation),
      coverage.responses.filter((entry) => entry.operation === operation),
      untried,
    ),
  );
  return `<section id="coverage">
<h2>Coverage</h2>
<p class="lead">${html(coverageText(coverage))}. A request keyword is marked <strong>untried</strong>, in red, when no case sent broke it and the phase did not list it untestable; a status the server answered that the spec does not document for the operation is marked <strong>not documented</strong>.</p>
${blocks.length === 0 ? '<p class="empty">The coverage phase recorded no operation.</p>' : blocks.join('\n')}
${untestableBlock(coverage.untestable)}
</section>`;
}

/** Operations in the order the phase listed them, keywords first. */
function operationsOf(coverage: CoverageReport): string[] {
  return [...new Set([...coverage.keywords, ...coverage.dimensions, ...coverage.responses].map((entry) => entry.operation))];
}

function operationBlock(
  operation: string,
  keywords: KeywordCoverage[],
  dimensions: DimensionCoverage[],
  responses: ResponseCoverage[],
  untried: ReadonlySet<KeywordCoverage>,
): string {
  return `<div class="coverage-operation">
<h3><code>${html(operation)}</code></h3>
${keywords.length > 0 ? keywordTable(keywords, untried) : ''}
${dimensions.length > 0 ? dimensionTable(dimensions) : ''}
${responses.map(responseBlock).join('\n')}
</div>`;
}

function keywordTable(keywords: KeywordCoverage[], untried: ReadonlySet<KeywordCoverage>): string {
  const rows = keywords.map((entry) => {
    const isUntried = untried.has(entry);
    // Without a negative case and not untried, the keyword is excused: the untestable list below says why.
    const note = isUntried ? '<strong class="untried-mark">untried</strong>' : entry.negative === 0 ? '<span class="muted">untestable</span>' : '';
    return `<tr${isUntried ? ' class="untried"' : ''}><td class="nowrap">${html(entry.location)}</td><td class="text"><code>${html(entry.pointer)}</code></td><td class="nowrap"><code>${html(entry.keyword)}</code></td><td class="num">${html(entry.positive)}</td><td class="num">${html(entry.negative)}</td><td class="nowrap">${note}</td></tr>`;
  });
  return `<h4>Request keywords</h4>
<table>
<thead><tr><th>Location</th><th>Pointer</th><th>Keyword</th><th class="num">Positive</th><th class="num">Negative</th><th>Note</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`;
}

function dimensionTable(dimensions: DimensionCoverage[]): string {
  const rows = dimensions.map(
    (entry) =>
      `<tr><td class="nowrap">${html(entry.dimension)}</td><td class="num">${html(entry.count)}</td><td class="text">${entry.values.map((value) => `<code>${html(value)}</code>`).join(', ') || '<span class="muted">none</span>'}</td></tr>`,
  );
  return `<h4>HTTP dimensions</h4>
<table>
<thead><tr><th>Dimension</th><th class="num">Cases</th><th>Values tried</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`;
}

/** The statuses observed beside the documented ones: an observed status the spec does not document is marked. */
function responseBlock(entry: ResponseCoverage): string {
  const documented = new Set(entry.documented_statuses);
  const observed = new Set(entry.observed.map((response) => response.status));
  const neverSeen = entry.documented_statuses.filter((status) => !observed.has(status));
  const rows = entry.observed.map((response) => {
    const isDocumented = documented.has(response.status);
    return `<tr${isDocumented ? '' : ' class="undocumented"'}><td class="num">${html(response.status)}</td><td class="nowrap">${response.code !== undefined ? `<code>${html(response.code)}</code>` : '<span class="muted">none</span>'}</td><td class="num">${html(response.count)}</td><td class="nowrap">${isDocumented ? 'yes' : '<strong class="undocumented-mark">not documented</strong>'}</td></tr>`;
  });
  const statuses = (list: number[]) => list.map((status) => html(status)).join(', ') || 'none';
  return `<h4>Responses</h4>
<p class="coverage-documented">Documented: ${statuses(entry.documented_statuses)}${neverSeen.length > 0 ? `; never observed: ${statuses(neverSeen)}` : ''}.</p>
${
  rows.length === 0
    ? '<p class="empty">No response observed.</p>'
    : `<table>
<thead><tr><th class="num">Status</th><th>Code</th><th class="num">Responses</th><th>Documented</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`
}`;
}

function untestableBlock(untestable: UntestableEntry[]): string {
  const body =
    untestable.length === 0
      ? '<p class="empty">Nothing was listed untestable.</p>'
      : `<table>
<thead><tr><th>Operation</th><th>What</th><th>Reason</th></tr></thead>
<tbody>
${untestable.map((entry) => `<tr><td class="nowrap"><code>${html(entry.operation)}</code></td><td class="text"><code>${html(entry.what)}</code></td><td class="text">${html(entry.reason)}</td></tr>`).join('\n')}
</tbody>
</table>`;
  return `<h3>Untestable</h3>
${body}`;
}

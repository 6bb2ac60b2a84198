// summary.md: a short Markdown summary for CI job pages (GitHub's step summary, GitLab's MR
// widgets): the outcome, the counts, and the failing MUST checks in one line each. It stays
// under 60 lines whatever the run, and points to report.html for the rest.
import { markdownCode, markdownInline } from './escape.ts';
import { coverageText, firstLine, formatDuration, overlapText, shortSha, verdictHeadline } from './format.ts';
import type { ColdStartRunReport, LoadRunReport } from './load-report.ts';
import { coldStartHeadline, coldStartMarkdown, loadHeadline, loadMarkdown, loadVerdict } from './load-section.ts';
import { verdictOf, type CheckReport, type ConformanceRunReport, type RunBasics, type RunReport, type Verdict } from './run-report.ts';

const MUST_LISTED = 20;
const SHOULD_LISTED = 8;

const VERDICT_MARK: Record<Verdict, string> = { fail: '❌', warn: '⚠️', pass: '✅', empty: '⚪' };

export function renderMarkdown(report: RunReport): string {
  switch (report.kind) {
    case 'conformance':
      return conformanceMarkdown(report);
    case 'load':
      return loadRunMarkdown(report);
    case 'cold-start':
      return coldStartRunMarkdown(report);
  }
}

function conformanceMarkdown(report: ConformanceRunReport): string {
  const { summary, warmup } = report;
  const verdict = verdictOf(summary);
  const shouldFailed = summary.fail - summary.must_failed;
  const observed = report.checks.filter((check) => check.status === 'observed');
  const matching = observed.filter((check) => check.observation?.matches_reference === true).length;
  const lines = [
    `## ${VERDICT_MARK[verdict]} Decision Service conformance: ${markdownInline(verdictHeadline(verdict, summary))}`,
    '',
    [
      `Target ${markdownCode(report.target.base_url)}${report.target.embedded ? " (the kit's embedded reference server)" : ''}`,
      `spec ${markdownInline(report.spec.version)} (${markdownCode(shortSha(report.spec.sha256))})`,
      `kit ${markdownInline(`${report.kit.name} ${report.kit.version}`)}`,
      `seed ${report.seed}`,
      `ran in ${formatDuration(report.duration_ms)}`,
      ...(report.workers
        ? [
            `${report.workers.limit} workers (up to ${report.workers.most_in_flight} requests in flight${report.workers.rate_limit_pauses > 0 ? `; ${report.workers.rate_limit_pauses} pauses after 429, ${formatDuration(report.workers.rate_limit_paused_ms)} in all` : ''})`,
          ]
        : []),
      warmup.ok ? `warm-up ok in ${formatDuration(warmup.duration_ms)}` : `**warm-up failed** after ${formatDuration(warmup.duration_ms)}`,
    ].join(' · '),
    ...(!warmup.ok && warmup.message !== undefined ? ['', `> Warm-up: ${markdownInline(firstLine(warmup.message, 300))}`] : []),
    '',
    '| Outcome | Checks |',
    '| --- | ---: |',
    `| MUST failed | ${summary.must_failed > 0 ? `**${summary.must_failed}**` : '0'} |`,
    `| SHOULD failed | ${shouldFailed} |`,
    `| Passed | ${summary.pass} |`,
    `| Observed (open points) | ${summary.observed}${summary.observed > 0 ? ` (${matching} as the reference server)` : ''} |`,
    `| Skipped | ${summary.skip} |`,
    `| **Total** | **${summary.total}** |`,
    ...ruleLines(report),
    ...overlapLines(report),
    ...coverageLines(report),
    ...failureList(
      'Failing MUST checks',
      report.checks.filter((check) => check.status === 'fail' && check.level === 'MUST'),
      MUST_LISTED,
    ),
    ...failureList(
      'Failing SHOULD checks',
      report.checks.filter((check) => check.status === 'fail' && check.level !== 'MUST'),
      SHOULD_LISTED,
    ),
    '',
    'Details, evidence and curl lines: `report.html`. For machines: `results.json`, `junit.xml`.',
  ];
  return `${lines.join('\n')}\n`;
}

function loadRunMarkdown(report: LoadRunReport): string {
  const { load, target } = report;
  const lines = [
    `## ${VERDICT_MARK[loadVerdict(load)]} Decision Service ${markdownInline(loadHeadline(load))}`,
    '',
    [
      `Target ${markdownCode(target.base_url)}${target.embedded ? " (the kit's embedded reference server)" : ''}`,
      `capabilities ${markdownInline(target.capabilities.join(',') || 'none')}`,
      ...runFacts(report),
    ].join(' · '),
    '',
    ...loadMarkdown(load),
    '',
    'Runs, checks by rule, latency over time and drift: `report.html`. For machines: `results.json`, `junit.xml`.',
  ];
  return `${lines.join('\n')}\n`;
}

function coldStartRunMarkdown(report: ColdStartRunReport): string {
  const cold = report.cold_start;
  const lines = [
    `## ${VERDICT_MARK[cold.within_allowance ? 'pass' : 'fail']} Decision Service ${markdownInline(coldStartHeadline(cold))}`,
    '',
    [`Server ${markdownCode(report.server.command)}`, ...runFacts(report)].join(' · '),
    '',
    ...coldStartMarkdown(cold),
    '',
    'Every spawn: `report.html`. For machines: `results.json`, `junit.xml`.',
  ];
  return `${lines.join('\n')}\n`;
}

/** Spec, kit and duration, as the conformance summary says them. */
function runFacts(report: RunBasics): string[] {
  return [
    `spec ${markdownInline(report.spec.version)} (${markdownCode(shortSha(report.spec.sha256))})`,
    `kit ${markdownInline(`${report.kit.name} ${report.kit.version}`)}`,
    `ran in ${formatDuration(report.duration_ms)}`,
  ];
}

/** The response rules, counted among the checks above: how many exchanges they judged and how many rules broke. */
function ruleLines(report: ConformanceRunReport): string[] {
  const rules = report.checks.filter((check) => check.rule !== undefined);
  if (rules.length === 0) return [];
  const judged = Math.max(...rules.map((rule) => rule.rule!.judged));
  const broken = rules.filter((rule) => rule.status === 'fail').map((rule) => markdownCode(rule.id));
  return [
    '',
    `Response rules (counted above, area ${markdownCode('response-rules')}): ${rules.length} rules judged every response of the run (up to ${judged} exchanges each); ${broken.length === 0 ? 'none broken' : `broken: ${broken.join(', ')}`}.`,
  ];
}

/** One line per area whose checks sent requests together: how much they overlapped. */
function overlapLines(report: ConformanceRunReport): string[] {
  const areas = Object.entries(report.overlap_by_area ?? {});
  if (areas.length === 0) return [];
  return ['', ...areas.map(([area, overlap]) => `Overlap in ${markdownCode(area)}: ${markdownInline(overlapText(overlap))}.`)];
}

/** One line on what the coverage phase tried, when it ran; report.html has it per operation. */
function coverageLines(report: ConformanceRunReport): string[] {
  if (!report.coverage) return [];
  return ['', `Coverage: ${markdownInline(coverageText(report.coverage))}.`];
}

function failureList(heading: string, failures: CheckReport[], limit: number): string[] {
  if (failures.length === 0) return [];
  const listed = failures
    .slice(0, limit)
    .map((check) => `- ${markdownCode(check.id)} (${markdownInline(check.area)}): ${markdownInline(firstLine(check.message ?? 'failed without a message'))}`);
  const more = failures.length > limit ? [`- … and ${failures.length - limit} more in \`report.html\``] : [];
  return ['', `### ${heading} (${failures.length})`, '', ...listed, ...more];
}

// junit.xml: one <testsuite> per area, one <testcase> per check, in the dialect CI servers share
// (Jenkins, GitLab, GitHub test reporters). A check's level travels in the failure message and
// type and in the test case's properties, since the name is fixed to `${id} ${title}`.
import { exchangeAsText, exchangeHeadline, shownEvidence } from './evidence.ts';
import { xmlAttr, xmlText } from './escape.ts';
import { coldStartJunit, loadJunit, type JunitSuite } from './load-section.ts';
import { checksByArea, summarize, type CheckReport, type ConformanceRunReport, type RunReport } from './run-report.ts';

export function renderJunit(report: RunReport): string {
  switch (report.kind) {
    case 'conformance':
      return conformanceJunit(report);
    case 'load':
      return junitDocument(
        report,
        `${report.kit.name} ${report.kit.version} load ${report.load.scenario} against ${report.target.base_url}`,
        loadJunit(report.load),
      );
    case 'cold-start':
      return junitDocument(report, `${report.kit.name} ${report.kit.version} cold start of ${report.server.command}`, coldStartJunit(report.cold_start));
  }
}

function conformanceJunit(report: ConformanceRunReport): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    element('testsuites', {
      name: `${report.kit.name} ${report.kit.version} against ${report.target.base_url}`,
      tests: report.summary.total,
      failures: report.summary.fail,
      errors: 0,
      skipped: report.summary.skip,
      time: seconds(report.duration_ms),
      timestamp: report.started_at,
    }),
  ];
  for (const [area, checks] of checksByArea(report.checks)) lines.push(...testsuite(report, area, checks));
  lines.push('</testsuites>', '');
  return lines.join('\n');
}

/** A load or cold-start run: its one test suite, with the suite's counts on the root element too. */
function junitDocument(report: RunReport, name: string, suite: JunitSuite): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    element('testsuites', {
      name,
      tests: suite.tests,
      failures: suite.failures,
      errors: 0,
      skipped: suite.skipped ?? 0,
      time: seconds(report.duration_ms),
      timestamp: report.started_at,
    }),
    ...suite.lines,
    '</testsuites>',
    '',
  ].join('\n');
}

function testsuite(report: ConformanceRunReport, area: string, checks: CheckReport[]): string[] {
  const summary = summarize(checks);
  return [
    `  ${element('testsuite', {
      name: area,
      tests: summary.total,
      failures: summary.fail,
      errors: 0,
      skipped: summary.skip,
      time: seconds(checks.reduce((sum, check) => sum + check.duration_ms, 0)),
      timestamp: report.started_at,
    })}`,
    '    <properties>',
    ...runProperties(report).map(([name, value]) => `      ${element('property', { name, value }, true)}`),
    '    </properties>',
    ...checks.flatMap(testcase),
    '  </testsuite>',
  ];
}

function runProperties(report: ConformanceRunReport): Array<[string, string]> {
  return [
    ['kit.version', report.kit.version],
    ['spec.version', report.spec.version],
    ['spec.sha256', report.spec.sha256],
    ['target.base_url', report.target.base_url],
    ['target.embedded', String(report.target.embedded)],
    ['target.capabilities', report.target.capabilities.join(',')],
    ['seed', String(report.seed)],
  ];
}

function testcase(check: CheckReport): string[] {
  const properties: Array<[string, string]> = [
    ['level', check.level],
    ['seed_sections', check.seed_sections.join(',')],
    ...(check.open_point !== undefined ? [['open_point', check.open_point] as [string, string]] : []),
  ];
  const body = [
    '      <properties>',
    ...properties.map(([name, value]) => `        ${element('property', { name, value }, true)}`),
    '      </properties>',
    ...outcome(check),
  ];
  const notes =
    check.notes.length > 0 && check.status !== 'fail' && check.status !== 'observed' ? [`      <system-out>${xmlText(notesText(check))}</system-out>`] : [];
  return [
    `    ${element('testcase', { classname: check.area, name: `${check.id} ${check.title}`, time: seconds(check.duration_ms) })}`,
    ...body,
    ...notes,
    '    </testcase>',
  ];
}

function outcome(check: CheckReport): string[] {
  switch (check.status) {
    case 'fail': {
      const message = `${check.level}: ${check.message ?? 'failed without a message'}`;
      return [`      ${element('failure', { message, type: `${check.level} check failed` })}${xmlText(failureText(check, message))}</failure>`];
    }
    case 'skip':
      return [`      ${element('skipped', { message: check.message ?? 'skipped' }, true)}`];
    case 'observed':
      return [`      <system-out>${xmlText(observationText(check))}</system-out>`];
    case 'pass':
      return [];
  }
}

/** The failure body: what a person needs to reproduce it without opening another file. */
function failureText(check: CheckReport, message: string): string {
  const parts = [message, `Seed sections: ${check.seed_sections.join(', ')}`];
  if (check.notes.length > 0) parts.push(notesText(check));
  const { exchanges, omitted } = shownEvidence(check);
  if (omitted > 0) parts.push(`(${omitted} earlier exchanges left out; results.json has them all)`);
  exchanges.forEach((exchange, i) => {
    parts.push(`Evidence ${i + 1}: ${exchangeHeadline(exchange)}`, exchangeAsText(exchange), `Reproduce:\n${exchange.curl}`);
  });
  return `\n${parts.join('\n\n')}\n`;
}

function observationText(check: CheckReport): string {
  const observation = check.observation;
  const lines = [`Open point: ${check.open_point ?? '(none named)'}`];
  lines.push(`Observed: ${observation?.summary ?? check.message ?? 'nothing observed'}`);
  if (observation?.reference !== undefined) lines.push(`Reference choice: ${observation.reference}`);
  if (observation?.matches_reference !== undefined) lines.push(`Matches the reference: ${observation.matches_reference ? 'yes' : 'no'}`);
  if (check.notes.length > 0) lines.push(notesText(check));
  return lines.join('\n');
}

function notesText(check: CheckReport): string {
  return ['Notes:', ...check.notes.map((note) => `- ${note}`)].join('\n');
}

function element(name: string, attributes: Record<string, string | number>, selfClosing = false): string {
  const rendered = Object.entries(attributes)
    .map(([key, value]) => ` ${key}="${xmlAttr(String(value))}"`)
    .join('');
  return `<${name}${rendered}${selfClosing ? '/>' : '>'}`;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

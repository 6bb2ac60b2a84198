// The coverage phase's figures, through the run model to every file: copied into results.json only
// when the phase ran and valid against results.schema.json, shown per operation in report.html
// with what was never tried in red (and said in words), and summed up in one line of summary.md.
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { CoverageReport } from '../../harness/coverage.ts';
import { REPORT_STYLE } from '../html-style.ts';
import { renderHtml } from '../html.ts';
import { renderJson } from '../json.ts';
import { renderMarkdown } from '../markdown.ts';
import { KEY_A, sampleCoverage, sampleResults, sampleRunReport } from './sample-run.ts';

const schema = JSON.parse(readFileSync(new URL('../results.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
addFormats(ajv);
const validate = ajv.compile(schema);

type Mutable = Record<string, any>;
const results = (coverage: CoverageReport | null = sampleCoverage()) => JSON.parse(renderJson(sampleRunReport(sampleResults(), coverage))) as Mutable;

/** The Coverage section of a page. */
function coverageOf(page: string): string {
  const start = page.indexOf('<section id="coverage">');
  expect(start).toBeGreaterThan(0);
  return page.slice(start, page.indexOf('</section>', start));
}

/** The one table row of the section that holds every one of `cells` (each an exact cell content). */
function rowWith(section: string, ...cells: string[]): string {
  const rows = section.split('\n').filter((line) => line.startsWith('<tr') && cells.every((cell) => line.includes(`>${cell}</`)));
  expect(rows, cells.join(' ')).toHaveLength(1);
  return rows[0]!;
}

describe('the run model', () => {
  it('carries the coverage when the phase ran, with keys redacted, and no coverage field otherwise', () => {
    const report = sampleRunReport();
    expect(report.coverage?.keywords).toEqual(sampleCoverage().keywords);
    expect(report.coverage?.untestable[1]?.reason).toBe('too large to send in a run; the key svc_live_*** would be sent 40 times');
    expect(JSON.stringify(report)).not.toContain(KEY_A);
    expect('coverage' in sampleRunReport(sampleResults(), null)).toBe(false);
  });

  it('copies the coverage: the report shares no array with the phase, and drops what the schema does not list', () => {
    const coverage = sampleCoverage();
    const noted = { ...coverage, keywords: coverage.keywords.map((entry) => ({ ...entry, note: 'internal' })) };
    const report = sampleRunReport([], noted);
    expect(report.coverage!.keywords).not.toBe(noted.keywords);
    expect(report.coverage!.keywords[0]).toEqual(sampleCoverage().keywords[0]);
    // An observed pair without an error code has no code field, not an undefined one.
    expect(Object.keys(report.coverage!.responses[0]!.observed[0]!)).toEqual(['status', 'count']);
  });
});

describe('results.json with coverage', () => {
  it('validates against results.schema.json, and so does a run without it', () => {
    for (const doc of [results(), results(null)]) {
      const valid = validate(doc);
      expect(validate.errors ?? []).toEqual([]);
      expect(valid).toBe(true);
    }
    expect(results().coverage.responses[1].observed[1].code).toMatch(/^<\/script>/);
  });

  it.each<[string, (coverage: Mutable) => void]>([
    ['no untestable list', (coverage) => delete coverage.untestable],
    ['a field the schema does not list', (coverage) => (coverage.total = 16)],
    ['a keyword without its negative count', (coverage) => delete coverage.keywords[0].negative],
    ['a keyword in an unknown location', (coverage) => (coverage.keywords[0].location = 'cookie')],
    ['a keyword with a negative count below zero', (coverage) => (coverage.keywords[0].negative = -1)],
    ['a keyword with a fractional count', (coverage) => (coverage.keywords[0].positive = 1.5)],
    ['a keyword with a camelCase field', (coverage) => (coverage.keywords[0].jsonPointer = '/context')],
    ['a dimension whose values are not strings', (coverage) => (coverage.dimensions[0].values = [406])],
    ['a dimension without its count', (coverage) => delete coverage.dimensions[0].count],
    ['a documented status given as a string', (coverage) => (coverage.responses[0].documented_statuses[0] = '200')],
    ['an observed status out of range', (coverage) => (coverage.responses[0].observed[0].status = 42)],
    ['an observed pair seen zero times', (coverage) => (coverage.responses[0].observed[0].count = 0)],
    ['an observed pair with an empty code', (coverage) => (coverage.responses[0].observed[0].code = '')],
    ['an untestable entry without a reason', (coverage) => delete coverage.untestable[0].reason],
    ['an untestable entry with an empty what', (coverage) => (coverage.untestable[0].what = '')],
  ])('rejects a coverage with %s', (_, mutate) => {
    const doc = results();
    expect(validate(doc)).toBe(true);
    mutate(doc.coverage);
    expect(validate(doc)).toBe(false);
  });
});

describe('report.html with coverage', () => {
  const page = renderHtml(sampleRunReport());
  const section = coverageOf(page);

  it('links the Coverage section from the page, before Latency, and has none without coverage', () => {
    expect(page).toContain('<a href="#skipped">Skipped (2)</a><a href="#coverage">Coverage</a><a href="#latency">');
    const without = renderHtml(sampleRunReport(sampleResults(), null));
    expect(without).not.toContain('id="coverage"');
    expect(without).not.toContain('href="#coverage"');
  });

  it('says the figures and has one block per operation, in the order the phase listed them', () => {
    expect(section).toContain('6 request keywords of 3 operations, 4 with a negative case, 1 untestable, 1 untried; 3 HTTP dimensions; 16 cases.');
    const headings = [...section.matchAll(/<h3><code>([^<]+)<\/code><\/h3>/g)].map((match) => match[1]);
    expect(headings).toEqual(['decide', 'uploadAsset', 'getAsset']);
  });

  it('marks the untried keyword in red and in words', () => {
    const row = rowWith(section, '<code>/context&lt;ContentParts&gt;/*&lt;TextPart&gt;/text</code>', '<code>maxLength</code>');
    expect(row).toMatch(/^<tr class="untried">/);
    expect(row).toContain('<strong class="untried-mark">untried</strong>');
    expect(section.match(/<tr class="untried">/g)).toHaveLength(1);
    expect(section.match(/class="untried-mark"/g)).toHaveLength(1);
    // Red: the row on the failure background, the word in the failure colour.
    expect(REPORT_STYLE).toMatch(/tr\.untried td[^{]*\{ background: var\(--fail-bg\); \}/);
    expect(REPORT_STYLE).toMatch(/\.untried-mark[^{]*\{ color: var\(--fail\);/);
  });

  it('does not mark a keyword that has a negative case, nor one listed untestable', () => {
    const tried = rowWith(section, '<code>/context</code>', '<code>minLength</code>');
    expect(tried).toMatch(/^<tr><td/);
    expect(tried).not.toContain('untried');
    const excused = rowWith(section, '<code>/request_id</code>', '<code>pattern</code>');
    expect(excused).toMatch(/^<tr><td/);
    expect(excused).not.toContain('untried');
    expect(excused).toContain('<span class="muted">untestable</span>');
  });

  it('shows each dimension with its cases and values', () => {
    expect(rowWith(section, 'accept')).toContain('<td class="num">2</td><td class="text"><code>text/html</code>, <code>application/xml</code></td>');
    expect(rowWith(section, 'upload-size')).toContain('<code>20971521 bytes</code>');
  });

  it('shows the responses beside the documented statuses, marking those the spec does not document', () => {
    expect(section).toContain('Documented: 200, 400, 401, 413, 415, 422, 429, 500; never observed: 401, 413, 422, 429, 500.');
    const documented = rowWith(section, '400', '<code>INVALID_REQUEST</code>');
    expect(documented).toMatch(/^<tr><td/);
    expect(documented).toContain('<td class="num">6</td><td class="nowrap">yes</td>');
    const undocumented = rowWith(section, '406');
    expect(undocumented).toMatch(/^<tr class="undocumented">/);
    expect(undocumented).toContain('<span class="muted">none</span>');
    expect(undocumented).toContain('<strong class="undocumented-mark">not documented</strong>');
    expect(section.match(/<tr class="undocumented">/g)).toHaveLength(2);
  });

  it('lists what could not be tried, with the reason', () => {
    expect(section).toContain('<h3>Untestable</h3>');
    expect(rowWith(section, '<code>decide</code>', '<code>/request_id pattern</code>')).toContain(
      '<td class="text">every string the generator can build matches ^[ -~]{1,64}$</td>',
    );
  });

  it('escapes hostile strings in every field of the coverage', () => {
    const attack = '<script>alert(1)</script>';
    const escaped = '&lt;script&gt;alert(1)&lt;/script&gt;';
    const hostile: CoverageReport = {
      keywords: [{ operation: attack, location: 'body', pointer: attack, keyword: attack, positive: 1, negative: 0 }],
      dimensions: [{ operation: attack, dimension: attack, count: 1, values: [attack] }],
      responses: [{ operation: attack, documented_statuses: [200], observed: [{ status: 500, code: attack, count: 1 }] }],
      untestable: [{ operation: attack, what: `${attack} pattern`, reason: attack }],
    };
    const hostilePage = renderHtml(sampleRunReport([], hostile));
    expect(hostilePage).not.toContain(attack);
    expect(hostilePage.match(/<script\b/g)).toHaveLength(1);
    const hostileSection = coverageOf(hostilePage);
    // The operation's heading, pointer, keyword, dimension, value, code, and the untestable entry's operation, what and reason.
    expect(hostileSection.split(escaped).length - 1).toBe(9);
    const untried = hostileSection.split('\n').filter((line) => line.startsWith('<tr class="untried">'));
    expect(untried).toHaveLength(1);
    expect(untried[0]).toContain(`<td class="text"><code>${escaped}</code></td><td class="nowrap"><code>${escaped}</code></td>`);
    expect(hostileSection).toContain(`<td class="text">${escaped}</td></tr>`);
  });

  it('says so when the phase recorded nothing', () => {
    const empty = coverageOf(renderHtml(sampleRunReport([], { keywords: [], dimensions: [], responses: [], untestable: [] })));
    expect(empty).toContain('0 request keywords of 0 operations, 0 with a negative case, 0 untestable, 0 untried; 0 HTTP dimensions; 0 cases.');
    expect(empty).toContain('The coverage phase recorded no operation.');
    expect(empty).toContain('Nothing was listed untestable.');
  });
});

describe('summary.md with coverage', () => {
  it('has one line with the figures, and none without coverage', () => {
    const lines = renderMarkdown(sampleRunReport()).split('\n');
    expect(lines.filter((line) => line.startsWith('Coverage:'))).toEqual([
      'Coverage: 6 request keywords of 3 operations, 4 with a negative case, 1 untestable, 1 untried; 3 HTTP dimensions; 16 cases.',
    ]);
    expect(renderMarkdown(sampleRunReport(sampleResults(), null))).not.toContain('Coverage');
  });

  it('counts cases over keywords and dimensions, and says one of each in the singular', () => {
    const one: CoverageReport = {
      keywords: [{ operation: 'getAsset', location: 'path', pointer: 'asset_id', keyword: 'pattern', positive: 3, negative: 4 }],
      dimensions: [{ operation: 'getAsset', dimension: 'accept', count: 5, values: ['text/html'] }],
      responses: [],
      untestable: [],
    };
    expect(renderMarkdown(sampleRunReport([], one))).toContain(
      'Coverage: 1 request keyword of 1 operation, 1 with a negative case, 0 untestable, 0 untried; 1 HTTP dimension; 12 cases.',
    );
  });
});

// The reports of a load run and of a cold-start run: the headline is the load verdict, and they
// show only what the run has, none of a conformance run's sections, counts or placeholders.
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../html.ts';
import { renderJson } from '../json.ts';
import { renderJunit } from '../junit.ts';
import { renderMarkdown } from '../markdown.ts';
import type { RunReport } from '../run-report.ts';
import { LOAD_KEY, flat, sampleColdStart, sampleColdStartReport, sampleLoadReport, sampleLoadRun, spiky } from './sample-load.ts';
import { elementsNamed, parseXmlStrict } from './strict-xml.ts';

const CONFORMANCE_SECTIONS = ['summary', 'areas', 'overlap', 'failures', 'open-points', 'skipped', 'all-checks'];
const headline = (page: string) => /<h1 id="verdict">([^<]*)<\/h1>/.exec(page)?.[1];
const sectionIds = (page: string) => [...page.matchAll(/<section id="([^"]+)"/g)].map((match) => match[1]);
const banner = (page: string) => /<header class="banner ([^"]+)">[\s\S]*?<\/header>/.exec(page)?.[0] ?? '';
const every = (report: RunReport) => [renderHtml(report), renderMarkdown(report), renderJunit(report), renderJson(report)];

describe('report.html of a load run', () => {
  const held = renderHtml(sampleLoadReport());
  const missed = renderHtml(sampleLoadReport([sampleLoadRun(true, flat), sampleLoadRun(false, spiky)]));

  it('leads with the load verdict, the scenario and the runs, in the verdict colour', () => {
    expect(headline(held)).toBe('Load decide-steady: every threshold held in 2 runs (k6 v2.2.0; nearest-rank percentiles)');
    expect(banner(held)).toMatch(/^<header class="banner verdict-pass">/);
    expect(held).toMatch(/<title>THRESHOLDS HELD: Decision Service load decide-steady, http:\/\/127\.0\.0\.1:8080<\/title>/);
    expect(headline(missed)).toBe('Load decide-steady: thresholds missed in 1 of 2 runs (k6 v2.2.0; nearest-rank percentiles)');
    expect(banner(missed)).toMatch(/^<header class="banner verdict-fail">/);
  });

  it('has the sections of a load run and none of a conformance run', () => {
    expect(sectionIds(held)).toEqual(['runs', 'checks', 'latency']);
    for (const id of CONFORMANCE_SECTIONS) expect(held).not.toContain(`href="#${id}"`);
    expect(held).not.toContain('NOTHING RAN');
    expect(held).not.toMatch(/data-summary=/);
  });

  it('states no placeholder: no seed, no warm-up, no suites', () => {
    expect(banner(held)).not.toMatch(/seed|Warm-up|warm-up|suites/);
    expect(banner(held)).toContain('<dt>Scenario</dt><dd>decide-steady');
    expect(banner(held)).toContain('2 runs, every threshold held');
  });

  it('lists every check of the runs by its rule, failed ones with their example', () => {
    expect(held).toContain('<h3>Checks by rule (all runs)</h3>');
    expect(held).toMatch(
      /<code>decide choice-margin<\/code><\/td><td class="text">choice-margin: confidence is the margin \(seed 2\.4\)<\/td><td class="num">80<\/td><td class="num">0<\/td>/,
    );
    expect(missed).toContain('<h3>Failed checks by rule</h3>');
    expect(missed).toContain('expected</dt><dd>confidence 0.4');
  });

  it('shows drift only when the run measured it', () => {
    const soak = renderHtml(sampleLoadReport([sampleLoadRun(true, flat)], { drift: { first_window_p50_ms: 2, last_window_p50_ms: 3, p50_ratio: 1.5 } }));
    expect(sectionIds(soak)).toEqual(['runs', 'checks', 'latency', 'drift']);
    expect(soak).toContain('<a href="#drift">Drift</a>');
  });
});

describe('summary.md and junit.xml of a load run', () => {
  it('summary.md opens with the load verdict and has no conformance counts', () => {
    const markdown = renderMarkdown(sampleLoadReport());
    expect(markdown.split('\n')[0]).toBe('## ✅ Decision Service Load decide-steady: every threshold held in 2 runs (k6 v2.2.0; nearest-rank percentiles)');
    expect(markdown).toContain('| Run | req/s | p50 | p95 | p99 | errors | thresholds |');
    expect(markdown).not.toMatch(/MUST|SHOULD|seed \d|warm-up|NOTHING RAN/);
    expect(renderMarkdown(sampleLoadReport([sampleLoadRun(false, spiky)])).split('\n')[0]).toMatch(
      /^## ❌ Decision Service Load decide-steady: thresholds missed in 1 of 1 runs/,
    );
  });

  it('junit.xml holds the load test suite only, its counts on the root', () => {
    const root = parseXmlStrict(renderJunit(sampleLoadReport([sampleLoadRun(true, flat), sampleLoadRun(false, spiky)])));
    const suites = elementsNamed(root, 'testsuite');
    expect(suites.map((suite) => suite.attributes.name)).toEqual(['load decide-steady']);
    expect([root.attributes.tests, root.attributes.failures, root.attributes.skipped]).toEqual(['4', '1', '0']);
  });
});

describe('the reports of a cold-start run', () => {
  it('lead with the allowance verdict and show each spawn', () => {
    const page = renderHtml(sampleColdStartReport());
    expect(headline(page)).toBe('Cold start: every spawn answered its first decide within the 120000 ms allowance (3 spawns; slowest 900 ms)');
    expect(sectionIds(page)).toEqual(['cold-start']);
    expect(banner(page)).not.toMatch(/seed|Warm-up|Capabilities/);
    expect(page.match(/<span class="pill pass">within<\/span>/g)).toHaveLength(3);
    expect(renderMarkdown(sampleColdStartReport()).split('\n')[0]).toMatch(/^## ✅ Decision Service Cold start: every spawn/);
  });

  it('fail a spawn past the allowance, in every report', () => {
    const slow = sampleColdStartReport(sampleColdStart(130_000));
    expect(headline(renderHtml(slow))).toMatch(/^Cold start: ALLOWANCE EXCEEDED, a spawn took 130000 ms/);
    expect(banner(renderHtml(slow))).toMatch(/^<header class="banner verdict-fail">/);
    const root = parseXmlStrict(renderJunit(slow));
    expect([root.attributes.tests, root.attributes.failures]).toEqual(['3', '1']);
    expect(renderJunit(slow)).toMatch(
      /<testcase name="spawn 3: first decide within 120000 ms" classname="cold-start" time="130\.000"><failure type="allowance"/,
    );
    expect(renderMarkdown(slow).split('\n')[0]).toMatch(/^## ❌ /);
  });
});

it('no report of a load run holds the key it used', () => {
  const report = sampleLoadReport([sampleLoadRun(false, spiky)]);
  for (const text of every(report)) expect(text).not.toContain(LOAD_KEY);
  expect(renderJson(report)).toContain('POST /v1/decide X-Request-ID r-1 Bearer ');
});

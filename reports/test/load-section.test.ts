// The load section: results.json with one validates; report.html, summary.md and junit.xml show
// it; the timeline chart turns to a log scale when an outlier would flatten it.
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect, test } from 'vitest';
import { renderHtml } from '../html.ts';
import { renderJson } from '../json.ts';
import { renderJunit } from '../junit.ts';
import type { LoadRun, LoadSection } from '../load-run.ts';
import { idleLine, loadVerdict, timelineChart, useLogScale } from '../load-section.ts';
import { renderMarkdown } from '../markdown.ts';
import { sampleRunReport } from './sample-run.ts';

const schema = JSON.parse(readFileSync(new URL('../results.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
addFormats(ajv);
const validate = ajv.compile(schema);

const run = (passed: boolean, timeline: LoadRun['timeline']): LoadRun => ({
  scenario: 'decide-steady',
  description: 'POST /v1/decide at 20/s for 2 s',
  generator: { name: 'k6', version: 'v2.2.0' },
  base_url: 'http://127.0.0.1:8080',
  started_at: '2026-11-23T10:00:00.000Z',
  duration_ms: 2000,
  executor: { executor: 'constant-arrival-rate', rate: 20, timeUnit: '1s', duration: '2s', preAllocatedVUs: 10, maxVUs: 40 },
  iterations: 40,
  dropped_iterations: 0,
  requests: 40,
  requests_by_name: { decide: 40 },
  throughput_rps: 20,
  error_rate: passed ? 0 : 0.1,
  check_rate: passed ? 1 : 0.9,
  latency: { all: { count: 40, p50_ms: 2, p90_ms: 3, p95_ms: 4, p99_ms: 5, max_ms: 6 } },
  checks: [{ name: 'decide has X-Request-ID', passes: 40, fails: 0 }],
  thresholds: [{ metric: 'http_req_failed', condition: 'rate<=0.01', ok: passed }],
  timeline,
  passed,
  memory: { source: 'kit process', samples: [{ at_s: 0, rss_bytes: 100 }, { at_s: 2, rss_bytes: 120 }] },
});

const flat = [{ start_s: 0, count: 20, p50_ms: 2, p95_ms: 3, p99_ms: 4 }, { start_s: 1, count: 20, p50_ms: 2.2, p95_ms: 3.1, p99_ms: 4.5 }];
const spiky = [{ start_s: 0, count: 20, p50_ms: 2, p95_ms: 3, p99_ms: 4 }, { start_s: 1, count: 20, p50_ms: 2, p95_ms: 900, p99_ms: 1500 }];

test('results.json with a load section validates against the schema', () => {
  const load: LoadSection = { scenario: 'decide-steady', runs: [run(true, flat), run(false, spiky)], drift: { first_window_p50_ms: 2, last_window_p50_ms: 2, p50_ratio: 1, rss_first_bytes: 100, rss_last_bytes: 120, rss_growth_bytes: 20 } };
  const report = { ...sampleRunReport(), load };
  expect(validate(JSON.parse(renderJson(report))), JSON.stringify(validate.errors)).toBe(true);
});

test('a run that missed a threshold fails the load verdict, and every report shows it', () => {
  const load: LoadSection = { scenario: 'decide-steady', runs: [run(true, flat), run(false, spiky)] };
  expect(loadVerdict(load)).toBe('fail');
  expect(loadVerdict({ scenario: 'decide-steady', runs: [run(true, flat)] })).toBe('pass');
  const report = { ...sampleRunReport(), load };
  expect(renderHtml(report)).toContain('<section id="load">');
  expect(renderMarkdown(report)).toContain('missed: `http_req_failed rate<=0.01`');
  expect(renderJunit(report)).toMatch(/<testcase name="run 2: http_req_failed rate&lt;=0.01"[^>]*><failure type="threshold"/);
});

test('latency over time uses a log scale only when outliers would flatten a linear one', () => {
  expect(useLogScale(flat)).toBe(false);
  expect(useLogScale(spiky)).toBe(true);
  expect(timelineChart(spiky)).toContain('data-scale="log"');
  expect(timelineChart(flat)).toContain('data-scale="linear"');
});

test('the cold-start scenario reports the call after idling beside the steady p50', () => {
  const latency = (ms: number) => ({ count: 1, p50_ms: ms, p90_ms: ms, p95_ms: ms, p99_ms: ms, max_ms: ms });
  const coldRun = { ...run(true, flat), latency: { decide_first: latency(900), decide: latency(2), decide_after_idle: latency(8) } };
  expect(idleLine(coldRun)).toBe('first call 900 ms; first call after the idle period 8.0 ms vs steady p50 2.0 ms (× 4.0)');
  expect(idleLine(run(true, flat))).toBeUndefined();
});

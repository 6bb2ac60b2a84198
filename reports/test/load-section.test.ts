// The load section of a load run: its results.json validates; report.html, summary.md and junit.xml show
// it; the timeline chart turns to a log scale when an outlier would flatten it.
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect, test } from 'vitest';
import { renderHtml } from '../html.ts';
import { renderJson } from '../json.ts';
import { renderJunit } from '../junit.ts';
import type { LoadSection } from '../load-run.ts';
import { idleLine, loadVerdict, timelineChart, useLogScale } from '../load-section.ts';
import { renderMarkdown } from '../markdown.ts';
import { flat, sampleLoadRun, sampleLoadReport, spiky } from './sample-load.ts';

const schema = JSON.parse(readFileSync(new URL('../results.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
addFormats(ajv);
const validate = ajv.compile(schema);

const run = sampleLoadRun;

test('results.json of a load run validates against the schema, with a kind and none of the conformance fields', () => {
  const report = sampleLoadReport([run(true, flat), run(false, spiky)], {
    drift: { first_window_p50_ms: 2, last_window_p50_ms: 2, p50_ratio: 1, rss_first_bytes: 100, rss_last_bytes: 120, rss_growth_bytes: 20 },
  });
  const json = JSON.parse(renderJson(report)) as Record<string, unknown>;
  expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
  expect(json.kind).toBe('load');
  for (const field of ['seed', 'suites', 'warmup', 'summary', 'checks', 'open_points', 'latency']) expect(json).not.toHaveProperty(field);
});

test('a run that missed a threshold fails the load verdict, and every report shows it', () => {
  const load: LoadSection = { scenario: 'decide-steady', runs: [run(true, flat), run(false, spiky)] };
  expect(loadVerdict(load)).toBe('fail');
  expect(loadVerdict({ scenario: 'decide-steady', runs: [run(true, flat)] })).toBe('pass');
  const report = sampleLoadReport(load.runs);
  expect(renderHtml(report)).toContain('<section id="runs">');
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

test("every report says whether each run's generator kept up; a generator-bound run is marked, and skipped in junit.xml", () => {
  const kept = {
    ...run(true, flat),
    generator_health: { bound: false, reasons: [], planned_rate_per_s: 20, achieved_rate_per_s: 20, dropped_iterations: 0, cores: 2 },
  };
  const bound = {
    ...run(true, flat),
    generator_health: {
      bound: true,
      reasons: ["used 1.3 cores to the server's 0.5: in a closed loop <each> request cost the generator more"],
      achieved_rate_per_s: 3000,
      dropped_iterations: 0,
      cores: 2,
      generator_cpu: { cores: 1.3, source: 'k6 processes' },
      server_cpu: { cores: 0.5, source: 'server' },
    },
  };
  const report = sampleLoadReport([kept, bound]);
  const json = JSON.parse(renderJson(report)) as Record<string, unknown>;
  expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
  const markdown = renderMarkdown(report);
  expect(markdown).toContain('- run 1: generator kept up; planned 20/s, achieved 20 iterations/s');
  expect(markdown).toContain("- run 2: GENERATOR-BOUND (used 1.3 cores to the server's 0.5: in a closed loop \\<each\\> request");
  const html = renderHtml(report);
  expect(html.match(/pill fail">generator-bound/g)).toHaveLength(1);
  expect(html).toContain('&lt;each&gt;');
  const junit = renderJunit(report);
  expect(junit).toMatch(/<testcase name="run 1: the generator kept up" classname="load.decide-steady" time="0"\/>/);
  expect(junit).toMatch(
    /<testcase name="run 2: the generator kept up" classname="load.decide-steady" time="0"><skipped message="GENERATOR-BOUND \(used 1.3 cores/,
  );
  expect(junit).toMatch(/<testsuites [^>]*skipped="1"/);
});

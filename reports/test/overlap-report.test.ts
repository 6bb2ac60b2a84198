// The overlap of checks that send requests together, through the run model to every file: the
// figures per check and per area, valid against results.schema.json, and "no overlap achieved"
// said plainly where the answers never came together.
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect, test } from 'vitest';
import { ALL_CAPABILITIES, type CheckResult } from '../../harness/check.ts';
import { renderHtml } from '../html.ts';
import { renderJson } from '../json.ts';
import { renderMarkdown } from '../markdown.ts';
import { buildRunReport } from '../run-report.ts';

const schema = JSON.parse(readFileSync(new URL('../results.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
addFormats(ajv);
const validate = ajv.compile(schema);

const concurrent = (id: string, status: CheckResult['status'], answeredTogether: number): CheckResult => ({
  id,
  level: 'MUST',
  area: 'concurrency',
  seedSections: ['2.7'],
  title: `${id} sent together`,
  concurrent: true,
  status,
  durationMs: 12,
  notes: [],
  ...(status === 'skip' ? { message: 'no overlap achieved: the server answered one request at a time' } : {}),
  exchanges: [],
  overlap: { target: 8, maxInFlight: 8, answeredTogether },
});

const report = (results: CheckResult[]) =>
  buildRunReport({
    results,
    target: { baseUrl: 'http://127.0.0.1:1', capabilities: new Set(ALL_CAPABILITIES), hasSecondKey: true, embedded: false },
    seed: 1,
    suites: ['conformance'],
    startedAt: new Date(0),
    finishedAt: new Date(1000),
    warmup: { durationMs: 1, ok: true },
    secrets: [],
  });

test('each check carries its overlap and each area the largest, valid against the schema', () => {
  const run = report([concurrent('CONCURRENT-A', 'pass', 6), concurrent('CONCURRENT-B', 'pass', 3)]);
  expect(run.checks[0]!.overlap).toEqual({ target: 8, max_in_flight: 8, answered_together: 6, achieved: true });
  expect(run.overlap_by_area).toEqual({ concurrency: { target: 8, max_in_flight: 8, answered_together: 6, achieved: true } });
  const json = JSON.parse(renderJson(run));
  expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
  expect(renderMarkdown(run)).toContain('Overlap in `concurrency`: 8 in flight (target 8), 6 answered together.');
  expect(renderHtml(run)).toContain('<section id="overlap">');
});

test('a run whose answers never came together says "no overlap achieved" in every file', () => {
  const run = report([concurrent('CONCURRENT-A', 'skip', 1)]);
  expect(run.overlap_by_area?.concurrency?.achieved).toBe(false);
  expect(validate(JSON.parse(renderJson(run))), JSON.stringify(validate.errors)).toBe(true);
  expect(renderMarkdown(run)).toContain('1 answered together: no overlap achieved');
  expect(renderHtml(run)).toContain('no overlap achieved');
});

test('a run without such checks has no overlap at all', () => {
  const run = report([{ ...concurrent('AUTH-X', 'pass', 1), concurrent: false, area: 'auth', overlap: undefined } as unknown as CheckResult]);
  expect(run.overlap_by_area).toBeUndefined();
  expect(renderHtml(run)).not.toContain('id="overlap"');
});

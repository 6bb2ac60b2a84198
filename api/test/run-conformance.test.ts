// runConformance: the run of `decision-conformance run`, as a function returning results.json's content.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConformanceOptionsError, runConformance, type CheckResult } from '../index.ts';
import { responseRuleMeta } from '../../harness/response-rules/catalogue.ts';
import { startServerUnderTest, UNREACHABLE, type ServerUnderTest } from './fixtures/server-under-test.ts';

const ONLY = ['AUTH-VALID-KEY', 'DECIDE-MISSING-CONTEXT', 'DECIDE-PROBABILITY-RANGE'];
/** After the checks, every response rule's verdict on their exchanges, in catalogue order. */
const RULES = responseRuleMeta.map((rule) => rule.id);
const checksOf = (report: { checks: Array<{ area: string }> }) => report.checks.filter((check) => check.area !== 'response-rules');

let good: ServerUnderTest;
let broken: ServerUnderTest;
const reportDir = mkdtempSync(join(tmpdir(), 'decision-api-'));
beforeAll(async () => {
  [good, broken] = await Promise.all([startServerUnderTest(''), startServerUnderTest('probability-range')]);
});
afterAll(async () => {
  await Promise.all([good?.close(), broken?.close()]);
  rmSync(reportDir, { recursive: true, force: true });
});

describe('runConformance', () => {
  test('returns the run as results.json has it, results streamed in run order, keys nowhere', async () => {
    const streamed: CheckResult[] = [];
    const report = await runConformance({ baseUrl: good.baseUrl, apiKey: good.apiKey, only: ONLY, seed: 7, onResult: (result) => streamed.push(result) });
    expect(report.kind).toBe('conformance');
    expect(report.seed).toBe(7);
    expect(report.warmup.ok).toBe(true);
    expect(report.checks.map((check) => check.id)).toEqual([...ONLY, ...RULES]);
    expect(streamed.map((result) => result.id)).toEqual([...ONLY, ...RULES]);
    expect(report.summary).toMatchObject({ total: ONLY.length + RULES.length, fail: 0, must_failed: 0 });
    expect(checksOf(report).every((check) => (check as { status?: string }).status === 'pass')).toBe(true);
    expect(JSON.stringify(report)).not.toContain(good.apiKey);
  });

  test('writes reports only when given a folder, and results.json is the object returned', async () => {
    const report = await runConformance({ baseUrl: good.baseUrl, apiKey: good.apiKey, only: ONLY.slice(0, 1), reportDir });
    expect(JSON.parse(readFileSync(join(reportDir, 'results.json'), 'utf8'))).toEqual(JSON.parse(JSON.stringify(report)));
  });

  test('a broken server fails the check it breaks, with the expectation and the curl lines', async () => {
    const report = await runConformance({ baseUrl: broken.baseUrl, apiKey: broken.apiKey, only: ONLY });
    // The check that exists for the rule fails, and so do the response rules the same answers break.
    expect(report.checks.filter((check) => check.status === 'fail').map((check) => check.id)).toEqual([
      'DECIDE-PROBABILITY-RANGE',
      'choice-answer-shape',
      'probability-range',
      'choice-margin',
    ]);
    expect(report.summary).toMatchObject({ fail: 4, must_failed: 4 });
    const failed = report.checks.find((check) => check.status === 'fail')!;
    expect(failed.id).toBe('DECIDE-PROBABILITY-RANGE');
    expect(failed.message).toMatch(/observed 1\.5/);
    expect(failed.evidence[0]?.curl).toMatch(/^curl .*\/v1\/decide/);
  });

  test('an unreachable server gives results whose warm-up says why, and no checks', async () => {
    const report = await runConformance({ baseUrl: UNREACHABLE, apiKey: good.apiKey, only: ONLY, warmupTimeoutMs: 1_000 });
    expect(report.warmup.ok).toBe(false);
    expect(report.warmup.message).toBeTruthy();
    expect(report.checks).toEqual([]);
  });

  test('refuses what the command line refuses, before any request', async () => {
    await expect(runConformance({ baseUrl: good.baseUrl, apiKey: good.apiKey, only: ['AUTH-VALID-KEYS'] })).rejects.toThrow(
      /unknown check id: AUTH-VALID-KEYS in --only \(closest: AUTH-VALID-KEY/,
    );
    await expect(runConformance({ baseUrl: good.baseUrl, apiKey: good.apiKey, concurrency: 1 })).rejects.toBeInstanceOf(ConformanceOptionsError);
    await expect(runConformance({ apiKey: good.apiKey })).rejects.toThrow(/keys are only for --base-url/);
  });
});

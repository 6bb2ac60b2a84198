// Every request keyword of the spec gets a negative case, or is listed untestable with a reason;
// and every case's expectation agrees with what ajv says of the body it sends.
import { describe, expect, test } from 'vitest';
import { ALL_CAPABILITIES, type CheckResult } from '../../harness/check.ts';
import type { CoverageRecord } from '../../harness/coverage.ts';
import { decideBody, referenceFeedbackBody } from '../../harness/request-bodies.ts';
import { operations, requestBodySchemaName, schemaValidator, type SchemaStep } from '../../spec/index.ts';
import { bodyCases } from '../body-cases.ts';
import type { CaseRequest, CoverageCase } from '../case.ts';
import { requestCases } from '../request-cases.ts';
import { coverageOf, specKeywords, untestableKeywords } from '../tally.ts';
import { checks } from '../checks.ts';

/** A real-looking asset id per part family: the offline stand-in for the uploads a check makes. */
const hook = (name: string | undefined, steps: readonly SchemaStep[]) => {
  if (name !== 'AssetId') return undefined;
  const tag = steps.findLast((step) => step.kind === 'branch' && step.tag)?.kind === 'branch' ? 'media' : 'x';
  return `asset_${tag}0000000000`;
};
const roots: Record<string, unknown> = { decide: decideBody(), submitFeedback: referenceFeedbackBody('req_0123456789abcdef', ['topic'], true) };
const request = async (body: unknown): Promise<CaseRequest> => ({ method: 'POST', path: '/', json: body });

function allCases(): CoverageCase[] {
  return operations.flatMap((op) => {
    const base = {
      operation: op.operationId,
      prepare: async () => ({ method: op.method.toUpperCase(), path: op.path.replace('{asset_id}', 'asset_0123456789') }),
      requires: [],
    };
    const body = roots[op.operationId]
      ? bodyCases({ operation: op.operationId, root: roots[op.operationId], hook, claims: new Set(ALL_CAPABILITIES), request }, ALL_CAPABILITIES).cases
      : [];
    return [...requestCases(base).cases, ...body];
  });
}

describe('the coverage phase, generated from the spec', () => {
  const cases = allCases();
  const records = cases
    .flatMap((testCase) => testCase.records)
    .filter((record): record is Extract<CoverageRecord, { kind: 'keyword' }> => record.kind === 'keyword');

  test('every request keyword of the spec has a negative case or is listed untestable with a reason', () => {
    const untestable = new Set(untestableKeywords().map((entry) => `${entry.operation} ${entry.what}`));
    const keywords = specKeywords();
    expect(keywords.length).toBeGreaterThan(50);
    const untried = keywords.filter(
      (entry) =>
        !untestable.has(`${entry.operation} ${entry.pointer} ${entry.keyword}`) &&
        !records.some(
          (record) =>
            record.operation === entry.operation && record.pointer === entry.pointer && record.keyword === entry.keyword && record.polarity === 'negative',
        ),
    );
    expect(untried.map((entry) => `${entry.operation} ${entry.location} ${entry.pointer} ${entry.keyword}`)).toEqual([]);
  });

  test("a body case's polarity is ajv's verdict on the body it sends, and what the contract form rules out is a MUST refusal", async () => {
    for (const testCase of cases.filter(
      (entry) => requestBodySchemaName(entry.operation) && entry.records.some((record) => record.kind === 'keyword' && record.location === 'body'),
    )) {
      const sent = await testCase.prepare();
      const name = requestBodySchemaName(testCase.operation)!;
      const valid = schemaValidator(name, 'reference')(sent.json).valid;
      for (const record of testCase.records) if (record.kind === 'keyword') expect(record.polarity, testCase.name).toBe(valid ? 'positive' : 'negative');
      if (!schemaValidator(name, 'contract')(sent.json).valid) expect(testCase.expectation, testCase.name).toEqual({ kind: 'refused' });
    }
  });

  test('the five cases no hand-written list had are among them', () => {
    const names = cases.map((testCase) => `${testCase.operation} ${testCase.name}`);
    expect(names).toContain('uploadAsset text/plain, empty');
    expect(names.some((name) => /^decide body \/context<ContentParts>\/\*<TextPart>\/id type: null/.test(name))).toBe(true);
    expect(names).toContain('decide body / additionalProperties: context written "Context" (first letter in upper case)');
    expect(names).toContain('decide body / additionalProperties: questions written "QUESTIONS" (in upper case)');
    expect(names).toContain('decide chunked, 262145 bytes (one past the limit)');
    expect(names).toContain('decide Accept: text/html, without a key');
  });
});

test('every open point a generated case falls in is among those its OBSERVE check names (a replay labels changes with them)', () => {
  for (const op of operations) {
    const named = new Set(checks.find((check) => check.id.endsWith('-OPEN') && check.title.startsWith(`${op.method.toUpperCase()} ${op.path}:`))?.openPoints);
    const observed = allCases()
      .filter((testCase) => testCase.operation === op.operationId)
      .flatMap((testCase) => (testCase.expectation.kind === 'observed' ? [testCase.expectation.openPoint] : []));
    for (const point of observed) expect(named.has(point), `${op.operationId} ${point}`).toBe(true);
  }
});

test('the coverage object counts each record against its keyword and dimension, lists every spec keyword, and gathers what was not tried', () => {
  const result = (coverage: CoverageRecord[]) => ({ coverage, exchanges: [] }) as unknown as CheckResult;
  const coverage = coverageOf([
    result([
      { kind: 'keyword', operation: 'decide', location: 'body', pointer: '/', keyword: 'required', polarity: 'negative' },
      { kind: 'keyword', operation: 'decide', location: 'body', pointer: '/', keyword: 'required', polarity: 'negative' },
      { kind: 'keyword', operation: 'decide', location: 'body', pointer: '/', keyword: 'required', polarity: 'positive' },
      { kind: 'dimension', operation: 'decide', dimension: 'accept', value: 'text/html' },
      { kind: 'dimension', operation: 'decide', dimension: 'accept', value: 'text/html' },
    ]),
    result([{ kind: 'untestable', operation: 'decide', what: '/context<ContentParts> type', reason: 'the target does not claim multimodal' }]),
  ])!;
  expect(coverage.keywords).toHaveLength(specKeywords().length);
  expect(coverage.keywords.find((entry) => entry.operation === 'decide' && entry.pointer === '/' && entry.keyword === 'required')).toMatchObject({
    positive: 1,
    negative: 2,
  });
  expect(coverage.dimensions).toEqual([{ operation: 'decide', dimension: 'accept', count: 2, values: ['text/html'] }]);
  expect(coverage.untestable).toContainEqual({ operation: 'decide', what: '/context<ContentParts> type', reason: 'the target does not claim multimodal' });
  expect(coverageOf([result([])])).toBeUndefined();
});

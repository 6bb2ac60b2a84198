// No scenario fails a server on an open point: feedback follows a shape the server takes
// (declared, or learned from a conformance run), a refusal of the reference shape is counted
// apart and never as an error, scenarios send only what the target claims (--capabilities), and
// the bundled server's alternate profile runs green.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../api/embedded-target.ts';
import { FEEDBACK_REFERENCE_SHAPE_CHECK, feedbackChecks } from '../../conformance/feedback.ts';
import { isOperation, startMutatingProxy, type Mutation, type ProxiedRequest } from '../../harness/testing/mutating-proxy.ts';
import type { LoadRun, LoadSection } from '../../reports/load-run.ts';
import { runWithK6 } from '../k6.ts';
import { loadDefinition, SCENARIOS } from '../runner/definition.ts';
import { runWithNode } from '../runner/run-scenario.ts';
import { warmUp } from '../run.ts';
import {
  k6ForTests,
  LATENCY_OUT_OF_REACH,
  LATENCY_OUT_OF_REACH_FLAGS,
  loadRunErrors,
  runKitCommand,
  runLoadCommand,
  settingsFor,
  SHORT_SETTINGS,
} from './support.ts';

const k6 = k6ForTests();
// What these runs hold is that an open point's refusal is no error and fails no check: the error and
// check thresholds, not the latency ones (a CI run failed one while the machine was busy).
const SHORT = { DURATION: '2', RATE: '20', ...LATENCY_OUT_OF_REACH };
const scratch = mkdtempSync(join(tmpdir(), 'load-open-points-'));

let reference: EmbeddedTarget;
let alternate: EmbeddedTarget;
beforeAll(async () => {
  [reference, alternate] = await Promise.all([startEmbeddedTarget(), startEmbeddedTarget({ profile: 'alternate' })]);
  await Promise.all([warmUp('mixed', settingsFor(reference.baseUrl, reference.keyA)), warmUp('mixed', settingsFor(alternate.baseUrl, alternate.keyA))]);
});
afterAll(async () => {
  await Promise.all([reference?.stop(), alternate?.stop()]);
  rmSync(scratch, { recursive: true, force: true });
});

/** An error body of seed 7 with the request id, as a valid server refuses a request. */
const refusal = (sent: ProxiedRequest, status: number, code: string, message: string) => ({
  status,
  headers: { 'content-type': 'application/json', 'x-request-id': sent.headers['x-request-id'] ?? 'req_0123abcd' },
  body: Buffer.from(JSON.stringify({ error: { code, message, request_id: sent.headers['x-request-id'] ?? 'req_0123abcd' } })),
});

/** A valid server that takes feedback of another shape than the reference's: it refuses the kit's with 422. */
const otherFeedbackShape: Mutation = {
  answer: (sent) => (isOperation(sent, 'POST', '/v1/feedback') ? refusal(sent, 422, 'INVALID_REQUEST', 'feedback takes another body here') : undefined),
};

/** A valid server that implements none of the parts the seed calls planned: no assets, only choice questions. */
const claimsNothing: Mutation = {
  answer: (sent) => {
    if (isOperation(sent, 'POST', '/v1/assets')) return refusal(sent, 404, 'NOT_FOUND', 'no such route');
    if (isOperation(sent, 'POST', '/v1/decide') && /"type":"(noul|score|multi)"/.test(sent.body.toString('utf8')))
      return refusal(sent, 400, 'INVALID_REQUEST', 'unknown question type');
    return undefined;
  },
};

type Generator = (baseUrl: string, apiKey: string, settings?: Record<string, string>) => Promise<LoadRun>;
const generators: Array<['node' | 'k6', Generator]> = [
  [
    'node',
    async (baseUrl, apiKey, settings = {}) => {
      const env = settingsFor(baseUrl, apiKey, { ...SHORT, ...settings });
      return runWithNode(await loadDefinition('mixed', env), env);
    },
  ],
  ['k6', (baseUrl, apiKey, settings = {}) => runWithK6(k6!, 'mixed', settingsFor(baseUrl, apiKey, { ...SHORT, ...settings }))],
];

const withProxy = async <T>(upstream: string, mutation: Mutation, use: (baseUrl: string) => Promise<T>): Promise<T> => {
  const proxy = await startMutatingProxy(upstream, mutation);
  try {
    return await use(proxy.baseUrl);
  } finally {
    await proxy.close();
  }
};

const failing = (run: LoadRun) => run.checks.filter((check) => check.fails > 0).map((check) => check.name);

describe.each(generators)('mixed under %s', (generator, mixed) => {
  const needsK6 = generator === 'k6' && !k6;

  test.skipIf(needsK6)(
    'a refusal of the reference feedback shape is counted apart: no error, no failed check, thresholds held',
    { timeout: 60_000 },
    async () => {
      const run = await withProxy(reference.baseUrl, otherFeedbackShape, (baseUrl) => mixed(baseUrl, reference.keyA));
      expect(loadRunErrors(run)).toEqual([]);
      expect(run.requests_by_name.feedback).toBeGreaterThan(0);
      expect(run.open_point_refusals).toEqual({ 'feedback-shape': run.requests_by_name.feedback });
      expect(run.error_rate).toBe(0);
      expect(failing(run)).toEqual([]);
      expect(run.passed).toBe(true);
    },
  );

  test.skipIf(needsK6)(
    "the bundled server's alternate profile (another allowed choice on every open point it serves, feedback answered 200 among them) runs green",
    { timeout: 60_000 },
    async () => {
      const run = await mixed(alternate.baseUrl, alternate.keyA);
      expect(failing(run)).toEqual([]);
      expect(run.open_point_refusals).toBeUndefined();
      expect(run.requests_by_name.feedback).toBeGreaterThan(0);
      expect(run.passed).toBe(true);
    },
  );

  test.skipIf(needsK6)(
    'CAPABILITIES: a target that claims no planned part gets no upload and only choice questions, and runs green',
    { timeout: 60_000 },
    async () => {
      const run = await withProxy(reference.baseUrl, claimsNothing, (baseUrl) => mixed(baseUrl, reference.keyA, { CAPABILITIES: '' }));
      expect(run.requests_by_name.upload_asset).toBe(0);
      expect(run.requests_by_name.decide_on_asset).toBe(0);
      expect(failing(run)).toEqual([]);
      expect(run.passed).toBe(true);
    },
  );
});

test('the same target, with every capability assumed, fails on what it does not claim (the proxy is really that strict)', { timeout: 60_000 }, async () => {
  const run = await withProxy(reference.baseUrl, claimsNothing, async (baseUrl) => {
    const env = settingsFor(baseUrl, reference.keyA, SHORT);
    return runWithNode(await loadDefinition('mixed', env), env);
  });
  expect(failing(run)).toEqual(expect.arrayContaining(['upload_asset status', 'decide status']));
  expect(run.passed).toBe(false);
});

test('FEEDBACK_SHAPE=none sends no feedback; an unknown shape is an error', async () => {
  const env = settingsFor(reference.baseUrl, reference.keyA, { ...SHORT, FEEDBACK_SHAPE: 'none' });
  const run = await runWithNode(await loadDefinition('mixed', env), env);
  expect(run.requests_by_name.feedback).toBe(0);
  expect(run.passed).toBe(true);
  await expect(loadDefinition('mixed', { ...env, FEEDBACK_SHAPE: 'flat' })).rejects.toThrow(/FEEDBACK_SHAPE must be one of reference, none/);
});

test('every scenario runs green under the Node runner against the alternate profile', { timeout: 120_000 }, async () => {
  for (const name of SCENARIOS) {
    const env = settingsFor(alternate.baseUrl, alternate.keyA, SHORT_SETTINGS[name]);
    const run = await runWithNode(await loadDefinition(name, env), env);
    expect(failing(run), name).toEqual([]);
    expect(
      run.thresholds.filter((threshold) => !threshold.ok),
      name,
    ).toEqual([]);
  }
});

test('load run --from-results: a conformance run that saw the reference feedback shape refused makes mixed send none, and its capabilities are kept', {
  timeout: 120_000,
}, async () => {
  expect(feedbackChecks.map((check) => check.id)).toContain(FEEDBACK_REFERENCE_SHAPE_CHECK);
  await withProxy(reference.baseUrl, otherFeedbackShape, async (baseUrl) => {
    const conformanceDir = join(scratch, 'conformance');
    const conformance = await runKitCommand(
      'run',
      '--base-url',
      baseUrl,
      '--api-key',
      reference.keyA,
      '--only',
      FEEDBACK_REFERENCE_SHAPE_CHECK,
      '--capabilities',
      'assets,multimodal',
      '--report-dir',
      conformanceDir,
      '--quiet',
    );
    expect(conformance.code, conformance.out + conformance.err).not.toBe(2);

    const loadDir = join(scratch, 'load');
    const ran = await runLoadCommand(
      'run',
      '--scenario',
      'mixed',
      '--base-url',
      baseUrl,
      '--api-key',
      reference.keyA,
      '--from-results',
      conformanceDir,
      '--node',
      '--repeat',
      '1',
      '--duration',
      '2',
      '--rate',
      '20',
      '--report-dir',
      loadDir,
      ...LATENCY_OUT_OF_REACH_FLAGS,
    );
    expect(ran.code, ran.out + ran.err).toBe(0);
    expect(ran.out).toMatch(/feedback of the reference shape was answered 422: mixed sends no feedback/);
    const load = JSON.parse(readFileSync(join(loadDir, 'results.json'), 'utf8')) as { load: LoadSection; target: { capabilities: string[] } };
    expect(load.load.runs[0]!.requests_by_name.feedback).toBe(0);
    expect(load.load.runs[0]!.requests_by_name.upload_asset).toBeGreaterThan(0);
    expect([...load.target.capabilities].sort()).toEqual(['assets', 'multimodal']);
  });
});

test("load run: --capabilities and --feedback-shape are checked like run's options", async () => {
  expect((await runLoadCommand('run', '--scenario', 'mixed', '--capabilities', 'asets')).err).toMatch(/unknown capability "asets"/);
  expect((await runLoadCommand('run', '--scenario', 'mixed', '--feedback-shape', 'flat')).code).toBe(2);
  expect((await runLoadCommand('run', '--scenario', 'mixed', '--reference-profile', 'other')).err).toMatch(
    /--reference-profile must be reference or alternate/,
  );
  expect((await runLoadCommand('run', '--scenario', 'mixed', '--from-results', join(scratch, 'nothing-here'))).err).toMatch(/no such folder or file/);
});

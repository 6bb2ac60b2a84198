// Load responses are judged by the rules of the conformance suite, in k6 and in the Node runner
// alike: a server whose decide answers break one rule under load makes the check rate fall, and
// the report names the rule with an example exchange.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../api/embedded-target.ts';
import { isOperation, rewriteJson, startMutatingProxy, type Mutation } from '../../harness/testing/mutating-proxy.ts';
import type { LoadRun } from '../../reports/load-run.ts';
import { runWithK6 } from '../k6.ts';
import { loadDefinition } from '../runner/definition.ts';
import { runWithNode } from '../runner/run-scenario.ts';
import { warmUp } from '../run.ts';
import { k6ForTests, loadRunErrors, runLoadCommand, settingsFor } from './support.ts';

const k6 = k6ForTests();
const SHORT = { DURATION: '2', RATE: '20' };

let target: EmbeddedTarget;
beforeAll(async () => {
  target = await startEmbeddedTarget();
  await warmUp('decide-steady', settingsFor(target.baseUrl, target.keyA));
});
afterAll(async () => target?.stop());

const onDecide = (edit: (body: any) => unknown): Mutation => ({
  response: (received, sent) => (isOperation(sent, 'POST', '/v1/decide') ? rewriteJson(received, edit) : received),
});

/** Every choice answer's confidence moved by 0.1: still a number in [0, 1], no longer the margin. */
const shiftedMargins = (body: any) => {
  for (const answer of Object.values<any>(body.answers ?? {}))
    if (answer.type === 'choice') answer.confidence = answer.confidence < 0.5 ? answer.confidence + 0.1 : answer.confidence - 0.1;
  return body;
};

/** The last question's answer left out. */
const missingAnswer = (body: any) => {
  const ids = Object.keys(body.answers ?? {});
  delete body.answers[ids[ids.length - 1]!];
  return body;
};

const faults: Array<[string, string, Mutation]> = [
  ['leaves one question id out of its answers', 'decide answer-ids', onDecide(missingAnswer)],
  ['breaks the margin rule (confidence is not top-1 minus top-2)', 'decide choice-margin', onDecide(shiftedMargins)],
  [
    'answers with another X-Request-ID than the one sent',
    'decide request-id',
    { response: (received) => ({ ...received, headers: { ...received.headers, 'x-request-id': 'req_0123abcdef' } }) },
  ],
];

const generators: Array<['k6' | 'node', (baseUrl: string) => Promise<LoadRun>]> = [
  [
    'node',
    async (baseUrl) => {
      const env = settingsFor(baseUrl, target.keyA, SHORT);
      return runWithNode(await loadDefinition('decide-steady', env), env);
    },
  ],
  ['k6', (baseUrl) => runWithK6(k6!, 'decide-steady', settingsFor(baseUrl, target.keyA, SHORT))],
];

describe.each(generators)('under %s', (generator, runAgainst) => {
  test.skipIf(generator === 'k6' && !k6).each(faults)(
    'a server that %s fails "%s", named with an example exchange',
    { timeout: 60_000 },
    async (_fault, checkName, mutation) => {
      const proxy = await startMutatingProxy(target.baseUrl, mutation);
      try {
        const run = await runAgainst(proxy.baseUrl);
        expect(loadRunErrors(run)).toEqual([]);
        const failed = run.checks.find((check) => check.name === checkName);
        expect(
          failed,
          run.checks
            .filter((check) => check.fails > 0)
            .map((check) => check.name)
            .join(', '),
        ).toBeDefined();
        // Every decide breaks the rule, so every judgement of it fails; the check rate falls below the threshold.
        expect(failed!.passes).toBe(0);
        expect(failed!.fails).toBeGreaterThan(0);
        expect(run.check_rate).toBeLessThan(0.99);
        expect(run.passed).toBe(false);
        expect(failed!.rule).toMatch(new RegExp(`^${checkName.split(' ')[1]}: .+ \\(seed [0-9., ]+\\)$`));
        expect(failed!.example).toMatchObject({ request: expect.stringMatching(/^POST \/v1\/decide \(X-Request-ID load\.decide-steady\./), status: 200 });
        expect(failed!.example!.expected.length).toBeGreaterThan(0);
        expect(failed!.example!.body_excerpt.length).toBeGreaterThan(0);
        // The other rules still hold: the fault is named, not drowned among others.
        expect(run.checks.filter((check) => check.fails > 0).map((check) => check.name)).toEqual([checkName]);
      } finally {
        await proxy.close();
      }
    },
  );

  test.skipIf(generator === 'k6' && !k6)('the reference server passes every rule; every response is validated', { timeout: 60_000 }, async () => {
    const run = await runAgainst(target.baseUrl);
    expect(run.checks.filter((check) => check.fails > 0)).toEqual([]);
    expect(run.check_rate).toBe(1);
    expect(run.validation).toEqual({ every: 1, validated: run.requests });
    expect(run.checks.map((check) => check.name)).toEqual(
      expect.arrayContaining(['decide contract-body', 'decide answer-ids', 'decide choice-margin', 'decide option-ids']),
    );
  });
});

test('the load report names a failed check by its rule, with the example exchange, in results.json, summary.md and report.html', {
  timeout: 60_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'load-judged-'));
  const proxy = await startMutatingProxy(target.baseUrl, onDecide(shiftedMargins));
  try {
    const ran = await runLoadCommand(
      'run',
      '--scenario',
      'decide-steady',
      '--base-url',
      proxy.baseUrl,
      '--api-key',
      target.keyA,
      '--node',
      '--repeat',
      '1',
      '--duration',
      '2',
      '--rate',
      '20',
      '--report-dir',
      dir,
    );
    expect(ran.code, ran.out + ran.err).toBe(1);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { load: { runs: LoadRun[] } };
    const check = results.load.runs[0]!.checks.find((entry) => entry.name === 'decide choice-margin')!;
    expect(check.example).toBeDefined();
    const summary = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(summary).toContain('**Failed checks by rule**');
    expect(summary).toMatch(
      /`decide choice-margin` failed \d+ of \d+ \(choice-margin: confidence is the top-1 minus the top-2 probability \(seed 2\.4\)\) — e\.g\. `POST \/v1\/decide \(X-Request-ID load\.decide-steady\./,
    );
    expect(summary).toContain('Body and answers validated on every response');
    const report = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(report).toContain('Failed checks by rule');
    expect(report).toContain(check.example!.expected.replace(/</g, '&lt;'));
  } finally {
    await proxy.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

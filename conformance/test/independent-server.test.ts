// The kit's verdicts trusted both ways: a second, independent implementation of the text-only
// API (harness/testing/independent-server.ts, written from the seed with its own choice on every
// open point) passes the whole catalogue with no capability claimed: no MUST check fails and no
// MUST response rule is broken. The OBSERVE results whose observation differs from the reference
// choice are printed, to show that the choices really differ.

import { afterAll, beforeAll, expect, test } from 'vitest';
import { checks } from '../registry.ts';
import type { Capability, CheckResult } from '../../harness/check.ts';
import { runChecks } from '../../harness/runner.ts';
import { createRuleLedger } from '../../harness/response-rules/ledger.ts';
import { barrierDuringConcurrentChecks } from '../../harness/testing/burst-barrier.ts';
import { checks as coverageChecks } from '../../coverage/checks.ts';
import { startIndependentServer, type IndependentServer } from '../../harness/testing/independent-server.ts';

let server: IndependentServer;
let results: CheckResult[] = [];
let rules: CheckResult[] = [];
let elapsedMs = 0;

beforeAll(async () => {
  server = await startIndependentServer();
  const ledger = createRuleLedger();
  const started = performance.now();
  // The conformance catalogue and the coverage phase, as a default run has them.
  results = await runChecks([...checks, ...coverageChecks], {
    target: { baseUrl: server.baseUrl, capabilities: new Set<Capability>([]), hasSecondKey: true },
    keyA: server.keyA,
    keyB: server.keyB,
    timeoutMs: 10_000,
    ruleLedger: ledger,
    // This server runs in the test's own process: on a busy machine it can answer the first request
    // of a burst before the second is sent. The barrier makes the concurrent checks' overlap certain.
    ...barrierDuringConcurrentChecks(server.server),
  });
  elapsedMs = performance.now() - started;
  rules = ledger.results();
}, 120_000);

afterAll(async () => {
  await server?.close();
});

const count = (list: readonly CheckResult[], status: CheckResult['status']) => list.filter((result) => result.status === status).length;
const described = (list: readonly CheckResult[]) => list.map((result) => `${result.id}: ${result.message ?? '(no message)'}`).join('\n');

// This server was how two checks were found to fail a server for open choices (a choice question
// needing two options, id-format-and-count; feedback answered 204 with no body, feedback-shape):
// both were fixed in the checks, and this test keeps them fixed.
test('no MUST check fails against the independent server', () => {
  const failed = results.filter((result) => result.level === 'MUST' && result.status === 'fail');
  expect(
    failed.map((result) => result.id),
    `MUST checks failed:\n${described(failed)}`,
  ).toEqual([]);
});

test('no MUST response rule is broken by the independent server', () => {
  const broken = rules.filter((rule) => rule.level === 'MUST' && rule.status === 'fail');
  expect(
    broken.map((rule) => rule.id),
    `MUST response rules broken:\n${described(broken)}`,
  ).toEqual([]);
});

test('the catalogue really ran: most checks that apply to a text-only server passed, and every rule judged something', () => {
  const summary = `${results.length} checks in ${Math.round(elapsedMs)} ms: ${count(results, 'pass')} passed, ${count(results, 'fail')} failed, ${count(results, 'skip')} skipped, ${count(results, 'observed')} observed; rules: ${count(rules, 'pass')} held, ${count(rules, 'fail')} broken, ${count(rules, 'observed')} observed, ${count(rules, 'skip')} judged nothing`;
  console.log(summary);
  const failedShould = results.filter((result) => result.level === 'SHOULD' && result.status === 'fail');
  if (failedShould.length > 0) console.log(`SHOULD checks failed (reported, not asserted):\n${described(failedShould)}`);
  expect(count(results, 'pass'), summary).toBeGreaterThanOrEqual(60);
  expect(count(results, 'observed'), summary).toBeGreaterThanOrEqual(10);
  const judged = rules.filter((rule) => rule.status !== 'skip');
  expect(judged.length, summary).toBeGreaterThanOrEqual(rules.length - 1);
  // The concurrency checks need answers that came together: the barrier in front of the server gives them.
  const concurrent = results.filter((result) => result.concurrent && result.level === 'MUST' && !result.requires?.capabilities && !result.requires?.secondKey);
  expect(
    concurrent.filter((result) => result.status === 'skip').map((result) => `${result.id}: ${result.message}`),
    'concurrency checks skipped for lack of overlap',
  ).toEqual([]);
});

test('its choices differ from the reference server: the OBSERVE results that do not match the reference', () => {
  const differing = results.filter((result) => result.status === 'observed' && result.observation?.matchesReference === false);
  console.log(
    `OBSERVE results differing from the reference (${differing.length} of ${count(results, 'observed')}):\n${differing
      .map((result) => `- ${result.id} [${result.openPoint ?? '-'}]: ${result.observation!.summary}`)
      .join('\n')}`,
  );
  expect(differing.length).toBeGreaterThanOrEqual(8);
});

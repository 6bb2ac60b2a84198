// Verdicts trusted both ways: the bundled server in its alternate profile makes, on the open
// points, the other choices the seed equally allows. Every check of the three suites must give it
// no MUST failure; a check that did would be judging a reference choice, not the seed. The same
// run, recorded, replays against a fresh server of that profile with no change (the replay gate
// is switched off by no choice of the profile; replay/test/self-replay.test.ts does the reference's).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { planOf } from '../../api/index.ts';
import { executeRun, type RunOutcome } from '../../api/run.ts';
import { checks as conformanceChecks } from '../../conformance/registry.ts';
import { checks as coverageChecks } from '../../coverage/checks.ts';
import { ALL_CAPABILITIES, type CheckResult } from '../../harness/check.ts';
import { runChecks } from '../../harness/runner.ts';
import { barrierDuringConcurrentChecks } from '../../harness/testing/burst-barrier.ts';
import { propertyChecks } from '../../property/registry.ts';
import { readRecordedExchanges } from '../../replay/recorded.ts';
import { replayAgainst } from '../../replay/scripts/replay-against.ts';
import { openPoints } from '../../spec/index.ts';
import { runnerTargetOf, startEmbeddedTarget, type EmbeddedTarget } from '../../api/embedded-target.ts';

let target: EmbeddedTarget;
let reportDir: string;
let run: RunOutcome;
let property: CheckResult[];
beforeAll(async () => {
  target = await startEmbeddedTarget({ profile: 'alternate' });
  reportDir = mkdtempSync(join(tmpdir(), 'decision-alternate-'));
  // A run as the command line makes it, with the server in this process: the barrier makes the
  // concurrent checks' overlap certain on a busy machine.
  run = await executeRun(
    planOf({
      baseUrl: target.baseUrl,
      apiKey: target.keyA,
      apiKeyB: target.keyB,
      expiry: { apiKey: target.keyShortTtl, ttlSeconds: target.shortTtlMs / 1000 },
      suites: ['conformance', 'coverage'],
      timeoutMs: 10_000,
      seed: 20_261_123,
      reportDir,
    }),
    barrierDuringConcurrentChecks(target.server),
  );
  // The property suite apart, as a run leaves it out by default: its recorded exchanges do not all
  // replay as they ran yet (replay/README.md), which is replay's to mend, not this claim's.
  property = await runChecks(propertyChecks, {
    ...runnerTargetOf(target),
    timeoutMs: 10_000,
    workers: 16,
    checkTimeoutMs: 60_000,
    seed: 20_261_123,
    numRuns: 60,
    ...barrierDuringConcurrentChecks(target.server),
  });
}, 240_000);
afterAll(async () => {
  await target?.stop();
  if (reportDir) rmSync(reportDir, { recursive: true, force: true });
});

test('every conformance, coverage and property check gives the alternate profile 0 MUST failures', () => {
  const checkIds = new Set([...conformanceChecks, ...coverageChecks, ...propertyChecks].map((check) => check.id));
  const results = [...run.results, ...property].filter((result) => checkIds.has(result.id));
  expect(results.length).toBe(checkIds.size);
  // The response rules judged every exchange of the run too; none of them is broken by an alternate choice.
  const mustFailures = [...run.results, ...property].filter((result) => result.level === 'MUST' && result.status !== 'pass' && result.status !== 'skip');
  expect(mustFailures.map((result) => `${result.id}: ${result.message ?? result.status}`)).toEqual([]);
  expect(run.exitCode).toBe(0);
  // The concurrency checks ran on a real overlap (the barrier's): none was skipped for want of one.
  const concurrencyNotPassed = results.filter((result) => result.area === 'concurrency' && result.level === 'MUST' && result.status !== 'pass');
  expect(concurrencyNotPassed.map((result) => `${result.id}: ${result.message ?? result.status}`)).toEqual([]);
  // The alternate profile really differs: the checks that look at its choices see them.
  const observed = results.filter((result) => result.status === 'observed' && result.observation?.matchesReference === false).map((result) => result.id);
  expect(observed).toEqual(
    expect.arrayContaining([
      'DECIDE-SUCCESS-STATUS',
      'MODELS-SHAPE',
      'REQID-INVALID-CALLER-ID',
      'ERRORS-UNKNOWN-ROUTE-STATUS',
      'ASSET-SHA256-ENCODING',
      'ASSET-EXPIRED-READ',
      'ASSET-DELETED-CODE',
      'ASSET-MEDIA-TYPE-PARAMETERS',
      'ASSET-MEDIA-TYPE-CASE',
    ]),
  );
});

test('the run, recorded, replays against a fresh server of the alternate profile with no change', async () => {
  const resultsFile = join(reportDir, 'results.json');
  expect(readFileSync(resultsFile, 'utf8')).not.toContain(target.keyA);
  const exchanges = readRecordedExchanges(resultsFile);
  expect(exchanges.some((exchange) => exchange.credential?.project === 'expiry')).toBe(true);
  const report = await replayAgainst(resultsFile, 'alternate');
  const changed = report.verdicts.filter((verdict) => verdict.kind === 'changed');
  expect(changed.map((verdict) => `${verdict.exchange.checkId} #${verdict.exchange.index}: ${verdict.changes.join('; ')}`)).toEqual([]);
  expect(report.counts.replayed).toBeGreaterThan(500);
}, 240_000);

// Alternates served only alone (x-alternate-choice.served_alone) would hide another alternate in
// the profile as a whole: each is run on its own, with every conformance and coverage check.
for (const point of openPoints.filter((entry) => entry.alternateChoice.served_alone)) {
  test(`every conformance and coverage check gives the alternate of ${point.id}, chosen alone, 0 MUST failures`, async () => {
    const alone = await startEmbeddedTarget({ choices: { [point.id]: 'alternate' } });
    try {
      const results = await runChecks([...conformanceChecks, ...coverageChecks], {
        target: {
          baseUrl: alone.baseUrl,
          capabilities: new Set(ALL_CAPABILITIES),
          hasSecondKey: true,
          shortTtl: { key: alone.keyShortTtl, ttlMs: alone.shortTtlMs },
        },
        keyA: alone.keyA,
        keyB: alone.keyB,
        timeoutMs: 10_000,
        checkTimeoutMs: 60_000,
        seed: 20_261_123,
        numRuns: 20,
      });
      const mustFailures = results.filter((result) => result.level === 'MUST' && result.status !== 'pass' && result.status !== 'skip');
      expect(mustFailures.map((result) => `${result.id}: ${result.message ?? result.status}`)).toEqual([]);
    } finally {
      await alone.stop();
    }
  }, 240_000);
}

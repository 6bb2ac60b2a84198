// Verdicts trusted both ways: the bundled server in its alternate profile makes, on the open
// points, the other choices the seed equally allows. Every check of the three suites must give it
// no MUST failure; a check that did would be judging a reference choice, not the seed.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checks as conformanceChecks } from '../../conformance/registry.ts';
import { checks as coverageChecks } from '../../coverage/checks.ts';
import { ALL_CAPABILITIES } from '../../harness/check.ts';
import { runChecks } from '../../harness/runner.ts';
import { barrierDuringConcurrentChecks } from '../../harness/testing/burst-barrier.ts';
import { propertyChecks } from '../../property/registry.ts';
import { openPoints } from '../../spec/index.ts';
import { runnerTargetOf, startEmbeddedTarget, type EmbeddedTarget } from '../../api/embedded-target.ts';

let target: EmbeddedTarget;
beforeAll(async () => {
  target = await startEmbeddedTarget({ profile: 'alternate' });
});
afterAll(async () => target.stop());

test('every conformance, coverage and property check gives the alternate profile 0 MUST failures', async () => {
  const results = await runChecks([...conformanceChecks, ...coverageChecks, ...propertyChecks], {
    ...runnerTargetOf(target),
    timeoutMs: 10_000,
    // As a run has them by default: what these checks find does not depend on it (api/test/workers.test.ts).
    workers: 16,
    checkTimeoutMs: 60_000,
    seed: 20_261_123,
    numRuns: 60,
    // The server runs in this process: the barrier makes the concurrent checks' overlap certain on a busy machine.
    ...barrierDuringConcurrentChecks(target.server),
  });
  expect(results.length).toBe(conformanceChecks.length + coverageChecks.length + propertyChecks.length);
  const mustFailures = results.filter((result) => result.level === 'MUST' && result.status !== 'pass' && result.status !== 'skip');
  expect(mustFailures.map((result) => `${result.id}: ${result.message ?? result.status}`)).toEqual([]);
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

// A gate that fails an unchanged server is switched off: a full run of the bundled server,
// replayed against the same server version, reports no change (the alternate profile's run is
// replayed in cli/test/profiles.test.ts, which makes that run for its own claim). Key
// variants are rebuilt from the keys replay is given, bursts are sent together (or skipped when
// their outcome was a race), expiry keeps the old run's wait, and each request goes with the key
// of the project the recording names. Against the other profile, every change is labelled with
// the open point whose other choice it is.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runKitCommand } from '../../harness/testing/kit-command.ts';
import { OVERLAP_RACE } from '../groups.ts';
import { readRecordedExchanges } from '../recorded.ts';
import { replayAgainst } from '../scripts/replay-against.ts';
import type { ReplayReport } from '../replay.ts';

const FULL_RUN_MS = 600_000;

/** One recorded run of the reference profile, replayed against both profiles. */
let recording: Promise<string> | undefined;
function recordedRun(): Promise<string> {
  recording ??= recordFullRun();
  return recording;
}

async function recordFullRun(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'decision-self-replay-reference-'));
  const run = await runKitCommand(['run', '--quiet', '--report-dir', dir]);
  expect(run.code, run.err).not.toBe(2);
  return join(dir, 'results.json');
}

const changedOf = (report: ReplayReport) => report.verdicts.filter((verdict) => verdict.kind === 'changed');

describe('a full run of the reference profile', () => {
  test(
    'replays against the same server version with no change',
    async () => {
      const resultsFile = await recordedRun();
      const text = readFileSync(resultsFile, 'utf8');
      const exchanges = readRecordedExchanges(resultsFile);
      // Near misses are recorded as what made them, never as the key.
      expect(exchanges.some((exchange) => exchange.checkId === 'AUTH-KEY-NEAR-MISS' && exchange.credential?.variant === 'last-char-changed')).toBe(true);
      expect(exchanges.some((exchange) => exchange.checkId === 'AUTH-SCHEME-CASE-INSENSITIVE' && exchange.credential?.variant === 'scheme-lowercase')).toBe(
        true,
      );
      expect(exchanges.some((exchange) => exchange.credential?.project === 'b')).toBe(true);
      expect(exchanges.some((exchange) => exchange.credential?.project === 'expiry')).toBe(true);
      expect(exchanges.some((exchange) => exchange.overlapGroup !== undefined)).toBe(true);
      expect(text).not.toMatch(/svc_live_(?!\*\*\*)[a-z]+_[0-9a-f]{22,25}/i);

      const report = await replayAgainst(resultsFile, 'reference');
      expect(changedOf(report).map((verdict) => `${verdict.exchange.checkId} #${verdict.exchange.index}: ${verdict.changes.join('; ')}`)).toEqual([]);
      expect(report.counts.replayed).toBeGreaterThan(500);
      // Bursts were sent together again; those with the deletion of the asset they use are skipped by name.
      expect(report.verdicts.some((verdict) => verdict.kind === 'same' && verdict.exchange.overlapGroup !== undefined)).toBe(true);
      expect(report.skipReasons[OVERLAP_RACE] ?? 0).toBeGreaterThan(0);
      // Expiry was waited for: the decide on the expired asset was replayed, not skipped.
      expect(
        report.verdicts.some(
          (verdict) => verdict.kind === 'same' && verdict.exchange.checkId === 'ASSET-EXPIRED-REFERENCE' && verdict.exchange.credential?.project === 'expiry',
        ),
      ).toBe(true);
    },
    FULL_RUN_MS,
  );
});

test(
  'a reference-profile run replayed against the alternate profile: every change is labelled with an open point',
  async () => {
    const report = await replayAgainst(await recordedRun(), 'alternate');
    const changed = changedOf(report);
    expect(changed.length).toBeGreaterThan(0);
    const unlabelled = changed.filter((verdict) => verdict.openPoints === undefined);
    expect(unlabelled.map((verdict) => `${verdict.exchange.checkId}: ${verdict.changes.join('; ')}`)).toEqual([]);
    // The alternate profile's best-known choice is seen and named.
    expect(changed.some((verdict) => verdict.changes.includes('status 200 became 201') && verdict.openPoints?.includes('decide-success-status'))).toBe(true);
  },
  FULL_RUN_MS,
);

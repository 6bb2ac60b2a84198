// Replays full runs of the bundled server against the same server version, several times per
// profile, and prints what changed and what was skipped, by reason: an unchanged server must
// keep every outcome, every time. Also replays each reference-profile run against the alternate
// profile, where every change must be one of that profile's open-point choices.
// Usage: npx tsx replay/scripts/self-replay.ts [RUNS_PER_PROFILE, default 10] [PROFILE…, default both]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runKitCommand } from '../../harness/testing/kit-command.ts';
import { PROFILE_NAMES, type ProfileName } from '../../reference-impl/server/profile.ts';
import { terminalText } from '../../reports/escape.ts';
import { changeLabel } from '../format.ts';
import { replayAgainst } from './replay-against.ts';
import type { ReplayReport } from '../replay.ts';

const runs = Number(process.argv[2] ?? 10);
const profiles = (process.argv.length > 3 ? process.argv.slice(3) : PROFILE_NAMES) as ProfileName[];
for (const profile of profiles) if (!PROFILE_NAMES.includes(profile)) throw new Error(`no profile ${profile}: ${PROFILE_NAMES.join(' or ')}`);

function summary(report: ReplayReport): string {
  const lines = [`  ${report.counts.changed} changed of ${report.counts.replayed} replayed; ${report.counts.skipped} skipped`];
  for (const verdict of report.verdicts)
    if (verdict.kind === 'changed')
      lines.push(`  CHANGED #${verdict.exchange.index} ${terminalText(changeLabel(verdict))}: ${verdict.changes.map(terminalText).join('; ')}`);
  for (const [reason, count] of Object.entries(report.skipReasons)) lines.push(`  skipped ${count}: ${terminalText(reason)}`);
  return lines.join('\n');
}

const unchanged: Record<string, number> = {};
let crossUnlabelled = 0;
for (const profile of profiles) {
  unchanged[profile] = 0;
  for (let round = 1; round <= runs; round += 1) {
    const dir = mkdtempSync(join(tmpdir(), 'decision-self-replay-'));
    try {
      const run = await runKitCommand(['run', '--quiet', '--report-dir', dir, '--reference-profile', profile]);
      if (run.code === 2 || run.code === null) throw new Error(`run of profile ${profile} did not complete: ${run.err}`);
      const resultsFile = join(dir, 'results.json');
      const report = await replayAgainst(resultsFile, profile);
      if (report.counts.changed === 0) unchanged[profile] += 1;
      console.log(`${profile} run ${round} replayed against ${profile}:\n${summary(report)}`);
      if (profile === 'reference') {
        const cross = await replayAgainst(resultsFile, 'alternate');
        const unlabelled = cross.verdicts.filter((verdict) => verdict.kind === 'changed' && verdict.openPoints === undefined).length;
        crossUnlabelled += unlabelled;
        console.log(`${profile} run ${round} replayed against alternate (${unlabelled} changes not of an open point):\n${summary(cross)}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
for (const profile of profiles) console.log(`${profile}: ${unchanged[profile]} of ${runs} self-replays reported 0 changes`);
if (profiles.includes('reference')) console.log(`reference runs replayed against alternate: ${crossUnlabelled} changes not of an open point`);

// load compare on real runs: the alternate profile compared with itself, p99 judged, is not
// flagged (its own server, answering in 25 ms; compared-runs.ts says how these proofs hold on a
// busy machine).
import { test } from 'vitest';
import { interleavedRuns } from '../interleave.ts';
import { warmUp } from '../run.ts';
import { startKeyedServer } from '../server-process.ts';
import { expectQuietWithTail, QUIET_RUNS_PER_SIDE, startQuietServerProxy, TAIL_RUN } from './compared-runs.ts';
import { settingsFor } from './support.ts';

test('the alternate profile compared with itself, p99 judged, is not flagged', { timeout: 90_000 }, async () => {
  const alternate = await startKeyedServer({ serverOptions: ['--rate-limit', '1000000/1000000', '--profile', 'alternate'] });
  const quiet = await startQuietServerProxy(alternate.baseUrl);
  try {
    await warmUp('soak', settingsFor(quiet.baseUrl, alternate.key, TAIL_RUN));
    const side = { baseUrl: quiet.baseUrl, apiKey: alternate.key };
    expectQuietWithTail(
      await interleavedRuns({ scenario: 'soak', baseline: side, candidate: side, settings: TAIL_RUN, repeat: QUIET_RUNS_PER_SIDE, warm: false }),
    );
  } finally {
    await quiet.close();
    await alternate.stop();
  }
});

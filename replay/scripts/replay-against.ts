// A recorded run replayed against a fresh bundled server of one profile, with the keys of its
// three projects (A, B and the short-lifetime one): what the self-replay test and script share.
import { startEmbeddedTarget } from '../../api/embedded-target.ts';
import type { ProfileName } from '../../reference-impl/server/profile.ts';
import { readRecordedExchanges } from '../recorded.ts';
import { replay, type ReplayReport } from '../replay.ts';

export async function replayAgainst(resultsFile: string, profile: ProfileName): Promise<ReplayReport> {
  const target = await startEmbeddedTarget({ profile });
  try {
    return await replay(readRecordedExchanges(resultsFile), {
      baseUrl: target.baseUrl,
      keyA: target.keyA,
      keyB: target.keyB,
      keyExpiry: target.keyShortTtl,
      timeoutMs: 30_000,
    });
  } finally {
    await target.stop();
  }
}

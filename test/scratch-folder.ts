// Vitest's global setup: one temporary folder for the whole test run, removed at its end. Tests,
// the servers and tools they start (npm, k6, the browser) write their scratch files under the
// operating system's temporary folder (os.tmpdir(), which TMPDIR sets); a test that fails or
// times out before its own clean-up would otherwise leave them there, run after run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Set while the run's folder is TMPDIR: each project of vitest.config.ts runs the global setup, and the first one makes the folder. */
const MARK = 'DECISION_KIT_TEST_SCRATCH';

export default function scratchFolder(): () => void {
  if (process.env[MARK]) return () => {};
  const previous = process.env.TMPDIR;
  const folder = mkdtempSync(join(tmpdir(), 'decision-kit-tests-'));
  // Set before the workers start: they, and every process they start, inherit it.
  process.env.TMPDIR = folder;
  process.env[MARK] = folder;
  return () => {
    delete process.env[MARK];
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(folder, { recursive: true, force: true });
  };
}

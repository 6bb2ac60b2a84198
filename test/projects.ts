// How the kit's own test files are grouped into Vitest projects (vitest.config.ts), and why.

/**
 * Files whose verdicts need a machine with CPU to spare: the generator verdict draws no "bound"
 * on a full machine (it says "unproven"), and the split-run proof compares latency intervals of
 * runs taken minutes apart. They run alone, after the rest. So does the self-comparison of
 * `load compare`, whose claim is about one busy core, not about the bursts of other test files
 * beside it; the other proofs of `load compare` are built to hold on a busy machine
 * (load/test/compared-runs.ts) and run with the rest.
 */
export const MEASURING = ['load/test/distributed-run.test.ts', 'load/test/generator-bound.test.ts', 'load/test/compare-self.test.ts'];

/**
 * Files that need a process of their own, whatever their length: they read the memory of their
 * own process, which garbage the files before them left behind moves (in a shared worker, the
 * resident set grew 161 MB for a 256 MiB buffer, the earlier garbage collected meanwhile).
 * test/projects.test.ts finds every file that reads its process's memory or mocks a module and
 * holds it to this list.
 */
export const ISOLATED = ['reference-impl/test/assets-decode-budget.test.ts', 'load/test/soak-drift.test.ts'];

/**
 * The files that run in a process of their own: those of ISOLATED, and the long ones (those
 * test/durations.json records, 3 s or more). The short ones share their worker's process with
 * the files before them (Vitest's `isolate: false`): they spend most of their time importing, and
 * the modules they import (the spec, its compiled validators, the catalogue) are then evaluated
 * once per worker instead of once per file (the 124 files under 5 s: 88 s and 173 s of CPU
 * isolated, 53 s and 104 s shared, in one session). A long file pays its imports once against
 * seconds of work, and in a shared process it would run on the heap its predecessors left (the
 * spec diff's witness tests took 31 s there instead of 18). Sharing is safe for a file that
 * restores what it changes in its process (environment variables, timers, spies).
 */
export function isolatedFiles(recordedSeconds: Record<string, number>): string[] {
  return [...new Set([...ISOLATED, ...Object.keys(recordedSeconds)])].filter((file) => !MEASURING.includes(file));
}

/** What makes a test file need a process of its own: it reads its process's memory, or replaces a module for the whole process. */
export const NEEDS_ISOLATION = /process\.memoryUsage|\bvi\.(?:mock|doMock|hoisted)\(/;

// The order the kit's own test files start in: the longest first, so that no long file starts last
// and runs on alone while the other workers idle (on two cores, a 100 s file started last added
// over a minute to the run). Vitest orders by the durations it cached on this machine, or by file
// size where it has none, as on a fresh clone in CI; the durations recorded in durations.json
// stand in for that cache. Files not recorded keep Vitest's own order, after the recorded ones.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Seconds each long test file took in a recorded run (test/durations.json, written by test/durations-reporter.ts). */
export function recordedDurations(): Record<string, number> {
  const recorded = JSON.parse(readFileSync(new URL('./durations.json', import.meta.url), 'utf8')) as { seconds: Record<string, number> };
  return recorded.seconds;
}

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = recordedDurations();
    const recorded = (spec: TestSpecification) => seconds[relative(ROOT, spec.moduleId)] ?? 0;
    const group = (spec: TestSpecification) => spec.project.config.sequence.groupOrder;
    // Array sort is stable: files of equal weight keep Vitest's own order.
    return [...(await super.sort(files))].sort((a, b) => group(a) - group(b) || recorded(b) - recorded(a));
  }
}

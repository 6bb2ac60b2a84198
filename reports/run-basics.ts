// What every kind of run has in its results.json (conformance, load, cold-start): the schema
// version, the kind, the kit and the spec, and when it ran. run-report.ts (the conformance run,
// and the union of every kind) and load-report.ts (the load and cold-start kinds) both build on
// this module, which imports neither of them.
import { specSha256, specVersion } from '../spec/index.ts';
import { kitIdentity, type KitIdentity } from './kit-identity.ts';

/**
 * Bumped only by breaking changes to results.json; fields may be added within a version (see README.md).
 * 2: every file says its `kind`, and load and cold-start runs no longer carry a conformance run's fields.
 */
export const RESULTS_SCHEMA_VERSION = 2;

/** The kinds of run a results.json can hold (RunReport in run-report.ts: one model per kind). */
export type RunKind = 'conformance' | 'load' | 'cold-start';

/** The fields every kind of run has. */
export interface RunBasics {
  schema_version: typeof RESULTS_SCHEMA_VERSION;
  kit: KitIdentity;
  spec: { version: string; sha256: string };
  started_at: string;
  finished_at: string;
  duration_ms: number;
}

/** The first fields of every results.json: its version and kind, the kit and the spec. */
export function runHead<K extends RunKind>(kind: K): Pick<RunBasics, 'schema_version' | 'kit' | 'spec'> & { kind: K } {
  return { schema_version: RESULTS_SCHEMA_VERSION, kind, kit: { ...kitIdentity }, spec: { version: specVersion, sha256: specSha256 } };
}

/** When a run started and finished, and how long it took. */
export function runTimes(startedAt: Date, finishedAt: Date): Pick<RunBasics, 'started_at' | 'finished_at' | 'duration_ms'> {
  return { started_at: startedAt.toISOString(), finished_at: finishedAt.toISOString(), duration_ms: milliseconds(finishedAt.getTime() - startedAt.getTime()) };
}

/** Durations to a tenth of a millisecond: finer digits are timer noise and make reports harder to diff. */
export function milliseconds(ms: number): number {
  return Math.max(0, Math.round(ms * 10) / 10);
}

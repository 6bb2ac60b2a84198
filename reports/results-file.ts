// Reading a results.json back (a report folder, or the file itself): what `load compare`,
// `load run --from-results` and `load history add` start from. Messages name the file and say
// what is wrong in one line; callers put their flag or command in front.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadSection } from './load-run.ts';
import { REPORT_FILES } from './write.ts';

export class ResultsFileError extends Error {}

/** The parsed results.json of a report folder (or given directly). */
export function readResultsFile(path: string): { file: string; parsed: unknown } {
  let file = path;
  try {
    if (statSync(path).isDirectory()) file = join(path, REPORT_FILES.json);
  } catch {
    throw new ResultsFileError(`${path}: no such folder or file`);
  }
  try {
    return { file, parsed: JSON.parse(readFileSync(file, 'utf8')) as unknown };
  } catch (error) {
    throw new ResultsFileError(`${file}: not a readable results.json (${(error as Error).message})`);
  }
}

/** A load run's results (or one written before runs had a kind), with at least one run. */
export function readLoadResults(path: string): { file: string; results: { kind?: string; load: LoadSection } & Record<string, unknown> } {
  const { file, parsed } = readResultsFile(path);
  const { kind, load } = (parsed ?? {}) as { kind?: string; load?: LoadSection };
  if (kind !== undefined && kind !== 'load') throw new ResultsFileError(`${file} holds a ${kind} run, not a load run (write one with "load run")`);
  if (!load || !Array.isArray(load.runs) || load.runs.length === 0) throw new ResultsFileError(`${file} has no load runs (write one with "load run")`);
  return { file, results: parsed as { kind?: string; load: LoadSection } & Record<string, unknown> };
}

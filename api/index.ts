// The kit as a library: runConformance(options) runs the suites against a server and returns the
// run's results, the same object as results.json. Its options are those of `decision-conformance run`.
import type { CheckResult } from '../harness/check.ts';
import type { ConformanceRunReport } from '../reports/run-report.ts';
import { executeRun } from './run.ts';
import { validateRunOptions, type RunOptions, type RunPlan } from './run-options.ts';
import { checkSelection } from './selection.ts';

export type { Capability, CheckResult, Level, CheckStatus } from '../harness/check.ts';
export type { CheckReport, ConformanceRunReport, RunSummary } from '../reports/run-report.ts';
export { ConformanceOptionsError, suitesOf, type Suite } from './run-options.ts';
export { MissingPartError } from './optional-parts.ts';
export { checkSelection } from './selection.ts';

/** The options of `decision-conformance run`, by the names of its flags. */
export interface ConformanceOptions extends Omit<RunOptions, 'expiry'> {
  /** A key of a project whose assets expire quickly, with that lifetime (at most 60 s). */
  expiry?: { apiKey: string; ttlSeconds: number };
  /** Called with each check's result as soon as it and every check before it in the catalogue are known. */
  onResult?(result: CheckResult): void;
  /** Called with the lines the command line prints before the checks (target, seed, warm-up). */
  onLine?(text: string): void;
}

/**
 * The run the options describe, checked as the command line checks its flags: the same defaults,
 * and the same refusals, named by flag. Keys come from the environment only for a server of one's own.
 */
export function planOf(options: ConformanceOptions, env: NodeJS.ProcessEnv = process.env): RunPlan {
  checkSelection(options);
  return validateRunOptions(options, { env: options.baseUrl === undefined ? {} : env });
}

/**
 * Runs the suites against the server the options name and returns results.json's content. A
 * server that cannot be reached, or refuses a key, gives results whose warmup says why (ok: false)
 * and no checks. Options the command line would refuse throw a ConformanceOptionsError.
 */
export async function runConformance(options: ConformanceOptions = {}): Promise<ConformanceRunReport> {
  const outcome = await executeRun(planOf(options), {
    ...(options.onLine ? { line: options.onLine } : {}),
    ...(options.onResult ? { onResult: options.onResult } : {}),
  });
  return outcome.report;
}

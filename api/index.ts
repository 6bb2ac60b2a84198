// The kit as a library: runConformance(options) runs the suites against a server and returns the
// run's results, the same object as results.json. Its options are those of `decision-conformance run`.
import type { Capability, CheckResult } from '../harness/check.ts';
import type { ConformanceRunReport } from '../reports/run-report.ts';
import { parseRunArgs, parseSuites, UsageError, type Suite } from '../cli/args.ts';
import { selectionProblem } from '../cli/selection.ts';
import { catalogueOf } from '../cli/suites.ts';
import type { ChoiceOverrides, ProfileName } from '../reference-impl/server/profile.ts';
import { executeRun, type RunPlan } from './run.ts';

export type { Capability, CheckResult, Level, CheckStatus } from '../harness/check.ts';
export type { CheckReport, ConformanceRunReport, RunSummary } from '../reports/run-report.ts';
export type { Suite } from '../cli/args.ts';
export { UsageError as ConformanceOptionsError } from '../cli/args.ts';
export { MissingPartError } from '../cli/optional-parts.ts';

/** The options of `decision-conformance run`, by the names of its flags. */
export interface ConformanceOptions {
  /** Base address of the server under test; absent: the bundled reference server is started and tested. */
  baseUrl?: string;
  /** A key of project A (default: env DECISION_API_KEY); needed with baseUrl. */
  apiKey?: string;
  /** A key of a second project B, for the isolation checks (default: env DECISION_API_KEY_B). */
  apiKeyB?: string;
  /** A key of a project whose assets expire quickly, with that lifetime (at most 60 s). */
  expiry?: { apiKey: string; ttlSeconds: number };
  /** Suites to run (default: conformance). */
  suites?: Suite[];
  /** What the target implements (default: everything). */
  capabilities?: Capability[];
  /** Run only these check ids. */
  only?: string[];
  /** Report these check ids as skipped. */
  skip?: string[];
  /** Requests the concurrency checks keep in flight together (default DEFAULT_CONCURRENCY, at least 2). */
  concurrency?: number;
  /** Seed of generated inputs (default: random; the results say which). */
  seed?: number;
  /** Generated cases per property of the property suite. */
  numRuns?: number;
  /** Timeout of every request after the warm-up (default 30000). */
  timeoutMs?: number;
  /** How long the first call may take, for cold starts (default 180000). */
  warmupTimeoutMs?: number;
  /** Where to write results.json, junit.xml, report.html and summary.md; absent: no files are written. */
  reportDir?: string;
  /** Without baseUrl: the bundled server's choices on the spec's open points. */
  referenceProfile?: ProfileName;
  /** Without baseUrl: the bundled server's choices on single open points, over the profile's. */
  referenceChoices?: ChoiceOverrides;
  /** Called with each check's result as soon as it is known, in run order. */
  onResult?(result: CheckResult): void;
  /** Called with the lines the command line prints before the checks (target, seed, warm-up). */
  onLine?(text: string): void;
}

/** The suites of the options (default: conformance), checked as --suite is. */
export function suitesOf(options: Pick<ConformanceOptions, 'suites'>): Suite[] {
  return parseSuites(options.suites?.join(','), ['conformance']);
}

/** Throws a UsageError when only or skip names an unknown check, or leaves nothing to run. */
export function checkSelection(options: Pick<ConformanceOptions, 'suites' | 'only' | 'skip'>): void {
  const suites = suitesOf(options);
  const problem = selectionProblem(
    { only: options.only ?? [], skip: options.skip ?? [] },
    catalogueOf(suites).map((check) => check.id),
    suites,
  );
  if (problem) throw new UsageError(problem);
}

/** The options as the command line's flags, each as --name=value (a value may start with a dash). */
function flagsOf(options: ConformanceOptions): string[] {
  const flag = (name: string, value: string | number | undefined) => (value === undefined ? [] : [`--${name}=${value}`]);
  return [
    ...flag('base-url', options.baseUrl),
    ...flag('api-key', options.apiKey),
    ...flag('api-key-b', options.apiKeyB),
    ...flag('expiry-api-key', options.expiry?.apiKey),
    ...flag('expiry-ttl-seconds', options.expiry?.ttlSeconds),
    ...flag('capabilities', options.capabilities?.join(',')),
    ...flag('reference-profile', options.referenceProfile),
    ...Object.entries(options.referenceChoices ?? {}).flatMap(([id, choice]) => flag('reference-choice', `${id}=${choice}`)),
    ...flag('suite', options.suites?.join(',')),
    ...flag('only', options.only?.join(',')),
    ...flag('skip', options.skip?.join(',')),
    ...flag('report-dir', options.reportDir),
    ...flag('timeout-ms', options.timeoutMs),
    ...flag('warmup-timeout-ms', options.warmupTimeoutMs),
    ...flag('concurrency', options.concurrency),
    ...flag('seed', options.seed),
    ...flag('num-runs', options.numRuns),
  ];
}

/**
 * The run the options describe, read by the command line's own parser: the same defaults, and the
 * same refusals, named by flag. Keys come from the environment only for a server of one's own.
 */
export function planOf(options: ConformanceOptions, env: NodeJS.ProcessEnv = process.env): RunPlan {
  checkSelection(options);
  const settings = parseRunArgs(flagsOf(options), options.baseUrl === undefined ? {} : env);
  if (settings === 'help') throw new UsageError('--help is not an option of a run');
  const { quiet: _quiet, verbose: _verbose, ...plan } = settings;
  return plan;
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

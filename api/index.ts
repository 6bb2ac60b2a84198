// The kit as a library: runConformance(options) runs the suites against a server and returns the
// run's results, the same object as results.json. Its options are those of `decision-conformance run`.
import type { Capability, CheckResult } from '../harness/check.ts';
import { DEFAULT_CONCURRENCY } from '../harness/overlap.ts';
import { KEY_VARIABLES } from '../harness/http.ts';
import type { ConformanceRunReport } from '../reports/run-report.ts';
import { parseCapabilities, SUITES, UsageError, type Suite } from '../cli/args.ts';
import { selectionProblem } from '../cli/selection.ts';
import { catalogueOf } from '../cli/suites.ts';
import type { ChoiceOverrides, ProfileName } from '../reference-impl/server/profile.ts';
import { executeRun, type RunPlan } from './run.ts';

export type { Capability, CheckResult, Level, CheckStatus } from '../harness/check.ts';
export type { CheckReport, ConformanceRunReport, RunSummary } from '../reports/run-report.ts';
export type { Suite } from '../cli/args.ts';
export { UsageError as ConformanceOptionsError } from '../cli/args.ts';

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

const positive = (name: string, value: number | undefined, fallback: number): number => {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) throw new UsageError(`${name} must be a positive whole number; got ${value}`);
  return value;
};

/** The suites of the options, checked. */
export function suitesOf(options: Pick<ConformanceOptions, 'suites'>): Suite[] {
  const suites = options.suites ?? ['conformance'];
  for (const suite of suites) if (!SUITES.includes(suite)) throw new UsageError(`unknown suite "${suite}"; available: ${SUITES.join(', ')}`);
  if (suites.length === 0) throw new UsageError(`suites needs at least one of ${SUITES.join(', ')}`);
  return suites;
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

/** The run the options describe, with the command line's defaults and its checks of every value. */
export function planOf(options: ConformanceOptions, env: NodeJS.ProcessEnv = process.env): RunPlan {
  checkSelection(options);
  const baseUrl = options.baseUrl?.replace(/\/+$/, '');
  if (baseUrl !== undefined && !/^https?:\/\/[^/\s]+/.test(baseUrl)) throw new UsageError(`baseUrl must be an http(s) URL; got "${baseUrl}"`);
  const keyA = options.apiKey ?? (baseUrl !== undefined ? env[KEY_VARIABLES.a] : undefined);
  const keyB = options.apiKeyB ?? (baseUrl !== undefined ? env[KEY_VARIABLES.b] : undefined);
  if (baseUrl !== undefined && !keyA) throw new UsageError(`baseUrl needs a key: apiKey or env ${KEY_VARIABLES.a}`);
  if (baseUrl === undefined && (options.apiKey || options.apiKeyB || options.expiry))
    throw new UsageError('keys are only for baseUrl; the bundled reference server makes its own');
  if (baseUrl !== undefined && (options.referenceProfile || options.referenceChoices))
    throw new UsageError('referenceProfile and referenceChoices are for the bundled reference server; they do not apply with baseUrl');
  const concurrency = positive('concurrency', options.concurrency, DEFAULT_CONCURRENCY);
  if (concurrency < 2) throw new UsageError(`concurrency must be at least 2 (requests in flight together); got ${concurrency}`);
  return {
    ...(baseUrl !== undefined ? { baseUrl } : {}),
    referenceProfile: options.referenceProfile ?? 'reference',
    referenceChoices: options.referenceChoices ?? {},
    ...(keyA ? { keyA } : {}),
    ...(keyB ? { keyB } : {}),
    ...(options.expiry ? { expiry: { key: options.expiry.apiKey, ttlMs: positive('expiry.ttlSeconds', options.expiry.ttlSeconds, 1) * 1000 } } : {}),
    suites: suitesOf(options),
    only: options.only ?? [],
    skip: options.skip ?? [],
    capabilities: options.capabilities ? parseCapabilities(options.capabilities.join(',')) : parseCapabilities(undefined),
    ...(options.reportDir !== undefined ? { reportDir: options.reportDir } : {}),
    timeoutMs: positive('timeoutMs', options.timeoutMs, 30_000),
    warmupTimeoutMs: positive('warmupTimeoutMs', options.warmupTimeoutMs, 180_000),
    concurrency,
    seed: positive('seed', options.seed, Math.floor(Math.random() * 2 ** 31)),
    ...(options.numRuns !== undefined ? { numRuns: positive('numRuns', options.numRuns, 1) } : {}),
  };
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

// Options of `decision-conformance run`: flags, then environment, then defaults.
import { parseArgs } from 'node:util';
import { ALL_CAPABILITIES, type Capability } from '../harness/check.ts';
import { DEFAULT_CONCURRENCY } from '../harness/overlap.ts';
import { choiceOverrides, PROFILE_NAMES, type ChoiceOverrides, type ProfileName } from '../reference-impl/server/profile.ts';

export const SUITES = ['conformance', 'property'] as const;
export type Suite = (typeof SUITES)[number];

export interface RunSettings {
  /** Undefined: start the bundled reference server (the embedded default). */
  baseUrl?: string;
  /** The bundled server's choices on the spec's open points (without --base-url only). */
  referenceProfile: ProfileName;
  /** Choices on single open points over that profile's (without --base-url only), e.g. an alternate served only alone. */
  referenceChoices: ChoiceOverrides;
  keyA?: string;
  keyB?: string;
  expiry?: { key: string; ttlMs: number };
  suites: Suite[];
  only: string[];
  skip: string[];
  capabilities: Capability[];
  reportDir?: string;
  timeoutMs: number;
  warmupTimeoutMs: number;
  /** Requests the concurrency checks keep in flight together. */
  concurrency: number;
  seed: number;
  /** Cases per property (the property suite); undefined: each property's default budget. */
  numRuns?: number;
  quiet: boolean;
  verbose: boolean;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

export const RUN_USAGE = `Usage: decision-conformance run [options]

Target (without --base-url, the bundled reference server is started and tested):
  --base-url URL              base address of the server under test
  --api-key KEY               a key of project A (or env DECISION_API_KEY)
  --api-key-b KEY             a key of a second project B, for isolation checks (or env DECISION_API_KEY_B)
  --expiry-api-key KEY        a key of a project whose assets expire quickly (or env DECISION_EXPIRY_API_KEY)
  --expiry-ttl-seconds N      that project's asset lifetime, at most 60 (or env DECISION_EXPIRY_TTL_SECONDS)
  --capabilities LIST         what the target implements: ${ALL_CAPABILITIES.join(',')} (default: all)
  --reference-profile NAME    without --base-url: the bundled server's open-point choices, ${PROFILE_NAMES.join(' or ')} (default reference)
  --reference-choice ID=NAME  without --base-url: the bundled server makes choice NAME (${PROFILE_NAMES.join(' or ')}) on open point ID,
                              over the profile's (repeatable), e.g. upload-body-limit=alternate, an alternate served only alone

Selection:
  --suite LIST                suites to run: ${SUITES.join(',')} (default: conformance)
  --only IDS                  run only these check ids (comma-separated; ids of the selected suites)
  --skip IDS                  report these check ids as skipped (an unknown id is a usage error)

Run:
  --report-dir DIR            where reports go (default: ./reports/out/<timestamp>/ under the current directory)
  --timeout-ms N              timeout of every request after the warm-up (default 30000)
  --warmup-timeout-ms N       how long the first call may take, for cold starts (default 180000)
  --concurrency N             requests the concurrency checks keep in flight together (default ${DEFAULT_CONCURRENCY})
  --seed N                    seed of generated inputs (default: random, printed); with --num-runs, replays a run exactly
  --num-runs N                generated cases per property of the property suite (default: each property's budget)
  --quiet                     print only the summary
  --verbose                   print every request of failing checks
  --help                      this help

Exit status: 0 every MUST check passed; 1 a MUST check failed; 2 usage error (an unknown option,
value or check id, a selection that leaves nothing to run), unreachable target, or a key the
target refuses.`;

const list = (text: string | undefined): string[] =>
  (text ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

function positiveInteger(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new UsageError(`--${name} must be a positive whole number; got "${text}"`);
  return value;
}

/** --concurrency N: at least 2, or nothing could overlap. */
function concurrencyOf(text: string | undefined): number {
  const value = positiveInteger('concurrency', text, DEFAULT_CONCURRENCY);
  if (value < 2) throw new UsageError(`--concurrency must be at least 2 (requests in flight together); got "${text}"`);
  return value;
}

/** --suite LIST: known suite names, comma-separated; `fallback` when the flag is absent. */
export function parseSuites(text: string | undefined, fallback: Suite[]): Suite[] {
  if (text === undefined) return fallback;
  const suites = list(text);
  for (const suite of suites) if (!SUITES.includes(suite as Suite)) throw new UsageError(`unknown suite "${suite}"; available: ${SUITES.join(', ')}`);
  if (suites.length === 0) throw new UsageError(`--suite needs at least one of ${SUITES.join(', ')}`);
  return suites as Suite[];
}

export const LIST_USAGE = `Usage: decision-conformance list-checks [options]

  --suite LIST                suites whose checks to list: ${SUITES.join(',')} (default: all)
  --json                      JSON instead of text
  --help                      this help`;

export interface ListSettings {
  suites: Suite[];
  format: 'text' | 'json';
}

export function parseListArgs(argv: string[]): ListSettings | 'help' {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, strict: true, options: { suite: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean' } } }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return 'help';
  return { suites: parseSuites(values.suite, [...SUITES]), format: values.json ? 'json' : 'text' };
}

/** --capabilities: a comma-separated list of known capabilities; all of them when not given. */
export function parseCapabilities(text: string | undefined): Capability[] {
  const capabilities = text === undefined ? [...ALL_CAPABILITIES] : list(text);
  for (const capability of capabilities) {
    if (!ALL_CAPABILITIES.includes(capability as Capability)) throw new UsageError(`unknown capability "${capability}"; known: ${ALL_CAPABILITIES.join(', ')}`);
  }
  return capabilities as Capability[];
}

/** --reference-profile: a profile of the bundled server, which only applies without --base-url. */
export function parseReferenceProfile(text: string | undefined, baseUrl: string | undefined): ProfileName {
  const referenceProfile = text ?? 'reference';
  if (!(PROFILE_NAMES as readonly string[]).includes(referenceProfile))
    throw new UsageError(`--reference-profile must be ${PROFILE_NAMES.join(' or ')}; got "${referenceProfile}"`);
  if (baseUrl !== undefined && text !== undefined)
    throw new UsageError('--reference-profile is for the bundled reference server; it does not apply with --base-url');
  return referenceProfile as ProfileName;
}

export function parseRunArgs(argv: string[], env: NodeJS.ProcessEnv): RunSettings | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        'base-url': { type: 'string' },
        'api-key': { type: 'string' },
        'api-key-b': { type: 'string' },
        'expiry-api-key': { type: 'string' },
        'expiry-ttl-seconds': { type: 'string' },
        capabilities: { type: 'string' },
        'reference-profile': { type: 'string' },
        'reference-choice': { type: 'string', multiple: true },
        suite: { type: 'string' },
        only: { type: 'string' },
        skip: { type: 'string' },
        'report-dir': { type: 'string' },
        'timeout-ms': { type: 'string' },
        'warmup-timeout-ms': { type: 'string' },
        concurrency: { type: 'string' },
        seed: { type: 'string' },
        'num-runs': { type: 'string' },
        quiet: { type: 'boolean' },
        verbose: { type: 'boolean' },
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return 'help';

  const baseUrl = values['base-url']?.replace(/\/+$/, '');
  if (baseUrl !== undefined && !/^https?:\/\/[^/\s]+/.test(baseUrl)) throw new UsageError(`--base-url must be an http(s) URL; got "${baseUrl}"`);
  const keyA = values['api-key'] ?? env.DECISION_API_KEY;
  const keyB = values['api-key-b'] ?? env.DECISION_API_KEY_B;
  if (baseUrl !== undefined && !keyA) throw new UsageError('--base-url needs a key: --api-key KEY or env DECISION_API_KEY');

  const referenceProfile = parseReferenceProfile(values['reference-profile'], baseUrl);
  if (baseUrl !== undefined && values['reference-choice'] !== undefined)
    throw new UsageError('--reference-choice is for the bundled reference server; it does not apply with --base-url');
  let referenceChoices: ChoiceOverrides;
  try {
    // The bundled server's own parser: the same open-point ids and choice names as its --choice.
    referenceChoices = choiceOverrides(values['reference-choice'] ?? []);
  } catch (error) {
    const message = (error as Error).message;
    throw new UsageError(message.startsWith('--choice') ? message.replace('--choice', '--reference-choice') : `--reference-choice: ${message}`);
  }

  const expiryKey = values['expiry-api-key'] ?? env.DECISION_EXPIRY_API_KEY;
  const expiryTtl = values['expiry-ttl-seconds'] ?? env.DECISION_EXPIRY_TTL_SECONDS;
  if (baseUrl === undefined && (keyA || keyB || expiryKey)) throw new UsageError('keys are only for --base-url; the bundled reference server makes its own');
  if (Boolean(expiryKey) !== Boolean(expiryTtl)) throw new UsageError('--expiry-api-key and --expiry-ttl-seconds go together');

  const capabilities = parseCapabilities(values.capabilities);
  const suites = parseSuites(values.suite, ['conformance']);

  return {
    ...(baseUrl !== undefined ? { baseUrl } : {}),
    referenceProfile,
    referenceChoices,
    ...(keyA ? { keyA } : {}),
    ...(keyB ? { keyB } : {}),
    ...(expiryKey && expiryTtl ? { expiry: { key: expiryKey, ttlMs: positiveInteger('expiry-ttl-seconds', expiryTtl, 1) * 1000 } } : {}),
    suites,
    only: list(values.only),
    skip: list(values.skip),
    capabilities,
    ...(values['report-dir'] ? { reportDir: values['report-dir'] } : {}),
    timeoutMs: positiveInteger('timeout-ms', values['timeout-ms'], 30_000),
    warmupTimeoutMs: positiveInteger('warmup-timeout-ms', values['warmup-timeout-ms'], 180_000),
    concurrency: concurrencyOf(values.concurrency),
    seed: values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : positiveInteger('seed', values.seed, 1),
    ...(values['num-runs'] !== undefined ? { numRuns: positiveInteger('num-runs', values['num-runs'], 1) } : {}),
    quiet: values.quiet ?? false,
    verbose: values.verbose ?? false,
  };
}

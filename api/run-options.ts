// The options of a run, typed, with their defaults and their refusals. runConformance (index.ts)
// and the command line's `run` (cli/args.ts reads argv and the environment into these options)
// both check them here, so each default and each refusal lives once. A refusal names the option
// by its flag of `decision-conformance run`, as the command line prints it.
import { readFileSync } from 'node:fs';
import { ALL_CAPABILITIES, type Capability } from '../harness/check.ts';
import { DEFAULT_CONCURRENCY } from '../harness/overlap.ts';
import { PROFILE_NAMES, type ChoiceOverrides, type ProfileName } from '../reference-impl/server/profile.ts';
import { openPoint } from '../spec/index.ts';

export const SUITES = ['conformance', 'coverage', 'property'] as const;
export type Suite = (typeof SUITES)[number];

/** The suites run when none are named. */
export const DEFAULT_SUITES: readonly Suite[] = ['conformance', 'coverage'];
/**
 * Requests of a run in flight at once (--workers). Chosen for a server across a network: at 50 ms a
 * round trip, one request at a time spends most of a run waiting on the wire. A conformance run
 * sends some five hundred requests that share no state: at sixteen in flight they still took two
 * seconds of round trips at that distance, at thirty-two one (load/bench/deployed-run.ts), while
 * the bundled server, bound by its two cores, runs no slower. Still few enough for a staging server,
 * and a 429 narrows them (in-flight.ts); a check that needs the server to itself still runs alone.
 */
export const DEFAULT_WORKERS = 32;
/** Timeout of every request after the warm-up. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** How long the first call may take, for cold starts. */
export const DEFAULT_WARMUP_TIMEOUT_MS = 180_000;

/** Options a run cannot take; the message names the option by its flag, as `decision-conformance run` says it. */
export class ConformanceOptionsError extends Error {
  override name = 'ConformanceOptionsError';
}

/** The options of a run, by the names of the flags of `decision-conformance run`. */
export interface RunOptions {
  /** Base address of the server under test; absent: the bundled reference server is started and tested. */
  baseUrl?: string;
  /** A key of project A (default: env DECISION_API_KEY); needed with baseUrl. */
  apiKey?: string;
  /** A key of a second project B, for the isolation checks (default: env DECISION_API_KEY_B). */
  apiKeyB?: string;
  /** A key of a project whose assets expire quickly, with that lifetime (at most 60 s); both or neither. */
  expiry?: { apiKey?: string; ttlSeconds?: number };
  /** Suites to run (default: conformance and coverage). */
  suites?: Suite[];
  /** What the target implements (default: everything). */
  capabilities?: Capability[];
  /** Run only these check ids. */
  only?: string[];
  /** Report these check ids as skipped. */
  skip?: string[];
  /** Requests the concurrency checks keep in flight together (default DEFAULT_CONCURRENCY, at least 2). */
  concurrency?: number;
  /** Requests in flight at once, from checks that share no state (default DEFAULT_WORKERS; 1: one at a time). */
  workers?: number;
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
  /** Headers every request carries, each "Name: value" (a tenant or routing header a gateway needs). */
  headers?: string[];
  /** As `headers`, with values redacted in output and reports like keys (a gateway's own key). */
  secretHeaders?: string[];
  /** A proxy every request goes through, over HTTPS_PROXY / HTTP_PROXY (which are read too, with NO_PROXY). */
  proxy?: string;
  /** A file of PEM CA certificates to trust beside Node's own (a private CA of a staging server). */
  caCert?: string;
  /** Accept any certificate of the server. */
  insecure?: boolean;
}

/** A run's settings once checked, every default applied. */
export interface RunPlan {
  /** Undefined: start the bundled reference server. */
  baseUrl?: string;
  /** The bundled server's choices on the spec's open points (without baseUrl only). */
  referenceProfile: ProfileName;
  /** Choices on single open points over that profile's (without baseUrl only), e.g. an alternate served only alone. */
  referenceChoices: ChoiceOverrides;
  keyA?: string;
  keyB?: string;
  expiry?: { key: string; ttlMs: number };
  suites: Suite[];
  only: string[];
  skip: string[];
  capabilities: Capability[];
  timeoutMs: number;
  warmupTimeoutMs: number;
  /** Requests the concurrency checks keep in flight together. */
  concurrency: number;
  /** Requests of the run in flight at once, from checks that share no state. */
  workers: number;
  seed: number;
  /** Cases per property (the property suite); undefined: each property's default budget. */
  numRuns?: number;
  /** Where reports go: a folder, or a folder named after the start time; undefined: no reports written. */
  reportDir?: string | ((startedAt: Date) => string);
  /** Headers every request carries, names in lower case. */
  headers?: Record<string, string>;
  /** The values among them to redact like keys. */
  secretHeaderValues?: string[];
  /** How requests reach the target (harness/connection.ts): the proxy, the CA's PEM text, whether to accept any certificate. */
  connection?: { proxy?: string; caCert?: string; insecure?: boolean };
}

/**
 * How options were written where they were read from text (a command line), so that a refusal
 * quotes a value as the person wrote it ("soon", not NaN).
 */
export interface WrittenOptions {
  timeoutMs?: string;
  warmupTimeoutMs?: string;
  concurrency?: string;
  workers?: string;
  seed?: string;
  numRuns?: string;
  expiryTtlSeconds?: string;
  /**
   * Each --reference-choice ID=NAME as written, in order, with the open point and the choice read
   * from it (none when the text has no `=`): checked in that order, and taken in place of
   * RunOptions.referenceChoices.
   */
  referenceChoices?: ReadonlyArray<{ id: string; choice: string | undefined; text: string }>;
}

const refuse = (message: string) => new ConformanceOptionsError(message);

function positiveInteger(flag: string, value: number | undefined, fallback: number, written: string | undefined): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) throw refuse(`${flag} must be a positive whole number; got "${written ?? value}"`);
  return value;
}

/** concurrency: at least 2, or nothing could overlap. */
function concurrencyOf(value: number | undefined, written: string | undefined): number {
  const concurrency = positiveInteger('--concurrency', value, DEFAULT_CONCURRENCY, written);
  if (concurrency < 2) throw refuse(`--concurrency must be at least 2 (requests in flight together); got "${written ?? value}"`);
  return concurrency;
}

/** The suites of the options, known ones and at least one; `fallback` when none are named (default: conformance and coverage). */
export function suitesOf(options: { suites?: readonly string[] | undefined }, fallback: readonly Suite[] = DEFAULT_SUITES): Suite[] {
  if (options.suites === undefined) return [...fallback];
  for (const suite of options.suites) if (!SUITES.includes(suite as Suite)) throw refuse(`unknown suite "${suite}"; available: ${SUITES.join(', ')}`);
  if (options.suites.length === 0) throw refuse(`--suite needs at least one of ${SUITES.join(', ')}`);
  return [...options.suites] as Suite[];
}

/** Known capabilities; all of them when none are named. */
export function capabilitiesOf(capabilities: readonly string[] | undefined): Capability[] {
  if (capabilities === undefined) return [...ALL_CAPABILITIES];
  for (const capability of capabilities) {
    if (!ALL_CAPABILITIES.includes(capability as Capability)) throw refuse(`unknown capability "${capability}"; known: ${ALL_CAPABILITIES.join(', ')}`);
  }
  return [...capabilities] as Capability[];
}

/** A profile of the bundled server (default reference), which only applies without a base URL. */
export function referenceProfileOf(name: string | undefined, baseUrl: string | undefined): ProfileName {
  const referenceProfile = name ?? 'reference';
  if (!(PROFILE_NAMES as readonly string[]).includes(referenceProfile))
    throw refuse(`--reference-profile must be ${PROFILE_NAMES.join(' or ')}; got "${referenceProfile}"`);
  if (baseUrl !== undefined && name !== undefined) throw refuse('--reference-profile is for the bundled reference server; it does not apply with --base-url');
  return referenceProfile as ProfileName;
}

/** Choices on single open points: a known open point each, and a choice the spec names. */
function referenceChoicesOf(choices: NonNullable<WrittenOptions['referenceChoices']>): ChoiceOverrides {
  for (const { id, choice, text } of choices) {
    if (choice === undefined || !(PROFILE_NAMES as readonly string[]).includes(choice))
      throw refuse(`--reference-choice must be <open-point>=${PROFILE_NAMES.join('|')}, got "${text}"`);
    try {
      openPoint(id);
    } catch (error) {
      throw refuse(`--reference-choice: ${(error as Error).message}`);
    }
  }
  return Object.fromEntries(choices.map(({ id, choice }) => [id, choice as ProfileName]));
}

/**
 * The run the options describe, checked: every default applied, and the first value a run cannot
 * take refused with a ConformanceOptionsError naming its flag. Keys, and the expiry key and its
 * lifetime, not given in the options come from `env` (DECISION_API_KEY, DECISION_API_KEY_B,
 * DECISION_EXPIRY_API_KEY, DECISION_EXPIRY_TTL_SECONDS); `written` is how options read from text
 * were written.
 */
export function validateRunOptions(
  options: RunOptions,
  { env = {}, written = {} }: { env?: NodeJS.ProcessEnv; written?: WrittenOptions } = {},
): RunPlan & { reportDir?: string } {
  const baseUrl = options.baseUrl?.replace(/\/+$/, '');
  if (baseUrl !== undefined && !/^https?:\/\/[^/\s]+/.test(baseUrl)) throw refuse(`--base-url must be an http(s) URL; got "${baseUrl}"`);
  const keyA = options.apiKey ?? env.DECISION_API_KEY;
  const keyB = options.apiKeyB ?? env.DECISION_API_KEY_B;
  if (baseUrl !== undefined && !keyA) throw refuse('--base-url needs a key: --api-key KEY or env DECISION_API_KEY');

  const referenceProfile = referenceProfileOf(options.referenceProfile, baseUrl);
  const choices =
    written.referenceChoices ??
    Object.entries(options.referenceChoices ?? {}).map(([id, choice]) => ({ id, choice: choice as string, text: `${id}=${choice}` }));
  if (baseUrl !== undefined && choices.length > 0) throw refuse('--reference-choice is for the bundled reference server; it does not apply with --base-url');
  const referenceChoices = referenceChoicesOf(choices);

  const expiryKey = options.expiry?.apiKey ?? env.DECISION_EXPIRY_API_KEY;
  const ttlText = options.expiry?.ttlSeconds === undefined ? env.DECISION_EXPIRY_TTL_SECONDS : written.expiryTtlSeconds;
  const expiryTtl = options.expiry?.ttlSeconds ?? (ttlText === undefined ? undefined : Number(ttlText));
  // A value written empty (a flag or a variable set to "") is no value.
  const ttlGiven = expiryTtl !== undefined && ttlText !== '';
  if (baseUrl === undefined && (keyA || keyB || expiryKey)) throw refuse('keys are only for --base-url; the bundled reference server makes its own');
  if (Boolean(expiryKey) !== ttlGiven) throw refuse('--expiry-api-key and --expiry-ttl-seconds go together');

  const capabilities = capabilitiesOf(options.capabilities);
  const suites = suitesOf(options);
  const deployment = deploymentOf(options, baseUrl);

  return {
    ...(baseUrl !== undefined ? { baseUrl } : {}),
    referenceProfile,
    referenceChoices,
    ...(keyA ? { keyA } : {}),
    ...(keyB ? { keyB } : {}),
    ...(expiryKey && ttlGiven ? { expiry: { key: expiryKey, ttlMs: positiveInteger('--expiry-ttl-seconds', expiryTtl, 1, ttlText) * 1000 } } : {}),
    suites,
    only: [...(options.only ?? [])],
    skip: [...(options.skip ?? [])],
    capabilities,
    ...(options.reportDir ? { reportDir: options.reportDir } : {}),
    timeoutMs: positiveInteger('--timeout-ms', options.timeoutMs, DEFAULT_TIMEOUT_MS, written.timeoutMs),
    warmupTimeoutMs: positiveInteger('--warmup-timeout-ms', options.warmupTimeoutMs, DEFAULT_WARMUP_TIMEOUT_MS, written.warmupTimeoutMs),
    concurrency: concurrencyOf(options.concurrency, written.concurrency),
    workers: positiveInteger('--workers', options.workers, DEFAULT_WORKERS, written.workers),
    seed: options.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : positiveInteger('--seed', options.seed, 1, written.seed),
    ...(options.numRuns !== undefined ? { numRuns: positiveInteger('--num-runs', options.numRuns, 1, written.numRuns) } : {}),
    ...deployment,
  };
}

/** How a deployed server is reached, as `run` and `replay` take it: headers of a gateway's, a proxy, a CA. */
export type DeploymentOptions = Pick<RunOptions, 'headers' | 'secretHeaders' | 'proxy' | 'caCert' | 'insecure'>;

/**
 * The deployment options, checked (each header written "Name: value", none the kit sets itself,
 * none twice; a proxy URL; a readable CA file), for a server at `baseUrl`: with no base URL (the
 * bundled server, reached directly) none may be given.
 */
export function deploymentOf(options: DeploymentOptions, baseUrl: string | undefined): Pick<RunPlan, 'headers' | 'secretHeaderValues' | 'connection'> {
  const given = [...headersOf(options.headers ?? [], '--header'), ...headersOf(options.secretHeaders ?? [], '--header-secret')];
  const repeated = given.find((header, index) => given.findIndex((other) => other.name === header.name) !== index);
  if (repeated) throw refuse(`${repeated.flag} ${repeated.name}: the header is given twice`);
  if (baseUrl === undefined && given.length > 0) throw refuse('--header is for --base-url: the bundled reference server needs none');
  return {
    headers: Object.fromEntries(given.map(({ name, value }) => [name, value])),
    ...connectionOf(options, baseUrl),
    secretHeaderValues: given.filter((header) => header.flag === '--header-secret').map(({ value }) => value),
  };
}

/** The proxy and TLS options, checked: a proxy URL that parses, a CA file that can be read and holds a certificate. */
function connectionOf(options: RunOptions, baseUrl: string | undefined): Pick<RunPlan, 'connection'> {
  const { proxy, caCert, insecure } = options;
  if (proxy === undefined && caCert === undefined && !insecure) return {};
  if (baseUrl === undefined) throw refuse('--proxy, --ca-cert and --insecure are for --base-url: the bundled reference server is reached directly');
  if (proxy !== undefined && !/^https?:\/\/[^/]/.test(proxy))
    throw refuse(`--proxy ${JSON.stringify(proxy)}: give the proxy as http://host:port or https://host:port`);
  let pem: string | undefined;
  if (caCert !== undefined) {
    try {
      pem = readFileSync(caCert, 'utf8');
    } catch (error) {
      throw refuse(`--ca-cert ${caCert}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw refuse(`--ca-cert ${caCert}: no PEM certificate in it (-----BEGIN CERTIFICATE-----)`);
  }
  return { connection: { ...(proxy !== undefined ? { proxy } : {}), ...(pem !== undefined ? { caCert: pem } : {}), ...(insecure ? { insecure } : {}) } };
}

/** Headers the kit sets itself, per request: a check varies or leaves out each of them. */
const KIT_HEADERS = new Set(['authorization', 'content-type', 'content-length', 'transfer-encoding', 'host', 'x-request-id', 'accept', 'expect']);
/** An HTTP field name (RFC 9110 5.1: a token). */
const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** "Name: value" headers, names in lower case; refused with the flag when malformed or one the kit sets itself. */
function headersOf(texts: readonly string[], flag: string): Array<{ name: string; value: string; flag: string }> {
  return texts.map((text) => {
    const colon = text.indexOf(':');
    const name = text.slice(0, Math.max(0, colon)).trim().toLowerCase();
    const value = text.slice(colon + 1).trim();
    if (colon < 1 || !FIELD_NAME.test(name)) throw refuse(`${flag} ${JSON.stringify(text)}: write it as "Name: value"`);
    if (/[\r\n\0]/.test(value)) throw refuse(`${flag} ${name}: the value cannot hold a line break or NUL`);
    if (KIT_HEADERS.has(name))
      throw refuse(`${flag} ${name}: the kit sets this header itself, request by request${name === 'authorization' ? ' (give keys with --api-key)' : ''}`);
    return { name, value, flag };
  });
}

// The command line's arguments: argv and the environment read into the library's typed options
// (api/run-options.ts), which checks them; the defaults and the refusals live there, once. Only
// what is about text is here: the flags, comma-separated lists, numbers as written, ID=NAME.
import { parseArgs } from 'node:util';
import {
  capabilitiesOf,
  DEFAULT_SUITES,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_WARMUP_TIMEOUT_MS,
  DEFAULT_WORKERS,
  SUITES,
  suitesOf,
  validateRunOptions,
  type DeploymentOptions,
  type RunOptions,
  type RunPlan,
  type Suite,
  type WrittenOptions,
} from '../api/run-options.ts';
import { ALL_CAPABILITIES, type Capability } from '../harness/check.ts';
import { DEFAULT_CONCURRENCY } from '../harness/overlap.ts';
import { PROFILE_NAMES } from '../reference-impl/server/profile.ts';

/** A run of `decision-conformance run`: the checked plan, its report folder, and how much to print. */
export type RunSettings = RunPlan & {
  reportDir?: string;
  quiet: boolean;
  verbose: boolean;
};

/** An argument the command line cannot read (an unknown option, a flag without its value). */
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
  --header 'NAME: VALUE'      a header every request carries, e.g. a tenant or routing header a gateway needs (repeatable)
  --header-secret 'NAME: V'   the same, its value redacted in output and reports like a key (a gateway's own key);
                              or env DECISION_SECRET_HEADERS, one per line, so that the value is no argument
  --proxy URL                 a proxy every request goes through (HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read without it)
  --ca-cert FILE              PEM CA certificates to trust beside Node's own (as NODE_EXTRA_CA_CERTS does, for this run)
  --insecure                  accept any certificate of the server (a self-signed staging server)
  --reference-profile NAME    without --base-url: the bundled server's open-point choices, ${PROFILE_NAMES.join(' or ')} (default reference)
  --reference-choice ID=NAME  without --base-url: the bundled server makes choice NAME (${PROFILE_NAMES.join(' or ')}) on open point ID,
                              over the profile's (repeatable), e.g. upload-body-limit=alternate, an alternate served only alone

Selection:
  --suite LIST                suites to run: ${SUITES.join(',')} (default: ${DEFAULT_SUITES.join(',')})
  --only IDS                  run only these check ids (comma-separated; ids of the selected suites)
  --skip IDS                  report these check ids as skipped (an unknown id is a usage error)

Run:
  --report-dir DIR            where reports go (default: ./reports/out/<timestamp>/ under the current directory)
  --timeout-ms N              timeout of every request after the warm-up (default ${DEFAULT_TIMEOUT_MS})
  --warmup-timeout-ms N       how long the first call may take, for cold starts (default ${DEFAULT_WARMUP_TIMEOUT_MS})
  --concurrency N             requests the concurrency checks keep in flight together (default ${DEFAULT_CONCURRENCY})
  --workers N                 requests in flight at once from checks that share no state (default ${DEFAULT_WORKERS}; 1: one
                              at a time); checks that measure overlap or compare answers still run alone
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

/** A number as written: undefined when the flag is absent; refused by the library, quoting the text, when it is not one. */
const numberOf = (text: string | undefined): number | undefined => (text === undefined ? undefined : Number(text));

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
  return { suites: suitesOf({ suites: values.suite === undefined ? undefined : list(values.suite) }, SUITES), format: values.json ? 'json' : 'text' };
}

/** --capabilities: a comma-separated list of known capabilities; all of them when not given. */
export function parseCapabilities(text: string | undefined): Capability[] {
  return capabilitiesOf(text === undefined ? undefined : list(text));
}

/** The non-empty lines of a variable (DECISION_SECRET_HEADERS: one header a line). */
const linesOf = (text: string | undefined) => (text ?? '').split(/\r?\n/).filter((line) => line.trim() !== '');

/** The secret headers given: each --header-secret, then each line of DECISION_SECRET_HEADERS. */
export const secretHeadersOf = (flags: readonly string[] | undefined, env: NodeJS.ProcessEnv): string[] => [
  ...(flags ?? []),
  ...linesOf(env.DECISION_SECRET_HEADERS),
];

/** How a deployed server is reached: the flags `run`, `replay` and `load run` share, as parseArgs options. */
export const DEPLOYMENT_FLAGS = {
  header: { type: 'string', multiple: true },
  'header-secret': { type: 'string', multiple: true },
  proxy: { type: 'string' },
  'ca-cert': { type: 'string' },
  insecure: { type: 'boolean' },
} as const;

/** Those flags as parsed, with DECISION_SECRET_HEADERS, as the options the API checks (deploymentOf). */
export function deploymentFlagsOf(
  values: { header?: string[]; 'header-secret'?: string[]; proxy?: string; 'ca-cert'?: string; insecure?: boolean },
  env: NodeJS.ProcessEnv,
): DeploymentOptions {
  return {
    ...(values.header ? { headers: values.header } : {}),
    ...(values.proxy !== undefined ? { proxy: values.proxy } : {}),
    ...(values['ca-cert'] !== undefined ? { caCert: values['ca-cert'] } : {}),
    ...(values.insecure ? { insecure: true } : {}),
    ...(values['header-secret'] || env.DECISION_SECRET_HEADERS?.trim() ? { secretHeaders: secretHeadersOf(values['header-secret'], env) } : {}),
  };
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
        ...DEPLOYMENT_FLAGS,
        'reference-profile': { type: 'string' },
        'reference-choice': { type: 'string', multiple: true },
        suite: { type: 'string' },
        only: { type: 'string' },
        skip: { type: 'string' },
        'report-dir': { type: 'string' },
        'timeout-ms': { type: 'string' },
        'warmup-timeout-ms': { type: 'string' },
        concurrency: { type: 'string' },
        workers: { type: 'string' },
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

  const options: RunOptions = {
    ...(values['base-url'] !== undefined ? { baseUrl: values['base-url'] } : {}),
    apiKey: values['api-key'],
    apiKeyB: values['api-key-b'],
    expiry: { apiKey: values['expiry-api-key'], ttlSeconds: numberOf(values['expiry-ttl-seconds']) },
    ...(values.capabilities !== undefined ? { capabilities: list(values.capabilities) as Capability[] } : {}),
    ...deploymentFlagsOf(values, env),
    referenceProfile: values['reference-profile'] as RunOptions['referenceProfile'],
    ...(values.suite !== undefined ? { suites: list(values.suite) as Suite[] } : {}),
    only: list(values.only),
    skip: list(values.skip),
    reportDir: values['report-dir'],
    timeoutMs: numberOf(values['timeout-ms']),
    warmupTimeoutMs: numberOf(values['warmup-timeout-ms']),
    concurrency: numberOf(values.concurrency),
    workers: numberOf(values.workers),
    seed: numberOf(values.seed),
    numRuns: numberOf(values['num-runs']),
  };
  const written: WrittenOptions = {
    timeoutMs: values['timeout-ms'],
    warmupTimeoutMs: values['warmup-timeout-ms'],
    concurrency: values.concurrency,
    workers: values.workers,
    seed: values.seed,
    numRuns: values['num-runs'],
    expiryTtlSeconds: values['expiry-ttl-seconds'],
    // ID=NAME, as the bundled server's --choice takes it; the library checks the open point and the choice.
    ...(values['reference-choice'] !== undefined
      ? {
          referenceChoices: values['reference-choice'].map((text) => {
            const [id = '', choice] = text.split('=', 2);
            return { id, choice, text };
          }),
        }
      : {}),
  };
  return { ...validateRunOptions(options, { env, written }), quiet: values.quiet ?? false, verbose: values.verbose ?? false };
}

// Finding k6 and running a scenario script with it. The kit looks for k6 in this order:
// --k6 PATH, env K6_BIN, then `k6` on PATH. Users bring their own k6; CI sets K6_BIN.
import { execFile, spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { rootCertificates } from 'node:tls';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { redactText } from '../harness/redaction.ts';
import { terminalText } from '../reports/escape.ts';
import type { LoadRun } from '../reports/load-run.ts';
import { k6SampleOutput } from './k6-samples.ts';
import type { ScenarioName } from './runner/definition.ts';
import type { LoadDeployment } from './runner/run-scenario.ts';
import { mergeParts, PART_FILES, readPart, type RunPart } from './merge.ts';

export const SCENARIO_DIR = fileURLToPath(new URL('./scenarios/', import.meta.url));

export interface K6Location {
  path: string;
  /** Where the path came from, for the one line the command prints. */
  source: '--k6' | 'K6_BIN' | 'PATH';
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * k6 from the flag, else K6_BIN, else PATH; undefined when none is found. A flag or K6_BIN
 * naming a file that is not executable is an error, not a silent fall-back.
 */
export function findK6(flag: string | undefined, env: NodeJS.ProcessEnv): K6Location | undefined {
  for (const [given, source] of [
    [flag, '--k6'],
    [env.K6_BIN, 'K6_BIN'],
  ] as const) {
    if (!given) continue;
    if (!executable(given)) throw new Error(`${source} names ${given}, which is not an executable file`);
    return { path: given, source };
  }
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, 'k6');
    if (executable(candidate)) return { path: candidate, source: 'PATH' };
  }
  return undefined;
}

/** "v2.2.0" from `k6 version`, or "unknown". */
export async function k6Version(k6: string): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(k6, ['version'], { timeout: 10_000 });
    return /k6 (v\S+)/.exec(stdout)?.[1] ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The execution segment sequence of `instances` equal parts ("0,1/4,1/2,3/4,1"), and part `index`'s segment. */
export function segmentOf(instances: number, index: number): { segment: string; sequence: string } {
  const point = (at: number) => (at === 0 ? '0' : at === instances ? '1' : `${at}/${instances}`);
  return {
    segment: `${point(index)}:${point(index + 1)}`,
    sequence: Array.from({ length: instances + 1 }, (_, at) => point(at)).join(','),
  };
}

export interface K6RunOptions {
  /** false: k6's own figures, no raw samples (the benchmark of what they cost); one instance only. */
  rawSamples?: boolean;
  /** k6 processes splitting the run by execution segments, judged as one run (load/merge.ts); 1 unless given. */
  instances?: number;
  /** Settings of one part over the common ones (tests slow one part down through its own BASE_URL). */
  partSettings?(index: number): Record<string, string | undefined>;
  /** How a deployed server is reached: k6 gets it in its environment (k6DeploymentEnv). */
  deployment?: LoadDeployment;
}

/**
 * The environment that has k6 reach a deployed server as `run` does: EXTRA_HEADERS (JSON, read by
 * the scenarios' adapter: in the environment, not `-e`, so that a gateway's key is no argument a
 * process list shows), the proxy as HTTPS_PROXY and HTTP_PROXY (Go's proxy variables, which k6
 * honours; without --proxy, the user's own pass through), the CA as SSL_CERT_FILE (Go reads it on
 * Linux: Node's CA list and the given one, written to `dir`, so that public servers stay
 * trusted as Node trusts them), and --insecure as K6_INSECURE_SKIP_TLS_VERIFY.
 */
export function k6DeploymentEnv(deployment: LoadDeployment, dir: string): Record<string, string> {
  const env: Record<string, string> = {};
  if (Object.keys(deployment.headers).length > 0) env.EXTRA_HEADERS = JSON.stringify(deployment.headers);
  const { proxy, caCert, insecure } = deployment.connection ?? {};
  if (proxy !== undefined) Object.assign(env, { HTTPS_PROXY: proxy, HTTP_PROXY: proxy, https_proxy: proxy, http_proxy: proxy });
  if (caCert !== undefined) {
    const file = join(dir, 'ca-certificates.pem');
    writeFileSync(file, [...rootCertificates, caCert].join('\n'));
    env.SSL_CERT_FILE = file;
  }
  if (insecure) env.K6_INSECURE_SKIP_TLS_VERIFY = 'true';
  return env;
}

/**
 * Settings become `-e NAME=value`. Each k6 process (one, or one per execution segment with
 * `instances`) writes what a pod of a distributed run writes into a folder of its own (load.json,
 * k6's raw samples, its console output with the check examples), and the parts are judged as one
 * run by the same merge `load merge` runs on pods' folders: the kit computes the percentiles from
 * every request's duration and judges the thresholds, as it does for the Node runner (one
 * percentile definition for both generators).
 */
export async function runWithK6(
  k6: string,
  scenario: ScenarioName,
  settings: Record<string, string | undefined>,
  output: (line: string) => void = () => {},
  options: K6RunOptions = {},
): Promise<LoadRun> {
  const instances = options.instances ?? 1;
  if (!Number.isInteger(instances) || instances < 1) throw new Error(`instances must be a whole number of at least 1; got ${instances}`);
  if (options.rawSamples === false && instances > 1) throw new Error('a run split over k6 processes needs their raw samples');
  const reportDir = mkdtempSync(join(tmpdir(), 'decision-k6-'));
  try {
    const version = await k6Version(k6);
    const parts = await Promise.all(
      Array.from({ length: instances }, (_, index) =>
        runPart(k6, scenario, { ...settings, ...options.partSettings?.(index), K6_VERSION: version }, join(reportDir, `part-${index + 1}`), {
          output,
          ...(instances > 1 ? { segment: segmentOf(instances, index) } : {}),
          rawSamples: options.rawSamples !== false,
          ...(options.deployment ? { deployment: options.deployment } : {}),
        }),
      ),
    );
    if (options.rawSamples === false) return parts[0]!.run;
    return await mergeParts(parts);
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
}

/** One k6 process: its part of the run in `dir`, as a pod of a distributed run leaves it. */
async function runPart(
  k6: string,
  scenario: ScenarioName,
  settings: Record<string, string | undefined>,
  dir: string,
  options: { output: (line: string) => void; segment?: { segment: string; sequence: string }; rawSamples: boolean; deployment?: LoadDeployment },
): Promise<RunPart> {
  mkdirSync(dir, { recursive: true });
  const deploymentEnv = options.deployment ? k6DeploymentEnv(options.deployment, dir) : {};
  const env = { ...settings, REPORT_DIR: dir };
  const samples = options.rawSamples ? k6SampleOutput(join(dir, PART_FILES.samples)) : { args: [], env: {} };
  const segment = options.segment ? ['--execution-segment', options.segment.segment, '--execution-segment-sequence', options.segment.sequence] : [];
  // raw log format: a log line is the message alone, so the check examples the script logs read back as JSON.
  const args = [
    'run',
    '--quiet',
    '--no-color',
    '--log-format',
    'raw',
    '--console-output',
    join(dir, PART_FILES.console),
    ...samples.args,
    ...segment,
    join(SCENARIO_DIR, `${scenario}.js`),
  ];
  for (const [name, value] of Object.entries(env)) if (value !== undefined) args.push('-e', `${name}=${value}`);
  const child = spawn(k6, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...samples.env, ...deploymentEnv, K6_NO_USAGE_REPORT: 'true' } });
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => text.split('\n').filter(Boolean).forEach(options.output));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const code = await new Promise<number>((resolve) => child.on('close', (status) => resolve(status ?? 1)));
  if (!existsSync(join(dir, PART_FILES.result)))
    // Exit 99 is k6's "thresholds crossed", which still writes the summary; anything else without one is a failure to run.
    // Its last lines may quote what the server answered: the message reaches a terminal escaped.
    throw new Error(
      `k6 exited with ${code} and wrote no load result: ${terminalText(
        redactText(stderr, [...(settings.API_KEY ? [settings.API_KEY] : []), ...(options.deployment?.secretHeaderValues ?? [])])
          .trim()
          .split('\n')
          .slice(-3)
          .join(' | '),
      )}`,
    );
  if (!options.rawSamples) return { source: dir, run: JSON.parse(readFileSync(join(dir, PART_FILES.result), 'utf8')) as LoadRun, samplesPath: '' };
  return readPart(dir);
}

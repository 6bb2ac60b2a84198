// Finding k6 and running a scenario script with it. The kit looks for k6 in this order:
// --k6 PATH, env K6_BIN, then `k6` on PATH. Users bring their own k6; CI sets K6_BIN.
import { execFile, spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { redactText } from '../harness/redaction.ts';
import { terminalText } from '../reports/escape.ts';
import type { LoadRun } from '../reports/load-run.ts';
import { k6SampleOutput, readK6Samples } from './k6-samples.ts';
import { latencyFigures, PERCENTILE_METHOD } from './percentiles.ts';
import { loadDefinition, type ScenarioDefinition, type ScenarioName } from './runner/definition.ts';
import { judgeThresholds } from './runner/result.ts';
import type { RequestSample } from './runner/samples.ts';
import { CHECK_EXAMPLE_MARK } from './definitions/common.js';
import type { CheckExample } from './definitions/response-rules.js';

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

/**
 * Settings become `-e NAME=value`; the script writes load.json into a temporary folder, read back
 * here, and k6's raw samples beside it, from which the kit computes the percentiles and judges the
 * thresholds as it does for the Node runner (one percentile definition for both generators).
 */
export async function runWithK6(
  k6: string,
  scenario: ScenarioName,
  settings: Record<string, string | undefined>,
  output: (line: string) => void = () => {},
  options: { rawSamples?: boolean; definition?: ScenarioDefinition } = {},
): Promise<LoadRun> {
  const reportDir = mkdtempSync(join(tmpdir(), 'decision-k6-'));
  try {
    const env = { ...settings, REPORT_DIR: reportDir, K6_VERSION: await k6Version(k6) };
    // rawSamples false (the benchmark of what they cost) leaves k6's own figures, and says so in percentile_method.
    const samples = options.rawSamples === false ? { args: [], env: {} } : k6SampleOutput(join(reportDir, 'samples.csv.gz'));
    // raw log format: a log line is the message alone, so the check examples the script logs read back as JSON.
    const args = ['run', '--quiet', '--no-color', '--log-format', 'raw', ...samples.args, join(SCENARIO_DIR, `${scenario}.js`)];
    for (const [name, value] of Object.entries(env)) if (value !== undefined) args.push('-e', `${name}=${value}`);
    const child = spawn(k6, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...samples.env, K6_NO_USAGE_REPORT: 'true' } });
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => text.split('\n').filter(Boolean).forEach(output));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const code = await new Promise<number>((resolve) => child.on('close', (status) => resolve(status ?? 1)));
    const { examples, rest } = checkExamples(stderr);
    let run: LoadRun;
    try {
      run = JSON.parse(readFileSync(join(reportDir, 'load.json'), 'utf8')) as LoadRun;
      for (const entry of run.checks) {
        const example = examples.get(entry.name);
        if (example && entry.fails > 0) entry.example = example;
      }
    } catch {
      // Exit 99 is k6's "thresholds crossed", which still writes the summary; anything else without one is a failure to run.
      // Its last lines may quote what the server answered: the message reaches a terminal escaped.
      throw new Error(
        `k6 exited with ${code} and wrote no load result: ${terminalText(
          redactText(rest, settings.API_KEY ? [settings.API_KEY] : [])
            .trim()
            .split('\n')
            .slice(-3)
            .join(' | '),
        )}`,
      );
    }
    if (options.rawSamples === false) return run;
    return withKitFigures(run, options.definition ?? (await loadDefinition(scenario, settings)), await readK6Samples(join(reportDir, 'samples.csv.gz')));
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
}

/** A k6 run's latency, timeline and threshold verdicts replaced by the kit's, from k6's raw samples. */
export function withKitFigures(run: LoadRun, definition: ScenarioDefinition, samples: readonly RequestSample[]): LoadRun {
  const { latency, timeline } = latencyFigures(definition, samples);
  const thresholds = judgeThresholds(definition, { latency, timeline, errorRate: run.error_rate, checkRate: run.check_rate });
  return { ...run, percentile_method: PERCENTILE_METHOD, latency, timeline, thresholds, passed: thresholds.every((threshold) => threshold.ok) };
}

/** The first example of each check the script logged (k6-adapter.js), and the other stderr lines. */
export function checkExamples(stderr: string): { examples: Map<string, CheckExample>; rest: string } {
  const examples = new Map<string, CheckExample>();
  const rest: string[] = [];
  for (const line of stderr.split('\n')) {
    if (!line.startsWith(CHECK_EXAMPLE_MARK)) {
      rest.push(line);
      continue;
    }
    try {
      const { check, example } = JSON.parse(line.slice(CHECK_EXAMPLE_MARK.length)) as { check: string; example: CheckExample };
      if (!examples.has(check)) examples.set(check, example);
    } catch {
      rest.push(line);
    }
  }
  return { examples, rest: rest.join('\n') };
}

// What the load tests share: the k6 they use, the embedded reference server as the target, the
// schema every load result must satisfy, a server whose latency grows with uptime, and the
// command line run as users run it.
import { accessSync, constants, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { setTimeout as sleep } from 'node:timers/promises';
import { runKitCommand as runKit, type CommandRun } from '../../harness/testing/kit-command.ts';
import { isOperation, type Mutation } from '../../harness/testing/mutating-proxy.ts';
import type { LoadRun } from '../../reports/load-run.ts';
import type { ScenarioName } from '../runner/definition.ts';
import { findK6 } from '../k6.ts';

const PREBUILT_K6 = fileURLToPath(new URL('../../../shared/tools/k6/k6', import.meta.url));

/**
 * The k6 the load tests run: K6_BIN, else `k6` on PATH, else a prebuilt k6 beside the
 * repository (../shared/tools/k6/k6). Users bring their own k6, so on a machine without one the
 * k6 tests are skipped with this reason and the Node runner's tests still run; under CI (env CI
 * set) a missing k6 is an error, so a pipeline never passes without having run k6.
 */
export function k6ForTests(): string | undefined {
  let found: string | undefined;
  try {
    found = findK6(undefined, process.env)?.path;
  } catch (error) {
    throw new Error(`the load tests cannot use k6: ${(error as Error).message}`);
  }
  if (!found) {
    try {
      accessSync(PREBUILT_K6, constants.X_OK);
      found = PREBUILT_K6;
    } catch {
      found = undefined;
    }
  }
  if (!found && process.env.CI) throw new Error(`k6 is needed by the load tests under CI and was found neither in K6_BIN, on PATH nor at ${PREBUILT_K6}`);
  return found;
}

export const NO_K6 = 'no k6 found (K6_BIN, PATH or ../shared/tools/k6/k6): the k6 tests are skipped; the Node runner tests still run';

const schema = JSON.parse(readFileSync(new URL('../../reports/results.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
addFormats(ajv);
ajv.addSchema(schema);
const validateRun = ajv.getSchema(`${schema.$id as string}#/$defs/load_run`)!;

/** Schema errors of a load run (empty when it is valid). */
export function loadRunErrors(run: LoadRun): unknown[] {
  return validateRun(run) ? [] : [...(validateRun.errors ?? [])];
}

export const settingsFor = (baseUrl: string, apiKey: string, settings: Record<string, string> = {}) => ({ BASE_URL: baseUrl, API_KEY: apiKey, ...settings });

/**
 * A server whose latency grows with uptime: each decide waits `msPerSecond` ms for every second
 * since the clock started, as a leak makes each request a little slower. The clock starts at the
 * first decide after the mutation is made, or after restartClock() (a test warms the path through
 * the proxy first, then starts the leak): not when the generator is launched, since k6 on a busy
 * machine took seconds to send its first request, and its first window then already held most of
 * the growth (p50 225 ms, then 345 ms: under twice, no drift seen).
 */
export function growingLatency(msPerSecond: number): Mutation & { restartClock(): void } {
  let started: number | undefined;
  return {
    restartClock: () => {
      started = undefined;
    },
    request: async (sent) => {
      if (!isOperation(sent, 'POST', '/v1/decide')) return sent;
      started ??= performance.now();
      await sleep(((performance.now() - started) / 1000) * msPerSecond);
      return sent;
    },
  };
}

/** Short, bounded settings per scenario: seconds, loopback, a few hundred requests at most. */
/**
 * Latency thresholds out of reach, for runs whose claim is not the server's speed (a scenario runs
 * green, a refusal is no error): p95 and p99 judge the machine, and a busy CI machine failed them.
 * The error and check thresholds still decide whether a run passed; latency verdicts are proven
 * on their own (percentiles.test.ts) and measured by the benchmarks.
 */
export const LATENCY_OUT_OF_REACH = { P95_MS: '60000', P99_MS: '60000' } as const;
/** The same, as `load run` takes it on the command line. */
export const LATENCY_OUT_OF_REACH_FLAGS: readonly string[] = Object.entries(LATENCY_OUT_OF_REACH).flatMap(([name, value]) => ['--set', `${name}=${value}`]);

export const SHORT_SETTINGS: Record<ScenarioName, Record<string, string>> = {
  'decide-steady': { DURATION: '2', RATE: '20' },
  'decide-capacity': { DURATION: '2', VUS: '4' },
  mixed: { DURATION: '2', RATE: '20' },
  spike: { DURATION: '4', RATE: '5', PEAK_RATE: '40' },
  // About 20 requests a window: one busy second of a shared machine moves a window's median by
  // tens of milliseconds, past the 5 ms default floor. Drift itself is proven by soak-drift.test.ts.
  soak: { DURATION: '3', RATE: '20', WINDOW_S: '1', DRIFT_FLOOR_MS: '40' },
  'cold-start': { STEADY_COUNT: '5', IDLE_S: '1' },
};

export type { CommandRun } from '../../harness/testing/kit-command.ts';

/** `decision-conformance ARGS` as users run it (harness/testing/kit-command.ts). */
export const runKitCommand = (...args: string[]): Promise<CommandRun> => runKit(args);

/** `decision-conformance load ARGS`, as runKitCommand runs it. */
export const runLoadCommand = (...args: string[]): Promise<CommandRun> => runKitCommand('load', ...args);

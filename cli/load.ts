// `decision-conformance load run | compare | merge | history | cold-start`: the performance leg. Wires a target
// (the bundled reference server when no --base-url is given), the load runners and the reports.
import { parseArgs } from 'node:util';
import { coldStartReport } from '../load/cold-start.ts';
import { compareRuns, parseTolerance, type Comparison } from '../load/compare.ts';
import { interleavedRuns } from '../load/interleave.ts';
import { findK6, k6Version, type K6Location } from '../load/k6.ts';
import { driftOf, runLine, runLoad, SAME_PROCESS } from '../load/run.ts';
import { generatorHealth } from '../load/generator-health.ts';
import { MergeRefusal, mergeParts, readPart } from '../load/merge.ts';
import { ownCpuMs, processCpuMs, processRssBytes } from '../load/process-usage.ts';
import { SCENARIOS, isScenarioName } from '../load/runner/definition.ts';
import type { LoadRun, LoadSection } from '../reports/load-run.ts';
import { healthLine, loadVerdict } from '../reports/load-section.ts';
import { buildColdStartReport, buildLoadReport } from '../reports/load-report.ts';
import { defaultReportDir, writeReports } from '../reports/write.ts';
import { readLoadResults, readResultsFile as readResults, ResultsFileError } from '../reports/results-file.ts';
import { terminalText } from '../reports/escape.ts';
import { startEmbeddedTarget } from '../api/embedded-target.ts';
import { requirePart } from '../api/optional-parts.ts';
import { ConformanceOptionsError, DEFAULT_WARMUP_TIMEOUT_MS, deploymentOf, referenceProfileOf } from '../api/run-options.ts';
import { warmUp } from '../api/warmup.ts';
import { connectionDispatcher } from '../harness/connection.ts';
import type { LoadDeployment } from '../load/runner/run-scenario.ts';
import { DEPLOYMENT_FLAGS, deploymentFlagsOf, parseCapabilities } from './args.ts';
import { asksForHelp } from './help.ts';
import { learnFromResults, type ConformanceResults } from './load-from-results.ts';
import { ALL_CAPABILITIES } from '../harness/check.ts';
import { FEEDBACK_SHAPES, REFERENCE_FEEDBACK_SHAPE } from '../load/definitions/common.js';
import { PROFILE_NAMES } from '../reference-impl/server/profile.ts';

export const LOAD_USAGE = `Usage: decision-conformance load <run|compare|merge|cold-start|history> [options]

load run --scenario NAME [options]     run a load scenario (${SCENARIOS.join(', ')})
  --base-url URL --api-key KEY         the server (default: the bundled reference server; key also from env DECISION_API_KEY)
  --reference-profile NAME             without --base-url: the bundled server's open-point choices, ${PROFILE_NAMES.join(' or ')} (default reference)
  --capabilities LIST                  what the target implements, as for run: ${ALL_CAPABILITIES.join(',')} (default: all); scenarios send nothing else
  --feedback-shape NAME                mixed: the feedback body the target takes, ${FEEDBACK_SHAPES.join(' or ')} (none: no feedback; default reference)
  --from-results DIR                   take capabilities and feedback shape from a conformance run's results.json (the options above win)
  --duration S  --rate N               the scenario's duration and rate (each scenario has defaults)
  --set NAME=VALUE                     any other scenario setting (PEAK_RATE, VUS, IDLE_S, P95_MS, ERROR_RATE, VALIDATE_EVERY...), repeatable
  --repeat N                           runs of the scenario (default 5): load compare decides on all of them
  --report-dir DIR                     where reports go (default: ./reports/out/<timestamp>/ under the current directory)
  --k6 PATH                            the k6 to use (else env K6_BIN, else k6 on PATH, else the kit's Node runner)
  --node                               use the kit's Node runner even when k6 is found
  --instances N                        split each run over N k6 processes (execution segments), judged as one run (k6 only)
  --server-pid PID                     with --base-url, a server on this machine: its CPU and memory join the results
  --header 'NAME: VALUE'               with --base-url, a header every request carries, as for run (repeatable)
  --header-secret 'NAME: VALUE'        the same, redacted like a key (or env DECISION_SECRET_HEADERS, one a line)
  --proxy URL  --ca-cert FILE  --insecure   a proxy, a CA to trust, any certificate, as for run (both generators: k6 is
                                       given them as HTTPS_PROXY, SSL_CERT_FILE and K6_INSECURE_SKIP_TLS_VERIFY)
load merge DIR... [--report-dir DIR]   the parts of one distributed run (k6-operator pods, see load/k6-operator/testrun.yaml),
                                       each folder with load.json and samples.csv.gz, judged as one run; refused (exit 2) when
                                       they differ in scenario, spec, server or segment sequence, or a segment is missing or doubled
load compare --baseline DIR --candidate DIR   compare runs made earlier (two report folders of "load run")
load compare --baseline-url URL --candidate-url URL [--baseline-key KEY --candidate-key KEY]
             [--scenario decide-capacity] [--repeat 5] [--order abba|abab] [--duration S --rate N --set NAME=VALUE]
                                       measure both now, in turns (ABBA...), so a busy minute falls on both sides
  --tolerance throughput=0.1,latency=0.25,floor-ms=2,checks=0.01
  --allow-mixed-generators             compare runs by k6 with runs by the Node runner (refused otherwise: exit 2)
  p99 is judged only when every run has 368 requests (see load/README.md); below, compare says so
load cold-start [--runs N]             spawn the bundled server N times (default 5): spawn -> listening, spawn -> first decide
load history add RESULTS_DIR --store DIR [--label TEXT]
                                       add a "load run" folder's figures to a history folder (one JSON file per run; label e.g. a commit)
load history check --store DIR [--report-dir DIR] [--newest N] [--json]
                                       change points in each series (E-divisive means); exit 1 when a metric got worse among
                                       the newest N runs (default 10); history.html in --report-dir (default ./reports/out/<timestamp>/)

Exit status: 0 thresholds held / no regression; 1 thresholds missed / regression; 2 usage error.`;

type Write = (text: string) => void;

/**
 * A line of a runner or generator (k6 prints what it likes), indented under the command's own.
 * Text from a server or from a file of an earlier run goes through terminalText wherever it is
 * printed, so that no control sequence in it reaches the terminal.
 */
const runnerLine = (out: Write) => (line: string) => out(`  ${terminalText(line)}\n`);

export async function loadCommand(argv: string[], env: NodeJS.ProcessEnv, out: Write, err: Write): Promise<number> {
  const [sub, ...rest] = argv;
  // Every load command's usage is in LOAD_USAGE: `load merge --help`, `load history add -h`...
  if (asksForHelp(argv)) {
    out(`${LOAD_USAGE}\n`);
    return 0;
  }
  try {
    switch (sub) {
      case 'run':
        return await loadRun(rest, env, out);
      case 'compare':
        return await loadCompare(rest, env, out);
      case 'cold-start':
        return await loadColdStart(rest, out);
      case 'merge':
        return await loadMerge(rest, out);
      case 'history':
        return await (await import('./load-history.ts')).loadHistoryCommand(rest, env, out, err);
      case undefined:
      case '--help':
      case 'help':
        out(`${LOAD_USAGE}\n`);
        return sub === undefined ? 2 : 0;
      default:
        throw new LoadUsageError(`unknown load command "${sub}"`);
    }
  } catch (error) {
    if (error instanceof LoadUsageError) {
      err(`decision-conformance load: ${terminalText(error.message)}\nSee "decision-conformance load --help".\n`);
      return 2;
    }
    throw error;
  }
}

class LoadUsageError extends Error {}

function options<T extends Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>>(argv: string[], spec: T) {
  try {
    return parseArgs({ args: argv, strict: true, options: spec }).values;
  } catch (error) {
    throw new LoadUsageError((error as Error).message);
  }
}

function positive(name: string, text: string | undefined, fallback?: number): number | undefined {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!(Number.isFinite(value) && value > 0)) throw new LoadUsageError(`--${name} must be a positive number; got "${text}"`);
  return value;
}

async function loadRun(argv: string[], env: NodeJS.ProcessEnv, out: Write): Promise<number> {
  const values = options(argv, {
    ...SCENARIO_OPTIONS,
    'base-url': { type: 'string' },
    'api-key': { type: 'string' },
    'reference-profile': { type: 'string' },
    capabilities: { type: 'string' },
    'feedback-shape': { type: 'string' },
    'from-results': { type: 'string' },
    'report-dir': { type: 'string' },
    instances: { type: 'string' },
    'server-pid': { type: 'string' },
    ...DEPLOYMENT_FLAGS,
    help: { type: 'boolean' },
  });
  if (values.help) {
    out(`${LOAD_USAGE}\n`);
    return 0;
  }
  const scenario = values.scenario as string | undefined;
  if (!scenario || !isScenarioName(scenario)) throw new LoadUsageError(`--scenario must be one of ${SCENARIOS.join(', ')}; got "${scenario ?? ''}"`);
  const baseUrl = (values['base-url'] as string | undefined)?.replace(/\/+$/, '');
  if (baseUrl !== undefined && !/^https?:\/\/[^/\s]+/.test(baseUrl)) throw new LoadUsageError(`--base-url must be an http(s) URL; got "${baseUrl}"`);
  const apiKey = (values['api-key'] as string | undefined) ?? env.DECISION_API_KEY;
  if (baseUrl !== undefined && !apiKey) throw new LoadUsageError('--base-url needs a key: --api-key KEY or env DECISION_API_KEY');
  const repeat = positive('repeat', values.repeat as string | undefined, 5)!;
  const deployment = loadDeploymentOf(values, env, baseUrl);
  const { profile, capabilities, feedbackShape, notes } = targetClaims(values, baseUrl);
  const settings = { CAPABILITIES: capabilities.join(','), FEEDBACK_SHAPE: feedbackShape, ...scenarioSettings(values) };
  for (const note of notes) out(`${terminalText(note)}\n`);
  const instances = positive('instances', values.instances as string | undefined, 1)!;
  if (!Number.isInteger(instances)) throw new LoadUsageError(`--instances must be a whole number; got "${String(values.instances)}"`);
  const serverPid = serverProcess(values['server-pid'] as string | undefined, baseUrl);
  const k6 = await generator(values, env, scenario, out);
  if (instances > 1 && !k6)
    throw new LoadUsageError('--instances needs k6 (--k6, K6_BIN or PATH): the Node runner runs in one process and does not split a scenario');

  if (baseUrl !== undefined) await firstCall(baseUrl, apiKey!, deployment, out);
  const embedded = baseUrl === undefined ? await startEmbeddedTarget({ profile }) : undefined;
  const target = { baseUrl: baseUrl ?? embedded!.baseUrl, apiKey: apiKey ?? embedded!.keyA };
  const startedAt = new Date();
  let load: LoadSection;
  try {
    load = await runLoad({
      scenario,
      settings: { ...settings, BASE_URL: target.baseUrl, API_KEY: target.apiKey },
      ...(k6 ? { k6 } : {}),
      repeat,
      instances,
      ...(deployment ? { deployment } : {}),
      // The embedded server lives in this process: its memory and CPU are this process's (the Node runner's too, when it runs).
      ...(embedded
        ? {
            memory: {
              source: k6 ? SAME_PROCESS : `${SAME_PROCESS} and the Node runner`,
              rssBytes: () => process.memoryUsage().rss,
            },
            serverCpu: { source: SAME_PROCESS, cpuMs: ownCpuMs },
          }
        : {}),
      ...(serverPid !== undefined
        ? {
            memory: { source: `server process ${serverPid}`, rssBytes: () => processRssBytes(serverPid) ?? 0 },
            serverCpu: { source: `server process ${serverPid}`, cpuMs: () => processCpuMs(serverPid) },
          }
        : {}),
      output: runnerLine(out),
    });
  } finally {
    await embedded?.stop();
  }
  const report = buildLoadReport({
    target: { baseUrl: target.baseUrl, embedded: embedded !== undefined, capabilities },
    startedAt,
    finishedAt: new Date(),
    secrets: [target.apiKey, ...(deployment?.secretHeaderValues ?? [])],
    load,
  });
  const dir = (values['report-dir'] as string | undefined) ?? defaultReportDir(startedAt);
  await writeReports(report, dir);
  const verdict = loadVerdict(load);
  out(
    `${verdict === 'pass' ? 'thresholds held' : 'THRESHOLDS MISSED'} in ${load.runs.filter((run) => run.passed).length} of ${load.runs.length} runs${boundNote(load.runs)}; reports in ${dir}\n`,
  );
  return verdict === 'pass' ? 0 : 1;
}

/** "; GENERATOR-BOUND in N of M runs" when the generator set the pace (such figures are the generator's), and the runs made on a full machine. */
function boundNote(runs: readonly LoadRun[]): string {
  const bound = runs.filter((run) => run.generator_health?.bound);
  const unproven = runs.filter((run) => run.generator_health?.unproven);
  return `${bound.length === 0 ? '' : `; GENERATOR-BOUND in ${bound.length} of ${runs.length} runs: the figures measure the generator, not the server`}${unproven.length === 0 ? '' : `; the machine had no idle CPU in ${unproven.length} of ${runs.length} runs: the generator is not shown to have kept up`}`;
}

/**
 * The first call to a deployed server, as `run` makes it (api/warmup.ts): one that gets no answer
 * (an untrusted certificate, a wrong address) or whose key is refused is a usage error that says
 * what to give, instead of a run whose every request failed; any other answer that is not a
 * success (a gateway's refusal for want of its header) is said before the load.
 */
async function firstCall(baseUrl: string, apiKey: string, deployment: LoadDeployment | undefined, out: Write): Promise<void> {
  const dispatcher = connectionDispatcher(deployment?.connection ?? {});
  try {
    const key = { key: apiKey, role: 'project A', source: '--api-key or DECISION_API_KEY' };
    const warmed = await warmUp(baseUrl, key, DEFAULT_WARMUP_TIMEOUT_MS, deployment?.headers ?? {}, dispatcher);
    if (!warmed.ok) throw new LoadUsageError(warmed.message ?? `${baseUrl} did not answer`);
    if (warmed.message) out(`warning: ${terminalText(warmed.message)}\n`);
  } finally {
    await dispatcher?.close();
  }
}

/** --header, --header-secret, --proxy, --ca-cert and --insecure, checked as `run` checks them; undefined when none applies. */
function loadDeploymentOf(values: Record<string, unknown>, env: NodeJS.ProcessEnv, baseUrl: string | undefined): LoadDeployment | undefined {
  let deployment;
  try {
    deployment = deploymentOf(deploymentFlagsOf(values, env), baseUrl);
  } catch (error) {
    if (error instanceof ConformanceOptionsError) throw new LoadUsageError(error.message);
    throw error;
  }
  const headers = deployment.headers ?? {};
  if (Object.keys(headers).length === 0 && !deployment.connection) return undefined;
  return { headers, secretHeaderValues: deployment.secretHeaderValues ?? [], ...(deployment.connection ? { connection: deployment.connection } : {}) };
}

/** --server-pid: a process of this machine the kit can read in /proc, given with --base-url. */
function serverProcess(text: string | undefined, baseUrl: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const pid = Number(text);
  if (!Number.isInteger(pid) || pid <= 0) throw new LoadUsageError(`--server-pid must be a process id; got "${text}"`);
  if (baseUrl === undefined) throw new LoadUsageError('--server-pid goes with --base-url: the bundled server runs in the kit, which measures it itself');
  if (processCpuMs(pid) === undefined) throw new LoadUsageError(`--server-pid ${pid}: no such process to read in /proc (Linux, same machine)`);
  return pid;
}

/** `load merge DIR...`: the parts of one distributed run judged as one, with reports. */
async function loadMerge(argv: string[], out: Write): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, strict: true, allowPositionals: true, options: { 'report-dir': { type: 'string' } } });
  } catch (error) {
    throw new LoadUsageError((error as Error).message);
  }
  if (parsed.positionals.length === 0) throw new LoadUsageError('load merge needs the folders of the parts: load merge DIR...');
  const startedAt = new Date();
  let run: LoadRun;
  try {
    run = await mergeParts(parsed.positionals.map(readPart));
  } catch (error) {
    if (error instanceof MergeRefusal) throw new LoadUsageError(error.message);
    throw error;
  }
  // Pods report no CPU the kit can see: the schedule is what tells whether they kept up.
  run.generator_health = generatorHealth(run, {});
  const drift = driftOf(run);
  const load: LoadSection = { scenario: run.scenario, runs: [run], ...(drift ? { drift } : {}) };
  const report = buildLoadReport({
    target: { baseUrl: run.base_url, embedded: false, capabilities: [] },
    startedAt: new Date(run.started_at),
    finishedAt: new Date(Date.parse(run.started_at) + run.duration_ms),
    secrets: [],
    load,
  });
  const dir = parsed.values['report-dir'] ?? defaultReportDir(startedAt);
  await writeReports(report, dir);
  out(`merged ${parsed.positionals.length} parts (sequence ${terminalText(run.parts?.sequence || 'whole')}): ${terminalText(runLine(run))}\n`);
  out(`  ${terminalText(healthLine(run.generator_health))}\n`);
  out(`${run.passed ? 'thresholds held' : 'THRESHOLDS MISSED'}${boundNote([run])}; reports in ${dir}\n`);
  return run.passed ? 0 : 1;
}

const SCENARIO_OPTIONS = {
  scenario: { type: 'string' },
  duration: { type: 'string' },
  rate: { type: 'string' },
  set: { type: 'string', multiple: true },
  repeat: { type: 'string' },
  k6: { type: 'string' },
  node: { type: 'boolean' },
} as const;

/** --duration, --rate and --set NAME=VALUE as the scenario's settings. */
function scenarioSettings(values: { duration?: unknown; rate?: unknown; set?: unknown }): Record<string, string | undefined> {
  const settings: Record<string, string | undefined> = {};
  if (values.duration !== undefined) settings.DURATION = String(positive('duration', values.duration as string));
  if (values.rate !== undefined) settings.RATE = String(positive('rate', values.rate as string));
  for (const item of (values.set as string[] | undefined) ?? []) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(item);
    if (!match) throw new LoadUsageError(`--set takes NAME=VALUE with an upper-case name; got "${item}"`);
    settings[match[1]!] = match[2]!;
  }
  return settings;
}

/** The k6 to run (--k6, K6_BIN, PATH), or undefined for the Node runner; says which on the first line. */
async function generator(values: { k6?: unknown; node?: unknown }, env: NodeJS.ProcessEnv, scenario: string, out: Write): Promise<K6Location | undefined> {
  let k6: K6Location | undefined;
  try {
    k6 = values.node ? undefined : findK6(values.k6 as string | undefined, env);
  } catch (error) {
    throw new LoadUsageError((error as Error).message);
  }
  out(
    k6
      ? `k6 ${terminalText(await k6Version(k6.path))} (${terminalText(k6.path)}, from ${k6.source}) runs ${scenario}\n`
      : `no k6 found (--k6, K6_BIN, PATH): the kit's Node runner runs ${scenario}\n`,
  );
  return k6;
}

/**
 * What the target claims and takes: --capabilities and --feedback-shape as given, else what
 * --from-results learned, else everything and the reference feedback shape.
 */
function targetClaims(values: Record<string, unknown>, baseUrl: string | undefined) {
  const fromResults = values['from-results'] as string | undefined;
  const learned = fromResults === undefined ? { notes: [] } : learnFromResults(conformanceResults(fromResults));
  try {
    const given = values.capabilities as string | undefined;
    const capabilities = parseCapabilities(given ?? learned.capabilities?.join(','));
    const feedbackShape = (values['feedback-shape'] as string | undefined) ?? learned.feedbackShape ?? REFERENCE_FEEDBACK_SHAPE;
    if (!FEEDBACK_SHAPES.includes(feedbackShape)) throw new Error(`--feedback-shape must be ${FEEDBACK_SHAPES.join(' or ')}; got "${feedbackShape}"`);
    const profile = referenceProfileOf(values['reference-profile'] as string | undefined, baseUrl);
    return { profile, capabilities, feedbackShape, notes: learned.notes.map((note) => `from ${fromResults}: ${note}`) };
  } catch (error) {
    throw new LoadUsageError((error as Error).message);
  }
}

/** --from-results: a conformance run's results.json (or one written before runs had a kind). */
function conformanceResults(path: string): ConformanceResults {
  const { file, parsed } = readResultsFile(path, 'from-results');
  const kind = (parsed as { kind?: unknown } | null)?.kind;
  if (kind !== undefined && kind !== 'conformance')
    throw new LoadUsageError(`--from-results ${file} holds a ${String(kind)} run; it takes a conformance run's results`);
  return (parsed ?? {}) as ConformanceResults;
}

/** The parsed results.json of a report folder (or given directly); a usage error naming the flag when it cannot be read. */
function readResultsFile(path: string, flag: string): { file: string; parsed: unknown } {
  try {
    return readResults(path);
  } catch (error) {
    if (error instanceof ResultsFileError) throw new LoadUsageError(`--${flag} ${error.message}`);
    throw error;
  }
}

/** The load section of a report folder (or of a results.json given directly): a load run's, or one written before runs had a kind. */
export function readLoadSection(path: string, flag: string): LoadSection {
  try {
    return readLoadResults(path).results.load;
  } catch (error) {
    if (error instanceof ResultsFileError) throw new LoadUsageError(`--${flag} ${error.message}`);
    throw error;
  }
}

async function loadCompare(argv: string[], env: NodeJS.ProcessEnv, out: Write): Promise<number> {
  const values = options(argv, {
    baseline: { type: 'string' },
    candidate: { type: 'string' },
    'baseline-url': { type: 'string' },
    'baseline-key': { type: 'string' },
    'candidate-url': { type: 'string' },
    'candidate-key': { type: 'string' },
    order: { type: 'string' },
    ...SCENARIO_OPTIONS,
    tolerance: { type: 'string' },
    'allow-mixed-generators': { type: 'boolean' },
    json: { type: 'boolean' },
  });
  let tolerance;
  try {
    tolerance = parseTolerance(values.tolerance as string | undefined);
  } catch (error) {
    throw new LoadUsageError((error as Error).message);
  }
  const folders = values.baseline !== undefined || values.candidate !== undefined;
  const urls = values['baseline-url'] !== undefined || values['candidate-url'] !== undefined;
  if (folders === urls)
    throw new LoadUsageError(
      'load compare needs either --baseline DIR and --candidate DIR (runs made earlier) or --baseline-url URL and --candidate-url URL (measured now, interleaved)',
    );
  let sides: { baseline: LoadRun[]; candidate: LoadRun[] };
  if (folders) {
    if (!values.baseline || !values.candidate) throw new LoadUsageError('load compare needs --baseline DIR and --candidate DIR');
    sides = { baseline: readLoadSection(values.baseline as string, 'baseline').runs, candidate: readLoadSection(values.candidate as string, 'candidate').runs };
  } else {
    sides = await measureInterleaved(values, env, out);
  }
  let comparison: Comparison;
  try {
    comparison = compareRuns(sides.baseline, sides.candidate, { tolerance, allowMixedGenerators: values['allow-mixed-generators'] === true });
  } catch (error) {
    throw new LoadUsageError((error as Error).message);
  }
  // Generator names and reasons come from the runs' files; JSON leaves DEL and C1 raw.
  if (values.json) out(`${terminalText(JSON.stringify(comparison, null, 2))}\n`);
  else out(terminalText(comparisonText(comparison)));
  return comparison.regression ? 1 : 0;
}

/** `load compare --baseline-url A --candidate-url B`: both sides measured now, in turns (ABBA by default). */
async function measureInterleaved(values: Record<string, unknown>, env: NodeJS.ProcessEnv, out: Write): Promise<{ baseline: LoadRun[]; candidate: LoadRun[] }> {
  const side = (name: 'baseline' | 'candidate') => {
    const baseUrl = (values[`${name}-url`] as string | undefined)?.replace(/\/+$/, '');
    if (!baseUrl || !/^https?:\/\/[^/\s]+/.test(baseUrl)) throw new LoadUsageError(`--${name}-url must be an http(s) URL; got "${baseUrl ?? ''}"`);
    const apiKey = (values[`${name}-key`] as string | undefined) ?? env.DECISION_API_KEY;
    if (!apiKey) throw new LoadUsageError(`--${name}-url needs a key: --${name}-key KEY or env DECISION_API_KEY`);
    return { baseUrl, apiKey };
  };
  const scenario = (values.scenario as string | undefined) ?? 'decide-capacity';
  if (!isScenarioName(scenario) || scenario === 'cold-start')
    throw new LoadUsageError(`--scenario must be one of ${SCENARIOS.filter((name) => name !== 'cold-start').join(', ')}; got "${scenario}"`);
  const order = (values.order as string | undefined) ?? 'abba';
  if (order !== 'abba' && order !== 'abab') throw new LoadUsageError(`--order must be abba or abab; got "${order}"`);
  const baseline = side('baseline');
  const candidate = side('candidate');
  const k6 = await generator(values, env, scenario, out);
  return interleavedRuns({
    scenario,
    baseline,
    candidate,
    settings: scenarioSettings(values),
    repeat: positive('repeat', values.repeat as string | undefined, 5)!,
    order,
    ...(k6 ? { k6 } : {}),
    output: runnerLine(out),
  });
}

export function comparisonText(comparison: Comparison): string {
  const lines = [
    `${comparison.regression ? 'REGRESSION' : 'no regression'}: ${comparison.scenario}, ${comparison.baseline_runs} baseline runs (${comparison.baseline_generator}) vs ${comparison.candidate_runs} candidate runs (${comparison.candidate_generator}) (medians; worse = share of run pairs where the candidate is worse)`,
  ];
  for (const metric of comparison.metrics) {
    lines.push(
      `  ${metric.regression ? '✗' : '✓'} ${metric.metric.padEnd(16)} ${String(metric.baseline_median).padStart(10)} -> ${String(metric.candidate_median).padEnd(10)} ${metric.change >= 0 ? '+' : ''}${(metric.change * 100).toFixed(1)} %  worse ${(metric.worse_share * 100).toFixed(0)} %`,
    );
  }
  const { tail } = comparison;
  lines.push(
    tail.judged
      ? `  tail: p99 judged (every run has at least ${tail.min_requests} requests; fewest ${tail.fewest_requests}); 95 % interval of p99 ${tail.baseline_interval_ms!.lower}–${tail.baseline_interval_ms!.upper} ms -> ${tail.candidate_interval_ms!.lower}–${tail.candidate_interval_ms!.upper} ms`
      : `  tail: ${tail.reason}`,
  );
  return `${lines.join('\n')}\n`;
}

async function loadColdStart(argv: string[], out: Write): Promise<number> {
  const values = options(argv, { runs: { type: 'string' }, 'report-dir': { type: 'string' } });
  const runs = positive('runs', values.runs as string | undefined, 5)!;
  requirePart('reference-server');
  const startedAt = new Date();
  let coldStart;
  try {
    coldStart = await coldStartReport(Math.round(runs), runnerLine(out));
  } catch (error) {
    out(`cold start failed: ${terminalText((error as Error).message)}\n`);
    return 1;
  }
  const report = buildColdStartReport({ command: 'npm run serve', startedAt, finishedAt: new Date(), coldStart });
  const dir = (values['report-dir'] as string | undefined) ?? defaultReportDir(startedAt);
  await writeReports(report, dir);
  out(
    `cold start: spawn -> listening median ${coldStart.spawn_to_listening_ms.median} ms (max ${coldStart.spawn_to_listening_ms.max}); spawn -> first decide median ${coldStart.spawn_to_first_decide_ms.median} ms (max ${coldStart.spawn_to_first_decide_ms.max}); allowance ${coldStart.allowance_ms} ms: ${coldStart.within_allowance ? 'within' : 'EXCEEDED'}; reports in ${dir}\n`,
  );
  return coldStart.within_allowance ? 0 : 1;
}

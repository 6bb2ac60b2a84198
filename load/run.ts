// One `load run`: a scenario repeated N times by k6 when the kit found one, else by the Node
// runner, with the server's memory sampled when the kit can see it, and the soak drift (whose
// verdicts are thresholds of each run: a soak that drifts fails on its own).
import { availableParallelism } from 'node:os';
import type { LoadDrift, LoadRun, LoadSection } from '../reports/load-run.ts';
import { memoryDriftThresholds } from './definitions/drift.js';
import { runWithK6, type K6Location } from './k6.ts';
import { loadDefinition, type ScenarioName } from './runner/definition.ts';
import { runWithNode, type LoadDeployment } from './runner/run-scenario.ts';
import { generatorHealth, type HealthFacts } from './generator-health.ts';
import { healthLine } from '../reports/load-section.ts';
import { endedChildrenCpuMs, machineIdleMs, ownCpuMs, threadCpuMs } from './process-usage.ts';

export interface LoadRunOptions {
  scenario: ScenarioName;
  /** BASE_URL, API_KEY and the scenario's settings (RATE, DURATION, thresholds...). */
  settings: Record<string, string | undefined>;
  /** Undefined: the Node runner. */
  k6?: K6Location;
  repeat: number;
  /** Resident memory of the server's process, when the kit can see it. */
  memory?: { source: string; rssBytes(): number };
  /** CPU time of the server's process in milliseconds, when it runs on this machine and the kit can see it. */
  serverCpu?: { source: string; cpuMs(): number | undefined };
  /** k6 processes splitting the run (execution segments), 1 unless given; the Node runner runs in one. */
  instances?: number;
  /** How a deployed server is reached (--header, --proxy, --ca-cert, --insecure), by either generator. */
  deployment?: LoadDeployment;
  output(line: string): void;
}

const MEMORY_SAMPLE_MS = 1000;

/**
 * One second of the scenario by the Node runner, not counted: a server's first requests pay for
 * lazy loading and JIT warm-up, which is cold start (its own scenario), not load.
 */
export async function warmUp(scenario: ScenarioName, settings: Record<string, string | undefined>, deployment?: LoadDeployment): Promise<LoadRun> {
  const warmSettings = { ...settings, DURATION: '1', RUN_ID: `${Date.now().toString(36)}w` };
  return runWithNode(await loadDefinition(scenario, warmSettings), warmSettings, deployment);
}

/** One measured run of the scenario (no warm-up), with the server's memory sampled when the kit can see it. */
export async function runOnce(options: Omit<LoadRunOptions, 'repeat' | 'output'> & { output?(line: string): void; tag: string }): Promise<LoadRun> {
  // Each run gets its own request ids: a server may refuse an id it has seen (feedback links by it).
  const settings = { ...options.settings, RUN_ID: `${Date.now().toString(36)}${options.tag}` };
  const definition = await loadDefinition(options.scenario, settings);
  const samples: { at_s: number; rss_bytes: number }[] = [];
  const started = performance.now();
  const sample = () => options.memory && samples.push({ at_s: Math.round((performance.now() - started) / 100) / 10, rss_bytes: options.memory.rssBytes() });
  sample();
  const timer = options.memory ? setInterval(sample, MEMORY_SAMPLE_MS) : undefined;
  const cpu = cpuWatch(options);
  let run: LoadRun;
  try {
    run = options.k6
      ? await runWithK6(options.k6.path, options.scenario, settings, options.output, {
          instances: options.instances ?? 1,
          ...(options.deployment ? { deployment: options.deployment } : {}),
        })
      : await runWithNode(definition, settings, options.deployment);
  } finally {
    if (timer) clearInterval(timer);
  }
  run.generator_health = generatorHealth(run, cpu.facts());
  sample();
  if (!options.memory) return run;
  run.memory = { source: options.memory.source, samples };
  // Memory is seen only here, outside the generators: its drift verdict joins the run's thresholds now.
  const { drift } = definition;
  if (!drift) return run;
  const thresholds = [...run.thresholds, ...memoryDriftThresholds(drift, samples)];
  return { ...run, thresholds, passed: thresholds.every((threshold) => threshold.ok) };
}

/**
 * What the generator and the server used of the CPU during one run, where the kit sees it: k6
 * processes are this process's children (their time is exact once they are waited for); the
 * Node runner is this process, which also holds the embedded server when there is one.
 */
function cpuWatch(options: Pick<LoadRunOptions, 'k6' | 'serverCpu' | 'memory'>) {
  // The Node runner and the embedded server in one process: only their sum can be measured.
  const shared = !options.k6 && options.serverCpu?.source === SAME_PROCESS;
  // The Node runner's limit is its one JavaScript thread: the main thread's time, not the process's (garbage collection runs beside it).
  const generatorCpu = options.k6 ? endedChildrenCpuMs : shared ? ownCpuMs : () => threadCpuMs(process.pid) ?? ownCpuMs();
  const generatorSource = options.k6 ? 'k6 processes' : shared ? 'kit process (Node runner and embedded server)' : 'kit main thread (Node runner)';
  const serverCpu = shared ? undefined : options.serverCpu;
  const generatorStart = generatorCpu();
  const serverStart = serverCpu?.cpuMs();
  const idleStart = machineIdleMs();
  return {
    facts(): HealthFacts {
      const generatorEnd = generatorCpu();
      const serverEnd = serverCpu?.cpuMs();
      const idleEnd = machineIdleMs();
      return {
        cores: availableParallelism(),
        // k6 runs its virtual users on every core; the Node runner's JavaScript on one thread.
        generatorCapacityCores: options.k6 ? availableParallelism() : 1,
        ...(generatorStart !== undefined && generatorEnd !== undefined ? { generator: { cpuMs: generatorEnd - generatorStart, source: generatorSource } } : {}),
        ...(serverStart !== undefined && serverEnd !== undefined ? { server: { cpuMs: serverEnd - serverStart, source: serverCpu!.source } } : {}),
        ...(idleStart !== undefined && idleEnd !== undefined ? { machineIdleMs: idleEnd - idleStart } : {}),
        ...(shared ? { sharedProcess: true } : {}),
      };
    },
  };
}

/** The source of a server's CPU that is this very process (the embedded server). */
export const SAME_PROCESS = 'kit process running the embedded reference server';

export async function runLoad(options: LoadRunOptions): Promise<LoadSection> {
  if (options.scenario !== 'cold-start') {
    const warm = await warmUp(options.scenario, options.settings, options.deployment);
    options.output(`warm-up (not counted): ${warm.requests} requests in ${Math.round(warm.duration_ms)} ms`);
  }
  const runs: LoadRun[] = [];
  for (let repeat = 1; repeat <= options.repeat; repeat++) {
    const run = await runOnce({ ...options, tag: `r${repeat}` });
    runs.push(run);
    options.output(`run ${repeat}/${options.repeat}: ${runLine(run)}`);
    options.output(`  ${healthLine(run.generator_health!)}`);
  }
  const drift = driftOf(runs[0]!);
  return { scenario: options.scenario, runs, ...(drift ? { drift } : {}) };
}

/** One line per run: verdict, requests, throughput, percentiles, errors, and any missed threshold. */
export function runLine(run: LoadRun): string {
  const missed = run.thresholds.filter((threshold) => !threshold.ok).map((threshold) => `${threshold.metric} ${threshold.condition}`);
  return `${run.passed ? 'thresholds held' : `THRESHOLDS MISSED (${missed.join('; ')})`}; ${run.requests} requests, ${run.throughput_rps} req/s, p50 ${run.latency.all?.p50_ms ?? '-'} ms, p95 ${run.latency.all?.p95_ms ?? '-'} ms, p99 ${run.latency.all?.p99_ms ?? '-'} ms, errors ${(run.error_rate * 100).toFixed(2)} %, checks ${(run.check_rate * 100).toFixed(2)} %`;
}

/** First and last timeline windows of a run compared; undefined with fewer than two windows. */
export function driftOf(run: LoadRun): LoadDrift | undefined {
  const first = run.timeline[0];
  const last = run.timeline[run.timeline.length - 1];
  if (!first || !last || first === last) return undefined;
  const memory = run.memory?.samples;
  const rss =
    memory && memory.length >= 2
      ? {
          rss_first_bytes: memory[0]!.rss_bytes,
          rss_last_bytes: memory[memory.length - 1]!.rss_bytes,
          rss_growth_bytes: memory[memory.length - 1]!.rss_bytes - memory[0]!.rss_bytes,
        }
      : {};
  return {
    first_window_p50_ms: first.p50_ms,
    last_window_p50_ms: last.p50_ms,
    p50_ratio: first.p50_ms > 0 ? Math.round((last.p50_ms / first.p50_ms) * 100) / 100 : 0,
    first_window_p99_ms: first.p99_ms,
    last_window_p99_ms: last.p99_ms,
    first_window_count: first.count,
    last_window_count: last.count,
    ...rss,
  };
}

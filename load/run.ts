// One `load run`: a scenario repeated N times by k6 when the kit found one, else by the Node
// runner, with the server's memory sampled when the kit can see it, and the soak drift (whose
// verdicts are thresholds of each run: a soak that drifts fails on its own).
import type { LoadDrift, LoadRun, LoadSection } from '../reports/load-run.ts';
import { memoryDriftThresholds } from './definitions/drift.js';
import { runWithK6, type K6Location } from './k6.ts';
import { loadDefinition, type ScenarioName } from './runner/definition.ts';
import { runWithNode } from './runner/run-scenario.ts';

export interface LoadRunOptions {
  scenario: ScenarioName;
  /** BASE_URL, API_KEY and the scenario's settings (RATE, DURATION, thresholds...). */
  settings: Record<string, string | undefined>;
  /** Undefined: the Node runner. */
  k6?: K6Location;
  repeat: number;
  /** Resident memory of the server's process, when the kit can see it. */
  memory?: { source: string; rssBytes(): number };
  output(line: string): void;
}

const MEMORY_SAMPLE_MS = 1000;

/**
 * One second of the scenario by the Node runner, not counted: a server's first requests pay for
 * lazy loading and JIT warm-up, which is cold start (its own scenario), not load.
 */
export async function warmUp(scenario: ScenarioName, settings: Record<string, string | undefined>): Promise<LoadRun> {
  const warmSettings = { ...settings, DURATION: '1', RUN_ID: `${Date.now().toString(36)}w` };
  return runWithNode(await loadDefinition(scenario, warmSettings), warmSettings);
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
  let run: LoadRun;
  try {
    run = options.k6 ? await runWithK6(options.k6.path, options.scenario, settings, options.output, { definition }) : await runWithNode(definition, settings);
  } finally {
    if (timer) clearInterval(timer);
  }
  sample();
  if (!options.memory) return run;
  run.memory = { source: options.memory.source, samples };
  // Memory is seen only here, outside the generators: its drift verdict joins the run's thresholds now.
  const { drift } = definition;
  if (!drift) return run;
  const thresholds = [...run.thresholds, ...memoryDriftThresholds(drift, samples)];
  return { ...run, thresholds, passed: thresholds.every((threshold) => threshold.ok) };
}

export async function runLoad(options: LoadRunOptions): Promise<LoadSection> {
  if (options.scenario !== 'cold-start') {
    const warm = await warmUp(options.scenario, options.settings);
    options.output(`warm-up (not counted): ${warm.requests} requests in ${Math.round(warm.duration_ms)} ms`);
  }
  const runs: LoadRun[] = [];
  for (let repeat = 1; repeat <= options.repeat; repeat++) {
    const run = await runOnce({ ...options, tag: `r${repeat}` });
    runs.push(run);
    options.output(`run ${repeat}/${options.repeat}: ${runLine(run)}`);
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

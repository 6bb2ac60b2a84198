// One run from its parts: k6 processes of `load run --instances N` on this machine, or the pods
// of a k6-operator TestRun, each of which ran one execution segment of the same scenario and wrote
// its own load.json and raw samples. The whole is judged as one run: counts add up, percentiles
// and the timeline come from every part's samples on one time origin (the recorder's histograms
// merge exactly), and the thresholds and drift are judged again on the whole, by the limits the
// parts recorded.
//
// Parts that are not one run are refused with a one-line reason (MergeRefusal): different
// scenarios, spec versions, servers or segment sequences, and segments missing or doubled. A
// merge that silently combined them would report a run that never happened.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadCheck, LoadRun } from '../reports/load-run.ts';
import { CHECK_EXAMPLE_MARK } from './definitions/common.js';
import type { CheckExample } from './definitions/response-rules.js';
import { recordK6Samples } from './k6-samples.ts';
import { createLatencyRecorder, PERCENTILE_METHOD } from './percentiles.ts';
import type { ScenarioDefinition } from './runner/definition.ts';
import { judgeThresholds } from './runner/result.ts';

/** Parts that are not one run: the reason is one line, for exit status 2. */
export class MergeRefusal extends Error {}

/** What each part (process or pod) leaves in its folder. */
export const PART_FILES = {
  /** handleSummary's result (k6-adapter.js). */
  result: 'load.json',
  /** k6's raw samples (--out csv=…, see k6-samples.ts k6SampleOutput). */
  samples: 'samples.csv.gz',
  /** k6's console output (--console-output), where the first failed exchange of each check is logged; optional. */
  console: 'console.log',
} as const;

export interface RunPart {
  /** Where the part came from, for messages. */
  source: string;
  run: LoadRun;
  samplesPath: string;
}

/** A part from its folder: load.json and samples.csv.gz, and the check examples of console.log when present. */
export function readPart(dir: string): RunPart {
  const resultPath = join(dir, PART_FILES.result);
  const samplesPath = join(dir, PART_FILES.samples);
  let run: LoadRun;
  try {
    run = JSON.parse(readFileSync(resultPath, 'utf8')) as LoadRun;
  } catch (error) {
    throw new MergeRefusal(`${dir}: no readable ${PART_FILES.result} (${(error as Error).message.split('\n')[0]})`);
  }
  if (typeof run !== 'object' || run === null || typeof run.scenario !== 'string' || !Array.isArray(run.checks))
    throw new MergeRefusal(`${resultPath} is not a load result of a scenario`);
  if (!existsSync(samplesPath))
    throw new MergeRefusal(`${dir}: no ${PART_FILES.samples}: run the part with k6's raw samples (see load/k6-operator/testrun.yaml)`);
  const consolePath = join(dir, PART_FILES.console);
  if (existsSync(consolePath)) {
    const examples = checkExamples(readFileSync(consolePath, 'utf8'));
    for (const check of run.checks) {
      const example = examples.get(check.name);
      if (example && check.fails > 0 && !check.example) check.example = example;
    }
  }
  return { source: dir, run, samplesPath };
}

/** The first example of each check a part's script logged (k6-adapter.js), from its console output. */
export function checkExamples(console: string): Map<string, CheckExample> {
  const examples = new Map<string, CheckExample>();
  for (const line of console.split('\n')) {
    if (!line.startsWith(CHECK_EXAMPLE_MARK)) continue;
    try {
      const { check, example } = JSON.parse(line.slice(CHECK_EXAMPLE_MARK.length)) as { check: string; example: CheckExample };
      if (!examples.has(check)) examples.set(check, example);
    } catch {
      // A line cut short (the process ended mid-write) gives no example; the check's counts still hold.
    }
  }
  return examples;
}

/** A rational number of an execution segment ("1/4", "0.25", "0", "1"), as [numerator, denominator] in lowest terms. */
function rational(text: string, where: string): [number, number] {
  const fraction = /^(\d+)\/(\d+)$/.exec(text);
  const decimal = /^(\d+)(?:\.(\d+))?$/.exec(text);
  let value: [number, number];
  if (fraction) value = [Number(fraction[1]), Number(fraction[2])];
  else if (decimal) value = [Number(`${decimal[1]}${decimal[2] ?? ''}`), 10 ** (decimal[2]?.length ?? 0)];
  else if (/^\d+(\.\d+)?%$/.test(text)) return rational(`${Number(text.slice(0, -1)) / 100}`, where);
  else throw new MergeRefusal(`${where}: "${text}" is not a fraction of an execution segment`);
  if (value[1] === 0 || value[0] > value[1]) throw new MergeRefusal(`${where}: "${text}" is not between 0 and 1`);
  const divisor = gcd(value[0], value[1]);
  return [value[0] / divisor, value[1] / divisor];
}
const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
const compare = (a: [number, number], b: [number, number]) => a[0] * b[1] - b[0] * a[1];
const show = (value: [number, number]) => (value[0] === 0 ? '0' : value[1] === 1 ? String(value[0]) : `${value[0]}/${value[1]}`);

interface Segment {
  source: string;
  from: [number, number];
  to: [number, number];
}

/** The segment of a part; a part run whole (no --execution-segment) is 0:1. */
function segmentOf(part: RunPart): Segment {
  const text = part.run.execution_segment?.segment ?? '0:1';
  const [from, to, extra] = text.split(':');
  if (from === undefined || to === undefined || extra !== undefined) throw new MergeRefusal(`${part.source}: execution segment "${text}" is not FROM:TO`);
  const segment = { source: part.source, from: rational(from, part.source), to: rational(to, part.source) };
  if (compare(segment.from, segment.to) >= 0) throw new MergeRefusal(`${part.source}: execution segment "${text}" is empty`);
  return segment;
}

/** The one value every part has for `of`, or a refusal naming two parts that differ. */
function agreed<T>(parts: readonly RunPart[], of: (run: LoadRun) => T, what: string, key: (value: T) => string = String): T {
  const first = parts[0]!;
  for (const part of parts.slice(1))
    if (key(of(part.run)) !== key(of(first.run)))
      throw new MergeRefusal(`the parts are not one run: ${what} differ (${key(of(first.run))} in ${first.source}, ${key(of(part.run))} in ${part.source})`);
  return of(first.run);
}

/**
 * Refuses parts that are not one run; returns their segment sequence ("" for one part run whole).
 * The segments must cover 0 to 1 exactly once, each bounded by points of the sequence.
 */
export function checkParts(parts: readonly RunPart[]): string {
  if (parts.length === 0) throw new MergeRefusal('no parts to merge');
  agreed(parts, (run) => run.scenario, 'scenarios');
  agreed(parts, (run) => run.spec?.sha256 ?? 'no spec recorded', 'spec versions (sha256)');
  agreed(parts, (run) => run.base_url, 'servers (base URL)');
  agreed(parts, (run) => run.generator.name, 'generators');
  for (const part of parts) {
    if (!part.run.limits)
      throw new MergeRefusal(`${part.source}: its load.json records no limits (written by an older kit); run the part again with this kit's scenarios`);
    if (part.run.percentile_method !== undefined && part.run.percentile_method !== 'k6-trend' && part.run.generator.name === 'k6' && parts.length > 1)
      throw new MergeRefusal(`${part.source}: a finished run, not a part (its percentiles are already the kit's); merge the parts' own folders`);
  }
  agreed(
    parts,
    (run) => run.limits,
    'thresholds and timeline windows',
    (limits) => JSON.stringify(limits),
  );
  agreed(
    parts,
    (run) => run.executor,
    'executors',
    (executor) => JSON.stringify(executor),
  );
  const sequence = agreed(parts, (run) => run.execution_segment?.sequence ?? '', 'segment sequences');
  const points = sequence ? sequence.split(',').map((point) => rational(point.trim(), `sequence ${sequence}`)) : undefined;
  const segments = parts.map(segmentOf).sort((a, b) => compare(a.from, b.from) || compare(a.to, b.to));
  if (points)
    for (const segment of segments)
      for (const end of [segment.from, segment.to])
        if (!points.some((point) => compare(point, end) === 0))
          throw new MergeRefusal(
            `${segment.source}: segment ${show(segment.from)}:${show(segment.to)} does not start and end on points of the sequence ${sequence}`,
          );
  let covered: [number, number] = [0, 1];
  let previous: Segment | undefined;
  for (const segment of segments) {
    const gap = compare(segment.from, covered);
    if (gap > 0) throw new MergeRefusal(`segment ${show(covered)}:${show(segment.from)} is missing: no part ran it`);
    if (gap < 0) {
      const same = previous && compare(previous.from, segment.from) === 0 && compare(previous.to, segment.to) === 0;
      throw new MergeRefusal(
        same
          ? `segment ${show(segment.from)}:${show(segment.to)} is doubled: ${previous!.source} and ${segment.source} both ran it`
          : `segments overlap: ${previous!.source} ran ${show(previous!.from)}:${show(previous!.to)}, ${segment.source} ran ${show(segment.from)}:${show(segment.to)}`,
      );
    }
    covered = segment.to;
    previous = segment;
  }
  if (compare(covered, [1, 1]) < 0) throw new MergeRefusal(`segment ${show(covered)}:1 is missing: no part ran it`);
  return sequence;
}

/** Checks of every part by name, passes and fails added, the first example of each kept. */
function mergedChecks(parts: readonly RunPart[]): LoadCheck[] {
  const byName = new Map<string, LoadCheck>();
  for (const { run } of parts)
    for (const check of run.checks) {
      const found = byName.get(check.name);
      if (!found) byName.set(check.name, { ...check });
      else {
        found.passes += check.passes;
        found.fails += check.fails;
        if (!found.example && check.example) found.example = check.example;
      }
    }
  return [...byName.values()];
}

const sum = (parts: readonly RunPart[], of: (run: LoadRun) => number) => parts.reduce((total, part) => total + of(part.run), 0);
const round = (value: number) => Math.round(value * 10) / 10;

/** Counts by key added over the parts; undefined when no part has any. */
function addedCounts(records: readonly (Record<string, number> | undefined)[]): Record<string, number> | undefined {
  const total: Record<string, number> = {};
  for (const record of records) for (const [key, count] of Object.entries(record ?? {})) total[key] = (total[key] ?? 0) + count;
  return Object.keys(total).length > 0 ? total : undefined;
}

/** The parts as one run (after checkParts), its latency and timeline from every part's samples. */
export async function mergeParts(parts: readonly RunPart[]): Promise<LoadRun> {
  const sequence = checkParts(parts);
  const first = parts[0]!.run;
  const limits = first.limits!;
  const facts: Pick<ScenarioDefinition, 'name' | 'executor' | 'requestNames' | 'timelineWindowS' | 'thresholds' | 'drift'> = {
    name: first.scenario,
    executor: first.executor as unknown as ScenarioDefinition['executor'],
    requestNames: [...new Set(parts.flatMap((part) => Object.keys(part.run.requests_by_name)))],
    timelineWindowS: limits.timeline_window_s,
    thresholds: limits.thresholds,
    ...(limits.drift ? { drift: limits.drift } : {}),
  };
  const recorder = createLatencyRecorder(facts);
  await recordK6Samples(
    parts.map((part) => part.samplesPath),
    recorder,
  );
  const { latency, timeline } = recorder.figures();

  const startMs = Math.min(...parts.map((part) => Date.parse(part.run.started_at)));
  const endMs = Math.max(...parts.map((part) => Date.parse(part.run.started_at) + part.run.duration_ms));
  const durationMs = endMs - startMs;
  const requests = sum(parts, (run) => run.requests);
  const checks = mergedChecks(parts);
  const checkTotal = checks.reduce((total, check) => total + check.passes + check.fails, 0);
  const errorRate = requests === 0 ? 0 : sum(parts, (run) => run.error_rate * run.requests) / requests;
  const checkRate = checkTotal === 0 ? 0 : checks.reduce((total, check) => total + check.passes, 0) / checkTotal;
  const thresholds = judgeThresholds(facts, { latency, timeline, errorRate, checkRate });
  const versions = [...new Set(parts.map((part) => part.run.generator.version))];
  const refusals = addedCounts(parts.map((part) => part.run.open_point_refusals));
  return {
    scenario: first.scenario,
    description: first.description,
    generator: { name: first.generator.name, version: versions.join(' + ') },
    percentile_method: PERCENTILE_METHOD,
    base_url: first.base_url,
    started_at: new Date(startMs).toISOString(),
    duration_ms: round(durationMs),
    executor: first.executor,
    iterations: sum(parts, (run) => run.iterations),
    dropped_iterations: sum(parts, (run) => run.dropped_iterations),
    // Each part's peak added: an upper bound of the virtual users busy at once over the whole.
    vus_peak: sum(parts, (run) => run.vus_peak ?? 0),
    requests,
    requests_by_name: addedCounts(parts.map((part) => part.run.requests_by_name)) ?? {},
    throughput_rps: durationMs > 0 ? round(requests / (durationMs / 1000)) : 0,
    error_rate: errorRate,
    check_rate: checkRate,
    latency,
    checks,
    thresholds,
    timeline,
    passed: thresholds.every((threshold) => threshold.ok),
    ...(first.validation ? { validation: { every: first.validation.every, validated: sum(parts, (run) => run.validation?.validated ?? 0) } } : {}),
    ...(refusals ? { open_point_refusals: refusals } : {}),
    ...(first.spec ? { spec: first.spec } : {}),
    ...(parts.length > 1 ? { parts: { count: parts.length, sequence } } : {}),
    limits,
  };
}

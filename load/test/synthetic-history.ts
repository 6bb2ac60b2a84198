// Made-up `load run` folders for the history's tests and for load/bench/history-error-rates.ts:
// each folder holds a few repeated runs of one server level, with seeded Gaussian noise, written
// as `load run` writes results.json (buildLoadReport), so the history reads them as it reads real ones.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addToHistory } from '../history.ts';
import { seededRandom } from '../definitions/common.js';
import { buildLoadReport } from '../../reports/load-report.ts';
import type { LoadRun } from '../../reports/load-run.ts';
import { REPORT_FILES } from '../../reports/write.ts';
import { flat, sampleLoadRun } from '../../reports/test/sample-load.ts';

export const FIRST_RUN_AT = new Date('2026-11-01T08:00:00.000Z');

/** A standard normal draw (Box–Muller) from a uniform generator. */
export function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

export interface LevelRunOptions {
  /** The server's speed relative to the first level: 0.97 is 3 % less throughput. */
  level: number;
  /** Relative standard deviation of each figure of each run, e.g. 0.01. */
  noise: number;
  generator?: 'k6' | 'node';
  bound?: boolean;
}

/**
 * One run at `level`: throughput 1,000 req/s × level, latency percentiles growing as throughput
 * falls (a closed loop: latency ~ 1 / throughput); every figure with its own noise, so that the
 * metrics of a flat series are as independent as they can be (the worst case for false alarms).
 */
export function levelRun(random: () => number, options: LevelRunOptions): LoadRun {
  const noisy = (value: number) => value * (1 + options.noise * gaussian(random));
  const run = sampleLoadRun(true, flat);
  const slower = 1 / options.level;
  return {
    ...run,
    scenario: 'decide-capacity',
    generator: options.generator === 'node' ? { name: 'node', version: 'v20.19.0' } : { name: 'k6', version: 'v2.2.0' },
    throughput_rps: noisy(1000 * options.level),
    error_rate: 0,
    check_rate: 1,
    latency: { all: { count: 5000, p50_ms: noisy(4 * slower), p90_ms: noisy(6 * slower), p95_ms: noisy(7 * slower), p99_ms: noisy(12 * slower), max_ms: 30 } },
    ...(options.bound
      ? { generator_health: { bound: true, reasons: ['the generator used every core it had'], achieved_rate_per_s: 900, dropped_iterations: 0 } }
      : {}),
  };
}

/** A results folder as `load run` writes it (results.json only: the history reads nothing else). */
export async function writeResultsFolder(dir: string, runs: LoadRun[], startedAt: Date): Promise<string> {
  const report = buildLoadReport({
    target: { baseUrl: 'http://127.0.0.1:8080', embedded: true, capabilities: [] },
    startedAt,
    finishedAt: new Date(startedAt.getTime() + 60_000),
    secrets: [],
    load: { scenario: runs[0]!.scenario, runs },
  });
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, REPORT_FILES.json), `${JSON.stringify(report, null, 2)}\n`, 'utf8');
  return dir;
}

export interface SyntheticEntry {
  label: string;
  startedAt: Date;
  runs: LoadRun[];
}

/**
 * One entry per element of `levels` (a level per entry), each of `repeats` runs, an hour apart:
 * what a history of that many `load run` folders holds.
 */
export function syntheticEntries(
  seed: number,
  levels: readonly number[],
  options: { repeats?: number; noise?: number; generator?: 'k6' | 'node' } = {},
): SyntheticEntry[] {
  const random = seededRandom(seed);
  return levels.map((level, i) => ({
    label: `commit-${String(i + 1).padStart(3, '0')}`,
    startedAt: new Date(FIRST_RUN_AT.getTime() + i * 3_600_000),
    runs: Array.from({ length: options.repeats ?? 3 }, () =>
      levelRun(random, { level, noise: options.noise ?? 0.01, ...(options.generator ? { generator: options.generator } : {}) }),
    ),
  }));
}

/** `count` entries at one level. */
export const flatLevels = (count: number) => Array.from({ length: count }, () => 1);

/** `steps` successive losses of `loss` (0.03: 3 %), `perLevel` entries at each level. */
export const steppedLevels = (steps: number, loss: number, perLevel: number) =>
  Array.from({ length: (steps + 1) * perLevel }, (_, i) => (1 - loss) ** Math.floor(i / perLevel));

/** Temporary folders named from `prefix`, all removed by removeAll (a test's afterAll). */
export function scratchFolders(prefix: string) {
  const made: string[] = [];
  return {
    async make(): Promise<string> {
      const dir = await mkdtemp(join(tmpdir(), prefix));
      made.push(dir);
      return dir;
    },
    removeAll: () => Promise.all(made.map((dir) => rm(dir, { recursive: true, force: true }))),
  };
}

/** A store made as CI makes one, in `dir`: a `load run` folder per entry, each added with its label; returns the store. */
export async function storeIn(dir: string, entries: readonly SyntheticEntry[]): Promise<string> {
  const store = join(dir, 'store');
  for (const [i, entry] of entries.entries())
    await addToHistory(await writeResultsFolder(join(dir, `run-${i}`), entry.runs, entry.startedAt), store, { label: entry.label });
  return store;
}

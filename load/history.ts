// The performance history: one plain JSON file per `load run` folder added to a store folder, and
// the check that looks for change points in it (change-points.ts).
//
// `load compare` judges two sets of runs and needs each step to exceed a tolerance, so a server
// that loses 3 % a week passes every comparison and is a quarter slower after ten. The history
// keeps every run's figures and asks of the whole series whether its level moved, and when.
//
// Store. A folder of files named `<run start, UTC>_<label slug>.json` (ls lists them in the order
// they ran), each pretty-printed JSON: diffable, no server; CI keeps the folder as an artefact or
// in a branch. An entry holds the kit version and spec hash the run was made with, its generator,
// label, scenario, times, and per metric the median of the folder's repeated runs with every
// run's own value.
//
// Series. Entries group by scenario and generator kind (generator and percentile method, as
// `load compare` refuses to mix them): k6 and the Node runner differ by construction, and a series
// mixing them would show the switch as a change of the server. Runs the generator could not keep
// up in (generator_health.bound) are stored and marked, and left out of the medians; an entry
// whose every run was bound is left out of its series, with a note.
//
// Verdict. Each metric's series of medians goes through the detector. A metric regresses when its
// newest change point lies among the newest `newest` entries of the series (default 10) and the
// segment after it (the newest runs) is worse than the segment before it, in the metric's
// direction: throughput and check rate higher is better, latency and error rate lower. A change
// further back is reported and does not fail the check: the series has held the new level for
// `newest` runs since, which makes it the level the project has accepted (a permanently red
// check would only teach people to delete the store). See load/README.md.
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { LoadRun } from '../reports/load-run.ts';
import { defaultReportDir } from '../reports/write.ts';
import { readLoadResults as readLoad, ResultsFileError } from '../reports/results-file.ts';
import { changePoints, DEFAULT_CHANGE_POINT_OPTIONS, type ChangePoint, type ChangePointOptions } from './change-points.ts';
import { DEFAULT_TOLERANCE, ERROR_RATE_FLOOR, generatorKindOf, generatorOf, median } from './compare.ts';
import { P99_MIN_REQUESTS } from './definitions/order-statistics.js';

/** A store or a results folder that cannot be read or written: always names the file and says why, on one line. */
export class HistoryError extends Error {}

/** Bumped when an entry's shape changes so that an older reader would misread it. */
export const HISTORY_FORMAT = 1;

export type Better = 'higher' | 'lower';

/** The figures kept of each run, and which way is better. */
/**
 * The metrics of the history, each with the direction that is better and the smallest change that
 * counts against the newest runs, the floors load compare uses (compare.ts DEFAULT_TOLERANCE): a
 * significant p50 shift of 1.0 -> 1.05 ms is real but no regression anyone should stop for.
 */
export const HISTORY_METRICS = [
  { name: 'throughput_rps', better: 'higher', floor: 0, of: (run: LoadRun) => run.throughput_rps },
  { name: 'latency_p50_ms', better: 'lower', floor: DEFAULT_TOLERANCE.latencyFloorMs, of: (run: LoadRun) => run.latency.all?.p50_ms },
  { name: 'latency_p95_ms', better: 'lower', floor: DEFAULT_TOLERANCE.latencyFloorMs, of: (run: LoadRun) => run.latency.all?.p95_ms },
  // p99 only where the run has the requests a p99 needs (order-statistics.js): below, it is a guess.
  {
    name: 'latency_p99_ms',
    better: 'lower',
    floor: DEFAULT_TOLERANCE.latencyFloorMs,
    of: (run: LoadRun) => ((run.latency.all?.count ?? 0) >= P99_MIN_REQUESTS ? run.latency.all?.p99_ms : undefined),
  },
  { name: 'error_rate', better: 'lower', floor: ERROR_RATE_FLOOR, of: (run: LoadRun) => run.error_rate },
  { name: 'check_rate', better: 'higher', floor: DEFAULT_TOLERANCE.checks, of: (run: LoadRun) => run.check_rate },
] as const satisfies readonly { name: string; better: Better; floor: number; of: (run: LoadRun) => number | undefined }[];

export type HistoryMetricName = (typeof HISTORY_METRICS)[number]['name'];

export interface MetricFigures {
  /** Median over the runs the generator kept up in; null when none has the figure. */
  median: number | null;
  /** Each run's value, in run order (null where the run has none, e.g. no latency without answers). */
  runs: (number | null)[];
}

/** One added `load run` folder: what one store file holds. */
export interface HistoryEntry {
  history_format: typeof HISTORY_FORMAT;
  /** What the run measured, e.g. a commit; from --label, else the results folder's name. */
  label: string;
  scenario: string;
  /** generatorOf(run): "k6 v2.2.0, nearest-rank". */
  generator: string;
  kit_version: string;
  spec_sha256: string;
  /** When the run started (results.json started_at): the entry's place in the series. */
  run_started_at: string;
  /** When the entry was added to the store. */
  recorded_at: string;
  /** Repeated runs in the folder. */
  runs: number;
  /** Runs (1-based) in which the generator, not the server, set the pace: left out of the medians. */
  generator_bound: { run: number; reasons: string[] }[];
  metrics: Record<HistoryMetricName, MetricFigures>;
}

export interface StoredEntry {
  /** The file's name inside the store. */
  file: string;
  entry: HistoryEntry;
}

export interface HistorySeries {
  scenario: string;
  /** Generator and percentile method without the version: "k6, nearest-rank". */
  generator_kind: string;
  /** The entries of the series, oldest first. */
  entries: StoredEntry[];
  /** Entries stored but kept out of the series, and why. */
  left_out: { file: string; label: string; reason: string }[];
  /** What a reader of the series should know: runs left out of medians, kit or spec changes. */
  notes: string[];
}

export interface History {
  /** Every valid entry of the store, oldest first. */
  entries: StoredEntry[];
  series: HistorySeries[];
}

// ---------------------------------------------------------------------------------------------
// Adding a run

const isString = (value: unknown): value is string => typeof value === 'string';
const isFigure = (value: unknown) => value === null || (typeof value === 'number' && Number.isFinite(value));
const isTime = (value: unknown) => isString(value) && !Number.isNaN(Date.parse(value));

interface LoadResults {
  file: string;
  kit: { version: string };
  spec: { sha256: string };
  started_at: string;
  load: { scenario: string; runs: LoadRun[] };
}

/** A load run's results.json (a report folder, or the file itself), with the identity fields the history keeps. */
function readLoadResults(path: string): LoadResults {
  let read;
  try {
    read = readLoad(path);
  } catch (error) {
    if (error instanceof ResultsFileError) throw new HistoryError(error.message);
    throw error;
  }
  const { file, results } = read;
  const parsed = results as any;
  if (typeof parsed.kit?.version !== 'string' || typeof parsed.spec?.sha256 !== 'string' || !isTime(parsed.started_at))
    throw new HistoryError(`${file} does not say which kit, spec and start time it has (kit.version, spec.sha256, started_at): written by an older kit?`);
  return { ...parsed, file };
}

/** A label as part of a file name: letters, digits, dot, dash and underscore only, at most 60. */
export function labelSlug(label: string): string {
  const slug = label
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || 'run';
}

/** The entry of one results folder: identity, and each metric's runs and median. */
export function entryOf(results: Omit<LoadResults, 'file'>, label: string, recordedAt: Date): HistoryEntry {
  const { runs } = results.load;
  const generators = new Set(runs.map(generatorOf));
  if (generators.size > 1)
    throw new HistoryError(`the runs of one folder come from different generators (${[...generators].join(' / ')}): add folders of one generator`);
  const bound = runs.flatMap((run, index) => (run.generator_health?.bound === true ? [{ run: index + 1, reasons: [...run.generator_health.reasons] }] : []));
  const kept = runs.filter((run) => run.generator_health?.bound !== true);
  const metrics = {} as Record<HistoryMetricName, MetricFigures>;
  for (const metric of HISTORY_METRICS) {
    const values = kept.map((run) => metric.of(run)).filter((value): value is number => typeof value === 'number' && Number.isFinite(value));
    metrics[metric.name] = { median: values.length > 0 ? median(values) : null, runs: runs.map((run) => finiteOrNull(metric.of(run))) };
  }
  return {
    history_format: HISTORY_FORMAT,
    label,
    scenario: results.load.scenario,
    generator: [...generators][0]!,
    kit_version: results.kit.version,
    spec_sha256: results.spec.sha256,
    run_started_at: results.started_at,
    recorded_at: recordedAt.toISOString(),
    runs: runs.length,
    generator_bound: bound,
    metrics,
  };
}

const finiteOrNull = (value: number | undefined) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** The store file's name: the run's start as report folders stamp it (no colons, for Windows), then the label. */
export function entryFileName(entry: HistoryEntry): string {
  return `${basename(defaultReportDir(new Date(entry.run_started_at)))}_${labelSlug(entry.label)}.json`;
}

/** Writes an entry into the store (made if missing); never over an existing file. */
export async function writeEntry(storeDir: string, entry: HistoryEntry): Promise<string> {
  await mkdir(storeDir, { recursive: true });
  const path = join(storeDir, entryFileName(entry));
  try {
    await writeFile(path, `${JSON.stringify(entry, null, 2)}\n`, { encoding: 'utf8', flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      throw new HistoryError(`${path} exists: that run (same start and label) is in the store already; a run counts once`);
    throw new HistoryError(`${path}: cannot write (${(error as Error).message})`);
  }
  return path;
}

/** Adds one `load run` folder (or its results.json) to the store: one new file, returned with its entry. */
export async function addToHistory(
  resultsDirOrFile: string,
  storeDir: string,
  options: { label?: string; now?: Date } = {},
): Promise<{ file: string; entry: HistoryEntry }> {
  const results = readLoadResults(resultsDirOrFile);
  const label = options.label?.trim() || basename(dirname(resolve(results.file)));
  const entry = entryOf(results, label, options.now ?? new Date());
  return { file: await writeEntry(storeDir, entry), entry };
}

// ---------------------------------------------------------------------------------------------
// Reading the store

/** Why a parsed store file is not an entry, or undefined when it is one. */
export function entryProblem(value: any): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  if (value.history_format !== HISTORY_FORMAT) return `history_format is ${JSON.stringify(value.history_format)}, this kit reads ${HISTORY_FORMAT}`;
  for (const key of ['label', 'scenario', 'generator', 'kit_version', 'spec_sha256'] as const) if (!isString(value[key])) return `${key} is not a string`;
  for (const key of ['run_started_at', 'recorded_at'] as const) if (!isTime(value[key])) return `${key} is not a date and time`;
  if (!(Number.isInteger(value.runs) && value.runs > 0)) return 'runs is not a positive whole number';
  if (
    !Array.isArray(value.generator_bound) ||
    !value.generator_bound.every(
      (mark: any) => Number.isInteger(mark?.run) && mark.run >= 1 && mark.run <= value.runs && Array.isArray(mark.reasons) && mark.reasons.every(isString),
    )
  )
    return 'generator_bound is not a list of {run, reasons}';
  if (typeof value.metrics !== 'object' || value.metrics === null) return 'metrics is missing';
  for (const { name } of HISTORY_METRICS) {
    const figures = value.metrics[name];
    if (!isFigure(figures?.median)) return `metrics.${name}.median is not a number or null`;
    if (!Array.isArray(figures.runs) || figures.runs.length !== value.runs || !figures.runs.every(isFigure))
      return `metrics.${name}.runs is not a list of ${value.runs} numbers or nulls`;
  }
  return undefined;
}

/** Every entry of the store, validated, oldest first, and grouped into series. */
export async function readHistory(storeDir: string): Promise<History> {
  let names: string[];
  try {
    if (!(await stat(storeDir)).isDirectory()) throw new Error('not a folder');
    names = await readdir(storeDir);
  } catch (error) {
    throw new HistoryError(`${storeDir}: not a readable store folder (${(error as Error).message})`);
  }
  const entries: StoredEntry[] = [];
  for (const file of names.filter((name) => name.endsWith('.json')).sort()) {
    const path = join(storeDir, file);
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(path, 'utf8'));
    } catch (error) {
      throw new HistoryError(`${path}: not readable JSON (${(error as Error).message})`);
    }
    const problem = entryProblem(parsed);
    if (problem) throw new HistoryError(`${path}: not a history entry: ${problem}`);
    entries.push({ file, entry: parsed as HistoryEntry });
  }
  // File names sort by start already; the field decides should a file have been renamed.
  entries.sort((a, b) => Date.parse(a.entry.run_started_at) - Date.parse(b.entry.run_started_at) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { entries, series: seriesOf(entries) };
}

function seriesOf(entries: readonly StoredEntry[]): HistorySeries[] {
  const groups = new Map<string, HistorySeries>();
  for (const stored of entries) {
    const { entry } = stored;
    const kind = generatorKindOf(entry.generator);
    const key = JSON.stringify([entry.scenario, kind]);
    let series = groups.get(key);
    if (!series) {
      series = { scenario: entry.scenario, generator_kind: kind, entries: [], left_out: [], notes: [] };
      groups.set(key, series);
    }
    const reasons = [...new Set(entry.generator_bound.flatMap((mark) => mark.reasons))].join('; ').replace(/\s+/g, ' ') || 'no reason recorded';
    if (entry.generator_bound.length === entry.runs) {
      series.left_out.push({ file: stored.file, label: entry.label, reason: `the generator set the pace in every run (${reasons})` });
      continue;
    }
    if (entry.generator_bound.length > 0)
      series.notes.push(
        `${JSON.stringify(entry.label)}: run ${entry.generator_bound.map((mark) => mark.run).join(', ')} of ${entry.runs} left out of the medians, the generator set the pace (${reasons})`,
      );
    const previous = series.entries[series.entries.length - 1]?.entry;
    // Changes that are not the server's, beside the series: a change point there may be theirs.
    if (previous && previous.generator !== entry.generator)
      series.notes.push(`generator ${previous.generator} -> ${entry.generator} from ${JSON.stringify(entry.label)}`);
    if (previous && previous.kit_version !== entry.kit_version)
      series.notes.push(`kit ${previous.kit_version} -> ${entry.kit_version} from ${JSON.stringify(entry.label)}`);
    if (previous && previous.spec_sha256 !== entry.spec_sha256)
      series.notes.push(`spec sha256 ${previous.spec_sha256.slice(0, 12)} -> ${entry.spec_sha256.slice(0, 12)} from ${JSON.stringify(entry.label)}`);
    series.entries.push(stored);
  }
  for (const series of groups.values())
    for (const out of series.left_out) series.notes.push(`${JSON.stringify(out.label)} (${out.file}) left out of the series: ${out.reason}`);
  return [...groups.values()];
}

// ---------------------------------------------------------------------------------------------
// Checking

export interface HistoryCheckOptions {
  /** A change counts against the newest runs when it lies among this many newest entries of its series. */
  newest: number;
  changePoints: ChangePointOptions;
}

export const DEFAULT_NEWEST = 10;

export interface LabelledChangePoint extends ChangePoint {
  /** The label of the first entry after the change. */
  label: string;
}

export type MetricVerdict = 'worse' | 'better' | 'earlier' | 'none';

export interface MetricCheck {
  metric: HistoryMetricName;
  better: Better;
  /** The series as the detector saw it: each entry's median and label, oldest first. */
  labels: string[];
  values: number[];
  change_points: LabelledChangePoint[];
  /**
   * worse / better: the newest change lies among the newest entries and the newest segment is
   * worse / not worse than the one before; earlier: the newest change is further back; none: no change point.
   */
  verdict: MetricVerdict;
  regression: boolean;
  /** The verdict in words. */
  reason: string;
}

export interface SeriesCheck {
  scenario: string;
  generator_kind: string;
  /** Entries in the series (left-out ones not counted). */
  runs: number;
  left_out: HistorySeries['left_out'];
  notes: string[];
  metrics: MetricCheck[];
  regression: boolean;
}

export interface HistoryCheck {
  store: string;
  /** Entries in the store, in every series, left out or not. */
  entries: number;
  settings: { newest: number; p_value: number; permutations: number; min_segment: number; seed: number };
  series: SeriesCheck[];
  regression: boolean;
}

const isWorse = (better: Better, before: number, after: number) => (better === 'higher' ? after < before : after > before);

/** The verdict of one metric's series: see the header for what counts against the newest runs. */
export function checkMetric(
  metric: { name: HistoryMetricName; better: Better; floor: number },
  points: readonly { label: string; value: number }[],
  options: HistoryCheckOptions,
): MetricCheck {
  const values = points.map((point) => point.value);
  const labels = points.map((point) => point.label);
  const found = changePoints(values, options.changePoints).map((point) => ({ ...point, label: labels[point.index]! }));
  const base = { metric: metric.name, better: metric.better, labels, values, change_points: found };
  const minimum = 2 * options.changePoints.minSegment;
  const last = found[found.length - 1];
  if (!last)
    return {
      ...base,
      verdict: 'none',
      regression: false,
      reason: values.length < minimum ? `too few runs to look for a change (${values.length}; it takes ${minimum})` : 'no change point',
    };
  const newestLength = values.length - last.index;
  if (newestLength > options.newest)
    return {
      ...base,
      verdict: 'earlier',
      regression: false,
      reason: `the newest change is ${newestLength} runs back, before the newest ${options.newest}: the series has held that level since`,
    };
  const worse = isWorse(metric.better, last.mean_before, last.mean_after);
  const small = Math.abs(last.mean_after - last.mean_before) <= metric.floor;
  return {
    ...base,
    verdict: worse ? 'worse' : 'better',
    regression: worse && !small,
    reason: `${worse ? 'worse' : 'not worse'} in the newest ${newestLength} runs than in the segment before${worse && small ? `, by no more than ${metric.floor} (the smallest change that counts)` : ''}`,
  };
}

export function checkSeries(series: HistorySeries, options: HistoryCheckOptions): SeriesCheck {
  const metrics = HISTORY_METRICS.map((metric) => {
    const points = series.entries.flatMap(({ entry }) => {
      const value = entry.metrics[metric.name].median;
      return value === null ? [] : [{ label: entry.label, value }];
    });
    return checkMetric(metric, points, options);
  });
  return {
    scenario: series.scenario,
    generator_kind: series.generator_kind,
    runs: series.entries.length,
    left_out: series.left_out,
    notes: series.notes,
    metrics,
    regression: metrics.some((metric) => metric.regression),
  };
}

/** Reads the store and checks every series; a store with no entries is an error. */
export async function checkHistory(storeDir: string, options: { newest?: number; changePoints?: Partial<ChangePointOptions> } = {}): Promise<HistoryCheck> {
  const settings: HistoryCheckOptions = {
    newest: options.newest ?? DEFAULT_NEWEST,
    changePoints: { ...DEFAULT_CHANGE_POINT_OPTIONS, ...options.changePoints },
  };
  if (!(Number.isInteger(settings.newest) && settings.newest >= settings.changePoints.minSegment))
    throw new HistoryError(`newest must be a whole number of at least ${settings.changePoints.minSegment} (the shortest segment); got ${settings.newest}`);
  const history = await readHistory(storeDir);
  if (history.entries.length === 0) throw new HistoryError(`${storeDir} holds no history entries (add runs with "load history add")`);
  const series = history.series.map((one) => checkSeries(one, settings));
  const { pValue, permutations, minSegment, seed } = settings.changePoints;
  return {
    store: storeDir,
    entries: history.entries.length,
    settings: { newest: settings.newest, p_value: pValue, permutations, min_segment: minSegment, seed },
    series,
    regression: series.some((one) => one.regression),
  };
}

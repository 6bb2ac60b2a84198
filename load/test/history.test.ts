// The performance history through its real store files: ten 3 % losses that `load compare` passes
// one by one are flagged; flat noise is not (10 of 10 seeds); a step in the newest runs is, an
// improvement is not, and an old step the series has held since is not; generators never share a
// series; generator-bound runs stay out; and the command's exit codes and escaping.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { kitIdentity } from '../../reports/kit-identity.ts';
import type { LoadRun } from '../../reports/load-run.ts';
import { specSha256 } from '../../spec/index.ts';
import { changePoints } from '../change-points.ts';
import { compareRuns, median } from '../compare.ts';
import { addToHistory, checkHistory, HistoryError, readHistory, type HistoryCheck, type MetricCheck } from '../history.ts';
import { flatLevels, steppedLevels, syntheticEntries, writeResultsFolder, type SyntheticEntry, scratchFolders, storeIn } from './synthetic-history.ts';

const folders = scratchFolders('history-test-');
afterAll(folders.removeAll);
const scratch = folders.make;
/** A store made as CI makes one: a `load run` folder per entry, each added with its label. */
const storeOf = async (entries: readonly SyntheticEntry[]) => storeIn(await scratch(), entries);

const metric = (check: HistoryCheck, name: string, series = 0): MetricCheck => check.series[series]!.metrics.find((one) => one.metric === name)!;

describe('the store', () => {
  test('an added run is one pretty-printed file named by its start and label, with identity, generator and every metric', async () => {
    const [entry] = syntheticEntries(1, [1]);
    const dir = await scratch();
    const { file } = await addToHistory(await writeResultsFolder(join(dir, 'run'), entry!.runs, entry!.startedAt), join(dir, 'store'), {
      label: 'abc123 fix: faster scorer',
    });
    expect(file).toBe(join(dir, 'store', '2026-11-01T08-00-00Z_abc123-fix-faster-scorer.json'));
    const text = await readFile(file, 'utf8');
    expect(text).toMatch(/^\{\n {2}"history_format": 1,\n/);
    const stored = JSON.parse(text);
    expect(stored).toMatchObject({
      label: 'abc123 fix: faster scorer',
      scenario: 'decide-capacity',
      generator: 'k6 v2.2.0, nearest-rank',
      kit_version: kitIdentity.version,
      spec_sha256: specSha256,
      run_started_at: '2026-11-01T08:00:00.000Z',
      runs: 3,
      generator_bound: [],
    });
    const throughputs = entry!.runs.map((run) => run.throughput_rps);
    expect(stored.metrics.throughput_rps).toEqual({ median: median(throughputs), runs: throughputs });
    expect(stored.metrics.latency_p99_ms.runs).toEqual(entry!.runs.map((run) => run.latency.all!.p99_ms));
    expect(Object.keys(stored.metrics)).toEqual(['throughput_rps', 'latency_p50_ms', 'latency_p95_ms', 'latency_p99_ms', 'error_rate', 'check_rate']);
  });

  test('a run added twice is refused, and a file that is not an entry is named in a one-line error', async () => {
    const [entry] = syntheticEntries(1, [1]);
    const dir = await scratch();
    const results = await writeResultsFolder(join(dir, 'run'), entry!.runs, entry!.startedAt);
    const store = join(dir, 'store');
    await addToHistory(results, store, { label: 'a' });
    await expect(addToHistory(results, store, { label: 'a' })).rejects.toThrow(/in the store already/);
    await writeFile(join(store, '2026-11-02T00-00-00Z_broken.json'), '{"history_format": 1, "label": 5}');
    const error = await readHistory(store).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HistoryError);
    expect((error as Error).message).toMatch(/2026-11-02T00-00-00Z_broken\.json: not a history entry: label is not a string$/);
    expect((error as Error).message).not.toContain('\n');
  });

  test('a folder of another kind of run is refused', async () => {
    const dir = await scratch();
    await writeFile(join(dir, 'results.json'), JSON.stringify({ kind: 'conformance', results: [] }));
    await expect(addToHistory(dir, join(dir, 'store'))).rejects.toThrow(/holds a conformance run, not a load run/);
  });
});

describe('series', () => {
  test('runs by k6 and by the Node runner go to separate series, which mixed would show a change that is no change of the server', async () => {
    // The Node runner drives this server at 60 % of k6's figures, by construction of the generators.
    const k6 = syntheticEntries(21, flatLevels(15));
    const node = syntheticEntries(
      22,
      Array.from({ length: 15 }, () => 0.6),
      { generator: 'node' },
    ).map((entry, i) => ({
      ...entry,
      label: `node-${i}`,
      startedAt: new Date(entry.startedAt.getTime() + 15 * 3_600_000),
    }));
    // A newer k6 stays in its series (load compare mixes versions too), with a note where it came.
    for (const entry of k6.slice(10)) entry.runs = entry.runs.map((run) => ({ ...run, generator: { name: 'k6', version: 'v2.3.0' } }));
    const check = await checkHistory(await storeOf([...k6, ...node]));
    expect(check.series.map((series) => [series.generator_kind, series.runs])).toEqual([
      ['k6, nearest-rank', 15],
      ['node, nearest-rank', 15],
    ]);
    expect(check.series[0]!.notes).toEqual(['generator k6 v2.2.0, nearest-rank -> k6 v2.3.0, nearest-rank from "commit-011"']);
    expect(check.regression).toBe(false);
    const mixed = [...k6, ...node].map((entry) => median(entry.runs.map((run) => run.throughput_rps)));
    expect(changePoints(mixed).map((point) => point.index)).toEqual([15]);
  });

  test('an entry whose every run was generator-bound is stored, marked, and left out of its series with a note; a bound run is left out of its medians', async () => {
    const entries = syntheticEntries(31, flatLevels(30));
    // A run the generator could not keep up in: its throughput measures the generator, not the server.
    const generatorBound = (run: LoadRun): LoadRun => ({
      ...run,
      throughput_rps: run.throughput_rps * 0.5,
      generator_health: { bound: true, reasons: ['the generator used every core'], achieved_rate_per_s: 500, dropped_iterations: 0 },
    });
    entries[27]!.runs = entries[27]!.runs.map(generatorBound);
    entries[28]!.runs = entries[28]!.runs.map(generatorBound);
    entries[29]!.runs = entries[29]!.runs.map((run, i) => (i === 0 ? generatorBound(run) : run));
    const store = await storeOf(entries);
    const files = (await readdir(store)).sort();
    expect(files).toHaveLength(30);
    const bound = JSON.parse(await readFile(join(store, files[28]!), 'utf8'));
    expect(bound.generator_bound).toEqual([1, 2, 3].map((run) => ({ run, reasons: ['the generator used every core'] })));
    const partly = JSON.parse(await readFile(join(store, files[29]!), 'utf8'));
    expect(partly.generator_bound.map((mark: { run: number }) => mark.run)).toEqual([1]);
    expect(partly.metrics.throughput_rps.median).toBe(median(partly.metrics.throughput_rps.runs.slice(1)));
    expect(partly.metrics.throughput_rps.median).toBeGreaterThan(900);

    const check = await checkHistory(store);
    const [series] = check.series;
    expect(series!.runs).toBe(28);
    expect(series!.left_out.map((out) => out.label)).toEqual(['commit-028', 'commit-029']);
    expect(series!.notes).toContain(
      '"commit-028" (2026-11-02T11-00-00Z_commit-028.json) left out of the series: the generator set the pace in every run (the generator used every core)',
    );
    expect(series!.notes.some((note) => note.startsWith('"commit-030": run 1 of 3 left out of the medians'))).toBe(true);
    const throughput = metric(check, 'throughput_rps');
    expect(throughput.labels).not.toContain('commit-028');
    expect(throughput.values).toHaveLength(28);
    expect(Math.min(...throughput.values)).toBeGreaterThan(900);
  });
});

describe('the verdict', () => {
  test('ten successive 3 % losses that load compare passes one by one are flagged', async () => {
    const entries = syntheticEntries(41, steppedLevels(10, 0.03, 3));
    for (let level = 0; level < 10; level++) {
      const runsOf = (at: number) => entries.slice(at * 3, at * 3 + 3).flatMap((entry) => entry.runs);
      const comparison = compareRuns(runsOf(level), runsOf(level + 1));
      expect(comparison.regression, `level ${level} -> ${level + 1}`).toBe(false);
      expect(comparison.metrics.find((one) => one.metric === 'throughput_rps')!.change).toBeLessThan(0);
    }
    const check = await checkHistory(await storeOf(entries));
    expect(check.regression).toBe(true);
    const throughput = metric(check, 'throughput_rps');
    expect(throughput).toMatchObject({ verdict: 'worse', regression: true });
    expect(throughput.values).toHaveLength(33);
    expect(throughput.change_points.every((point) => point.relative_change! < 0)).toBe(true);
    // Over the whole history the level fell by about 26 %: 0.97^10.
    expect(throughput.change_points.at(-1)!.mean_after / throughput.change_points[0]!.mean_before).toBeLessThan(0.85);
  });

  test('a flat noisy history of 30 runs is not flagged, for 10 of 10 seeds', async () => {
    const verdicts = [];
    for (let seed = 1; seed <= 10; seed++) verdicts.push((await checkHistory(await storeOf(syntheticEntries(seed, flatLevels(30))))).regression);
    expect(verdicts).toEqual(Array.from({ length: 10 }, () => false));
  });

  test('a big step for the worse in the newest runs is flagged, at the first run after it', async () => {
    const check = await checkHistory(await storeOf(syntheticEntries(51, [...flatLevels(27), 0.85, 0.85, 0.85])));
    expect(check.regression).toBe(true);
    const throughput = metric(check, 'throughput_rps');
    expect(throughput.verdict).toBe('worse');
    expect(throughput.change_points.map((point) => [point.index, point.label])).toEqual([[27, 'commit-028']]);
    expect(throughput.change_points[0]!.relative_change).toBeCloseTo(-0.15, 1);
    // p50 moved from 4 to 4.7 ms: a real change, within the 2 ms that load compare also lets pass.
    const p50 = metric(check, 'latency_p50_ms');
    expect(p50.verdict).toBe('worse');
    expect(p50.regression).toBe(false);
    expect(p50.reason).toMatch(/by no more than 2 \(the smallest change that counts\)/);
    // p99 (12 -> 14.1 ms) is past the floor: a regression of its own.
    expect(metric(check, 'latency_p99_ms').regression).toBe(true);
  });

  test('an improvement in the newest runs is no failure', async () => {
    const check = await checkHistory(await storeOf(syntheticEntries(52, [...flatLevels(27), 1.15, 1.15, 1.15])));
    expect(check.regression).toBe(false);
    expect(metric(check, 'throughput_rps').verdict).toBe('better');
    expect(metric(check, 'latency_p50_ms').verdict).toBe('better');
  });

  test('a step for the worse long ago, held since, is reported and does not fail; while among the newest runs it does', async () => {
    const store = await storeOf(syntheticEntries(53, [...flatLevels(8), ...Array.from({ length: 22 }, () => 0.85)]));
    const check = await checkHistory(store);
    expect(check.regression).toBe(false);
    const throughput = metric(check, 'throughput_rps');
    expect(throughput.verdict).toBe('earlier');
    expect(throughput.change_points.map((point) => point.index)).toEqual([8]);
    expect(throughput.reason).toMatch(/22 runs back, before the newest 10/);
    // The same store read with a window that reaches back to the step: the step fails it.
    const wider = await checkHistory(store, { newest: 25 });
    expect(wider.regression).toBe(true);
    expect(metric(wider, 'throughput_rps').verdict).toBe('worse');
  });
});

// How often `load history check` fails a history it should pass, and passes one it should fail,
// on made-up histories written through the real store (load/test/synthetic-history.ts):
//  - false alarms: 30 entries of one server level (3 runs each, 1 % noise on every figure, each
//    figure independent: the worst case), over `--flat N` seeds (default 200);
//  - detection: ten successive 3 % throughput losses, 3 entries a level (33 entries), which
//    `load compare` passes step by step, over `--steps N` seeds (default 50).
// npx tsx load/bench/history-error-rates.ts [--flat 200] [--steps 50]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { addToHistory, checkHistory, type HistoryCheck } from '../history.ts';
import { flatLevels, steppedLevels, syntheticEntries, writeResultsFolder } from '../test/synthetic-history.ts';

const { values } = parseArgs({ options: { flat: { type: 'string', default: '200' }, steps: { type: 'string', default: '50' } } });

async function checkOf(seed: number, levels: readonly number[]): Promise<HistoryCheck> {
  const dir = await mkdtemp(join(tmpdir(), 'history-rates-'));
  try {
    const store = join(dir, 'store');
    for (const [i, entry] of syntheticEntries(seed, levels).entries()) {
      await addToHistory(await writeResultsFolder(join(dir, `run-${i}`), entry.runs, entry.startedAt), store, { label: entry.label });
    }
    return await checkHistory(store);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function rate(name: string, seeds: number, levels: readonly number[]): Promise<void> {
  const started = performance.now();
  let flagged = 0;
  const byMetric = new Map<string, number>();
  for (let seed = 1; seed <= seeds; seed++) {
    const check = await checkOf(seed, levels);
    if (check.regression) flagged++;
    for (const metric of check.series.flatMap((series) => series.metrics))
      if (metric.regression) byMetric.set(metric.metric, (byMetric.get(metric.metric) ?? 0) + 1);
  }
  const metrics = [...byMetric].map(([metric, count]) => `${metric} ${count}`).join(', ') || 'none';
  console.log(
    `${name}: flagged ${flagged} of ${seeds} (${((100 * flagged) / seeds).toFixed(1)} %); by metric: ${metrics}; ${((performance.now() - started) / seeds).toFixed(0)} ms a history`,
  );
}

await rate('flat, 30 entries', Number(values.flat), flatLevels(30));
await rate('ten 3 % throughput losses, 3 entries a level', Number(values.steps), steppedLevels(10, 0.03, 3));

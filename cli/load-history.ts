// `decision-conformance load history add | check`: the performance history (load/history.ts).
// add stores one `load run` folder's figures as a file of the store; check looks for change
// points in every series, writes history.html and exits 1 when the newest runs got worse.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { addToHistory, checkHistory, HistoryError, type HistoryCheck } from '../load/history.ts';
import { changeText, figure } from '../load/history-chart.ts';
import { HISTORY_HTML, historyHeadline, historyHtml, methodText } from '../load/history-html.ts';
import { terminalText } from '../reports/escape.ts';
import { defaultReportDir } from '../reports/write.ts';

type Write = (text: string) => void;

/** Bad flags and arguments: exit 2, as a store that cannot be read. */
class HistoryUsageError extends Error {}

export async function loadHistoryCommand(argv: string[], _env: NodeJS.ProcessEnv, out: Write, err: Write): Promise<number> {
  const [sub, ...rest] = argv;
  try {
    switch (sub) {
      case 'add':
        return await historyAdd(rest, out);
      case 'check':
        return await historyCheck(rest, out);
      case undefined:
        throw new HistoryUsageError('load history needs a command: add or check');
      default:
        throw new HistoryUsageError(`unknown load history command "${sub}": add or check`);
    }
  } catch (error) {
    if (error instanceof HistoryUsageError || error instanceof HistoryError) {
      // One line whatever a file name or a parser put in the message.
      err(`decision-conformance load history: ${terminalText((error as Error).message.replace(/\s*\n\s*/g, ' '))}\nSee "decision-conformance load --help".\n`);
      return 2;
    }
    throw error;
  }
}

function parse<T extends Record<string, { type: 'string' | 'boolean' }>>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, strict: true, allowPositionals: true, options });
  } catch (error) {
    throw new HistoryUsageError((error as Error).message);
  }
}

/** `load history add RESULTS_DIR --store DIR [--label TEXT]` */
async function historyAdd(argv: string[], out: Write): Promise<number> {
  const { values, positionals } = parse(argv, { store: { type: 'string' }, label: { type: 'string' } });
  if (positionals.length !== 1)
    throw new HistoryUsageError(`load history add takes one results folder (a "load run" report folder); got ${positionals.length}`);
  if (!values.store) throw new HistoryUsageError('load history add needs --store DIR (the history folder; made if missing)');
  const { file, entry } = await addToHistory(positionals[0]!, values.store, { ...(values.label !== undefined ? { label: values.label } : {}) });
  const bound = entry.generator_bound.length > 0 ? `; ${entry.generator_bound.length} of them generator-bound, left out of the medians` : '';
  out(terminalText(`stored ${entry.scenario} (${entry.generator}), ${entry.runs} runs${bound}, label ${JSON.stringify(entry.label)}, in ${file}\n`));
  return 0;
}

/** `load history check --store DIR [--report-dir DIR] [--newest N] [--json]` */
async function historyCheck(argv: string[], out: Write): Promise<number> {
  const { values, positionals } = parse(argv, {
    store: { type: 'string' },
    'report-dir': { type: 'string' },
    newest: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (positionals.length > 0) throw new HistoryUsageError(`load history check takes no arguments, only flags; got "${positionals[0]}"`);
  if (!values.store) throw new HistoryUsageError('load history check needs --store DIR');
  let newest: number | undefined;
  if (values.newest !== undefined) {
    newest = Number(values.newest);
    if (!Number.isInteger(newest)) throw new HistoryUsageError(`--newest must be a whole number; got "${values.newest}"`);
  }
  const writtenAt = new Date();
  const check = await checkHistory(values.store, { ...(newest !== undefined ? { newest } : {}) });
  // The store is never written to: CI may keep it read-only, or in a branch of its own.
  const dir = values['report-dir'] ?? defaultReportDir(writtenAt);
  await mkdir(dir, { recursive: true });
  const page = join(dir, HISTORY_HTML);
  await writeFile(page, historyHtml(check, writtenAt), 'utf8');
  // Labels and notes come from store files; JSON leaves DEL and C1 raw.
  if (values.json) out(`${terminalText(JSON.stringify({ ...check, html: page }, null, 2))}\n`);
  else out(terminalText(`${historyText(check)}${HISTORY_HTML}: ${page}\n`));
  return check.regression ? 1 : 0;
}

/**
 * The check for a terminal: per series and metric its verdict and every change point found.
 * Labels are quoted as JSON strings, so that a line break in one cannot fake a line of the verdict.
 */
export function historyText(check: HistoryCheck): string {
  const lines = [`${historyHeadline(check)} (store ${check.store}, ${check.entries} entries; E-divisive means, ${methodText(check)})`];
  for (const series of check.series) {
    lines.push(`${series.scenario}, ${series.generator_kind}: ${series.runs} runs`);
    for (const metric of series.metrics) {
      lines.push(`  ${metric.regression ? '✗' : '✓'} ${metric.metric} (${metric.better} is better): ${metric.reason}`);
      for (const point of metric.change_points)
        lines.push(
          `      change at run ${point.index + 1} ${JSON.stringify(point.label)}: ${figure(point.mean_before)} -> ${figure(point.mean_after)} (${changeText(point.relative_change)}), p ${point.p_value}`,
        );
    }
    for (const note of series.notes) lines.push(`  note: ${note}`);
  }
  return `${lines.join('\n')}\n`;
}

// The replay's outputs: text for a terminal or CI log, JSON for tools.
import type { ReplayReport } from './replay.ts';

export function verdictLine(report: ReplayReport): string {
  const { replayed, changed, skipped } = report.counts;
  return `${changed > 0 ? `${changed} of ${replayed} replayed exchanges changed outcome` : `all ${replayed} replayed exchanges kept their outcome`}; ${skipped} skipped.`;
}

const where = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

export function formatReplay(report: ReplayReport, format: 'text' | 'json'): string {
  if (format === 'json') {
    return JSON.stringify(
      {
        verdict: verdictLine(report),
        counts: report.counts,
        skip_reasons: report.skipReasons,
        changed: report.verdicts.flatMap((v) =>
          v.kind === 'changed'
            ? [
                {
                  index: v.exchange.index,
                  check: v.exchange.checkId,
                  method: v.exchange.request.method,
                  path: where(v.exchange.request.url),
                  old_status: v.exchange.response?.status,
                  new_status: v.status ?? null,
                  changes: v.changes,
                },
              ]
            : [],
        ),
      },
      null,
      2,
    );
  }
  const lines = [verdictLine(report)];
  for (const verdict of report.verdicts) {
    if (verdict.kind !== 'changed') continue;
    const { exchange } = verdict;
    lines.push(`CHANGED  #${exchange.index} ${exchange.checkId}: ${exchange.request.method} ${where(exchange.request.url)}: ${verdict.changes.join('; ')}`);
  }
  for (const [reason, count] of Object.entries(report.skipReasons)) lines.push(`skipped  ${count} exchange${count === 1 ? '' : 's'}: ${reason}`);
  return lines.join('\n');
}

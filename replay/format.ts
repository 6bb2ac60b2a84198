// The replay's outputs: text for a terminal or CI log, JSON for tools. Both carry what servers
// answered (error codes, answer types, rule messages, ids in paths and curl lines): every such
// piece is shown with its control characters escaped (terminalText), so neither drives a terminal.
import { terminalText } from '../reports/escape.ts';
import type { ReplayReport } from './replay.ts';

/** The response rules a replayed response broke, MUST ones first (they fail the replay). */
export function brokenRules(report: ReplayReport) {
  const broken = report.rules.filter((rule) => rule.status === 'fail');
  return [...broken.filter((rule) => rule.level === 'MUST'), ...broken.filter((rule) => rule.level !== 'MUST')];
}

export function verdictLine(report: ReplayReport): string {
  const { replayed, changed, skipped } = report.counts;
  const must = brokenRules(report).filter((rule) => rule.level === 'MUST').length;
  return `${changed > 0 ? `${changed} of ${replayed} replayed exchanges changed outcome` : `all ${replayed} replayed exchanges kept their outcome`}; ${skipped} skipped${must > 0 ? `; ${must} MUST response rule${must === 1 ? '' : 's'} broken` : ''}.`;
}

const where = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

type Changed = Extract<ReplayReport['verdicts'][number], { kind: 'changed' }>;

/** "CHECK-ID: METHOD /path", and the open points the change is a choice of, when it is one. */
export function changeLabel(verdict: Changed): string {
  const { exchange } = verdict;
  return `${exchange.checkId}: ${exchange.request.method} ${where(exchange.request.url)}${verdict.openPoints ? ` (open point ${verdict.openPoints.join(', ')})` : ''}`;
}

export function formatReplay(report: ReplayReport, format: 'text' | 'json'): string {
  if (format === 'json') {
    const json = JSON.stringify(
      {
        verdict: verdictLine(report),
        counts: report.counts,
        skip_reasons: report.skipReasons,
        broken_rules: brokenRules(report).map((rule) => ({
          id: rule.id,
          level: rule.level,
          seed_sections: rule.seedSections,
          title: rule.title,
          message: rule.message,
          ...rule.rule,
          curl: rule.exchanges[0]?.curl,
        })),
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
                  ...(v.openPoints ? { open_points: v.openPoints } : {}),
                },
              ]
            : [],
        ),
      },
      null,
      2,
    );
    // JSON escapes C0 controls and lone surrogates itself, not DEL and C1: terminalText writes
    // those as \u escapes too, which leaves the same JSON value.
    return terminalText(json);
  }
  const lines = [verdictLine(report)];
  for (const verdict of report.verdicts) {
    if (verdict.kind !== 'changed') continue;
    const { exchange } = verdict;
    lines.push(
      `CHANGED  #${exchange.index} ${terminalText(exchange.checkId)}: ${terminalText(exchange.request.method)} ${terminalText(where(exchange.request.url))}: ${verdict.changes.map(terminalText).join('; ')}${verdict.openPoints ? ` (open point ${verdict.openPoints.map(terminalText).join(', ')})` : ''}`,
    );
  }
  for (const rule of brokenRules(report))
    lines.push(
      `RULE     ${rule.id} (${rule.level}, seed ${rule.seedSections.join(', ')}): ${terminalText(rule.message ?? '')}\n         ${terminalText(rule.exchanges[0]?.curl ?? '')}`,
    );
  for (const [reason, count] of Object.entries(report.skipReasons)) lines.push(`skipped  ${count} exchange${count === 1 ? '' : 's'}: ${terminalText(reason)}`);
  return lines.join('\n');
}

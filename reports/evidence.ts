// Which exchanges a report shows for a check, and how one reads as plain text.
import type { CheckReport, EvidenceReport } from './run-report.ts';

/**
 * A failing check usually fails on its last request, and some checks make dozens; the human
 * reports show the last few and say how many they left out (results.json keeps them all).
 */
export const EVIDENCE_SHOWN = 4;

export interface ShownEvidence {
  exchanges: EvidenceReport[];
  /** How many earlier exchanges were left out. */
  omitted: number;
}

export function shownEvidence(check: CheckReport, limit = EVIDENCE_SHOWN): ShownEvidence {
  const omitted = Math.max(0, check.evidence.length - limit);
  return { exchanges: check.evidence.slice(omitted), omitted };
}

/** "POST /v1/decide → 400 in 12.3 ms" */
export function exchangeHeadline(exchange: EvidenceReport): string {
  const outcome = exchange.response ? String(exchange.response.status) : 'no response';
  return `${exchange.request.method} ${exchange.request.url} → ${outcome} in ${exchange.duration_ms} ms`;
}

/** An exchange as an HTTP-like transcript: `>` lines sent, `<` lines received. */
export function exchangeAsText(exchange: EvidenceReport): string {
  const { request, response } = exchange;
  const lines = [`> ${request.method} ${request.url}`, ...headerLines('>', request.headers)];
  if (request.body !== undefined) lines.push('>', ...request.body.split('\n').map((line) => `> ${line}`));
  if (response) {
    lines.push(`< ${response.status}`, ...headerLines('<', response.headers));
    if (response.body !== '') lines.push('<', ...response.body.split('\n').map((line) => `< ${line}`));
  }
  if (exchange.transport_error !== undefined) lines.push(`! transport error: ${exchange.transport_error}`);
  return lines.join('\n');
}

function headerLines(marker: string, headers: Record<string, string>): string[] {
  return Object.entries(headers).map(([name, value]) => `${marker} ${name}: ${value}`);
}

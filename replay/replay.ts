// Re-sends the requests of an earlier run to a server (typically of a new version) and reports
// every exchange whose outcome changed. Keys come from the caller, never from the file: a
// recorded request carries a redacted key, and is sent with key A (then key B, when the
// outcome differs and a second key was given: the file does not say which project sent it).
import { createHttp, TransportError, type Reply, type SentRequest } from '../harness/http.ts';
import { isMask, redactText } from '../harness/redaction.ts';
import { judgedExchange } from '../harness/response-rules/exchange.ts';
import { createRuleLedger } from '../harness/response-rules/ledger.ts';
import type { CheckResult } from '../harness/check.ts';
import { IdentifierMap } from './identifiers.ts';
import { isExcerpt, outcomeChanges } from './outcome.ts';
import type { RecordedExchange } from './recorded.ts';

export interface ReplayTarget {
  baseUrl: string;
  keyA: string;
  keyB?: string;
  timeoutMs: number;
}

export type ReplayVerdict =
  | { kind: 'same'; exchange: RecordedExchange; withKeyB: boolean }
  | { kind: 'changed'; exchange: RecordedExchange; changes: string[]; status?: number }
  | { kind: 'skipped'; exchange: RecordedExchange; reason: string };

export interface ReplayReport {
  verdicts: ReplayVerdict[];
  counts: { replayed: number; same: number; changed: number; skipped: number };
  /** Skip reasons with how many exchanges each one covers. */
  skipReasons: Record<string, number>;
  /** Every response rule's verdict on the replayed responses (harness/response-rules/), in catalogue order. */
  rules: CheckResult[];
}

const NOT_RESENT = new Set(['authorization', 'content-length', 'host', 'connection', 'transfer-encoding']);

/** Why a recorded exchange cannot be replayed faithfully, or undefined when it can. */
export function skipReason(exchange: RecordedExchange): string | undefined {
  if (exchange.checkStatus === 'fail') return 'its check failed in the old run, so its outcome is no baseline';
  if (exchange.checkStatus === 'skip') return 'its check was skipped in the old run';
  if (!exchange.response) return 'no response was recorded (transport error)';
  const body = exchange.request.body;
  if (exchange.bodyBytes) return undefined;
  if (body !== undefined && /^<\d+ bytes>$/.test(body)) return 'the request body was recorded as its size only (<N bytes>)';
  if (body !== undefined && isExcerpt(body)) return 'the request body was recorded as an excerpt';
  return undefined;
}

export async function replay(exchanges: readonly RecordedExchange[], target: ReplayTarget): Promise<ReplayReport> {
  const ids = new IdentifierMap();
  const secrets = [target.keyA, ...(target.keyB ? [target.keyB] : [])];
  // Every replayed response is judged by the response rules, as the run's were: a new server
  // that keeps every outcome can still break a rule the old run's checks never looked at.
  const ledger = createRuleLedger();
  let sender = '';
  const http = createHttp({
    baseUrl: target.baseUrl,
    timeoutMs: target.timeoutMs,
    secrets,
    record: (recorded, answered) => {
      if (answered) ledger.judge(judgedExchange(answered.sent, answered.reply, secrets), recorded, sender);
    },
  });
  const verdicts: ReplayVerdict[] = [];

  for (const exchange of exchanges) {
    sender = `${exchange.checkId} #${exchange.index}`;
    const reason = skipReason(exchange);
    if (reason) {
      verdicts.push({ kind: 'skipped', exchange, reason });
      if (exchange.response) ids.sawOldResponse(exchange.response.body, exchange.response.headers);
      continue;
    }
    const old = exchange.response!;
    const path = ids.rewrite(new URL(exchange.request.url).pathname + new URL(exchange.request.url).search);
    // A body kept as a file is sent as its exact bytes: it is an upload or a generated body, not one that names ids.
    const body = exchange.bodyBytes || exchange.request.body === undefined ? undefined : ids.rewrite(exchange.request.body);
    const unknown = [...path.unknown, ...(body?.unknown ?? [])];
    ids.sawOldResponse(old.body, old.headers);
    if (unknown.length > 0) {
      verdicts.push({ kind: 'skipped', exchange, reason: 'it refers to an id made by an exchange that could not be replayed' });
      continue;
    }
    const authorization = exchange.request.headers.authorization ?? exchange.request.headers.Authorization;
    const masked = authorization?.startsWith('Bearer ') === true && isMask(authorization.slice('Bearer '.length));
    const headers = Object.fromEntries(Object.entries(exchange.request.headers).filter(([name]) => !NOT_RESENT.has(name.toLowerCase())));
    if (authorization !== undefined && !masked) headers.authorization = authorization;
    const send = (key: string | null): Promise<Reply> => {
      const sent: SentRequest = { method: exchange.request.method, path: path.text, headers, key };
      if (body !== undefined || exchange.bodyBytes) {
        sent.raw = exchange.bodyBytes ?? body!.text;
        const contentType = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
        if (contentType !== undefined) sent.contentType = contentType;
      }
      return http(sent);
    };

    let reply: Reply;
    try {
      reply = await send(masked ? target.keyA : null);
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      verdicts.push({ kind: 'changed', exchange, changes: [`no response: ${error.kind}: ${error.message}`] });
      continue;
    }
    let changes = outcomeChanges(old, { status: reply.status, headers: reply.headers, body: reply.text });
    let withKeyB = false;
    if (changes.length > 0 && masked && target.keyB) {
      const second = await send(target.keyB).catch(() => undefined);
      if (second && outcomeChanges(old, { status: second.status, headers: second.headers, body: second.text }).length === 0) {
        reply = second;
        changes = [];
        withKeyB = true;
      }
    }
    ids.pair(old.body, reply.text, old.headers, reply.headers);
    if (changes.length > 0) verdicts.push({ kind: 'changed', exchange, changes: changes.map((change) => redactText(change, secrets)), status: reply.status });
    else verdicts.push({ kind: 'same', exchange, withKeyB });
  }

  const count = (kind: ReplayVerdict['kind']) => verdicts.filter((v) => v.kind === kind).length;
  const skipReasons: Record<string, number> = {};
  for (const verdict of verdicts) if (verdict.kind === 'skipped') skipReasons[verdict.reason] = (skipReasons[verdict.reason] ?? 0) + 1;
  return {
    verdicts,
    counts: { replayed: count('same') + count('changed'), same: count('same'), changed: count('changed'), skipped: count('skipped') },
    skipReasons,
    rules: ledger.results(),
  };
}

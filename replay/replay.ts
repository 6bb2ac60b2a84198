// Re-sends the requests of an earlier run to a server (typically of a new version) and reports
// every exchange whose outcome changed. Keys come from the caller, never from the file: a
// recorded request names the project whose key it carried and the variant of that key
// (harness/key-variants.ts), and replay rebuilds that credential from the key it is given.
// Files of earlier versions name neither: their redacted keys are sent as key A (then key B,
// when the outcome differs and a second key was given).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { createHttp, operationIdOf, TransportError, type Reply, type SentRequest } from '../harness/http.ts';
import { credentialFor, withoutKeyPlaces, withQuery, type ProjectName } from '../harness/key-variants.ts';
import { isMask, redactText } from '../harness/redaction.ts';
import { judgedExchange } from '../harness/response-rules/exchange.ts';
import { createRuleLedger } from '../harness/response-rules/ledger.ts';
import type { CheckResult } from '../harness/check.ts';
import { checks as conformanceChecks } from '../conformance/registry.ts';
import { checks as coverageChecks } from '../coverage/checks.ts';
import { propertyChecks } from '../property/registry.ts';
import { deref, documentedResponse, isObject } from '../spec/index.ts';
import { IdentifierMap } from './identifiers.ts';
import { openPointsOf } from './open-points.ts';
import { isExcerpt, outcomeChanges } from './outcome.ts';
import { OVERLAP_INCOMPLETE, OVERLAP_RACE, racing, replayGroups } from './groups.ts';
import type { RecordedExchange } from './recorded.ts';

export interface ReplayTarget {
  baseUrl: string;
  keyA: string;
  keyB?: string;
  /** A key of a project whose assets expire as quickly as the old run's short-lifetime project's did. */
  keyExpiry?: string;
  timeoutMs: number;
  /** Headers every request carries (a gateway's: --header), and the values among them to redact like keys. */
  headers?: Readonly<Record<string, string>>;
  secrets?: readonly string[];
  /** How requests reach the server: a proxy, a CA to trust (harness/connection.ts). */
  dispatcher?: Dispatcher;
}

export type ReplayVerdict =
  | { kind: 'same'; exchange: RecordedExchange; withKeyB: boolean }
  | {
      kind: 'changed';
      exchange: RecordedExchange;
      changes: string[];
      status?: number;
      /** The open points of the spec the change is a choice of (open-points.ts), when it is one. */
      openPoints?: string[];
    }
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

/** Why an exchange sent with a project's key cannot be replayed: that project's key was not given. */
const MISSING_KEY: Record<Exclude<ProjectName, 'a'>, string> = {
  b: "it was sent with project B's key, and no key of a second project was given (--api-key-b)",
  expiry: "its outcome depends on elapsed time (the short-lifetime project's assets expire), and no key of such a project was given (--expiry-api-key)",
};

/**
 * The path (and query) of a recorded URL as the old run wrote it, and whether it must go out so:
 * the path-spelling checks send dot segments and the like, which parsing the URL would remove,
 * turning the spelling they tested into the plain path.
 */
function pathAsWritten(recordedUrl: string): { written: string; exactPath: boolean } {
  const url = new URL(recordedUrl);
  const parsed = url.pathname + url.search;
  if (!recordedUrl.startsWith(url.origin)) return { written: parsed, exactPath: false };
  const written = recordedUrl.slice(url.origin.length);
  return { written, exactPath: written !== parsed };
}

/** The open point the old response's documentation names (x-open-point, on the response or its body's schema), if any. */
function documentedOpenPoint(exchange: RecordedExchange): { response?: string } {
  const operationId = operationIdOf(exchange.request.method, new URL(exchange.request.url).pathname);
  const response = operationId && exchange.response ? documentedResponse(operationId, exchange.response.status) : undefined;
  const content = isObject(response?.content) ? response.content['application/json'] : undefined;
  const schema = isObject(content) && isObject(content.schema) ? content.schema : undefined;
  const point = response?.['x-open-point'] ?? (schema ? deref(schema)['x-open-point'] : undefined);
  return typeof point === 'string' ? { response: point } : {};
}

/** The checks of the kit, for the open points each one is about (results.json records only an OBSERVE check's). */
const KIT_CHECKS = [...conformanceChecks, ...coverageChecks, ...propertyChecks];

/** The open points the exchange's check is about: its own (OBSERVE), or those whose seed bounds it enforces. */
function checkOpenPoints(exchange: RecordedExchange): string[] {
  const check = KIT_CHECKS.find(({ id }) => id === exchange.checkId);
  return [
    ...new Set([
      ...(exchange.openPoint ? [exchange.openPoint] : []),
      ...(check?.openPoint ? [check.openPoint] : []),
      ...(check?.openPoints ?? []),
      ...(check?.bounds ?? []),
    ]),
  ];
}

/** One exchange ready to send, or why it is not sent. */
interface Ready {
  exchange: RecordedExchange;
  send: (key: string | null) => Promise<Reply>;
  /** The key of its first sending; null for a request sent with the credential in its headers. */
  key: string | null;
  /** A file of an earlier version: key B is tried when key A changes the outcome. */
  keyBFallback: boolean;
}
type Prepared = Ready | { exchange: RecordedExchange; skipped: string };

export async function replay(exchanges: readonly RecordedExchange[], target: ReplayTarget): Promise<ReplayReport> {
  const ids = new IdentifierMap();
  const secrets = [target.keyA, ...(target.keyB ? [target.keyB] : []), ...(target.keyExpiry ? [target.keyExpiry] : []), ...(target.secrets ?? [])];
  // A file of an earlier version says nothing of which project sent a request: there, and only
  // there, key B is tried when key A changes the outcome.
  const namesProjects = exchanges.some((exchange) => exchange.credential !== undefined);
  const keyOf: Record<ProjectName, string | undefined> = { a: target.keyA, b: target.keyB, expiry: target.keyExpiry };
  // Every replayed response is judged by the response rules, as the run's were: a new server
  // that keeps every outcome can still break a rule the old run's checks never looked at.
  const ledger = createRuleLedger();
  let sender = '';
  const http = createHttp({
    baseUrl: target.baseUrl,
    timeoutMs: target.timeoutMs,
    secrets,
    ...(target.headers ? { extraHeaders: target.headers } : {}),
    ...(target.dispatcher ? { dispatcher: target.dispatcher } : {}),
    record: (recorded, answered) => {
      if (answered) ledger.judge(judgedExchange(answered.sent, answered.reply, secrets), recorded, sender);
    },
  });
  const verdicts: ReplayVerdict[] = [];
  // Requests whose outcome depends on elapsed time (the short-lifetime project's) keep the gaps
  // the old run left between them: the last one's recorded and replayed start.
  let lastTimed: { recordedAtMs: number; replayedAtMs: number } | undefined;

  /** An exchange not sent: the ids of its old response are still noted, so that later requests naming them are skipped too. */
  const skippedAs = (exchange: RecordedExchange, reason: string): Prepared => {
    if (exchange.response) ids.sawOldResponse(exchange.response.body, exchange.response.headers);
    return { exchange, skipped: reason };
  };

  const prepare = (exchange: RecordedExchange): Prepared => {
    const reason = skipReason(exchange);
    if (reason) return skippedAs(exchange, reason);
    const old = exchange.response!;
    const { written, exactPath } = pathAsWritten(exchange.request.url);
    const path = ids.rewrite(written);
    // A body kept as a file is sent as its exact bytes: it is an upload or a generated body, not one that names ids.
    const body = exchange.bodyBytes || exchange.request.body === undefined ? undefined : ids.rewrite(exchange.request.body);
    const unknown = [...path.unknown, ...(body?.unknown ?? [])];
    ids.sawOldResponse(old.body, old.headers);
    if (unknown.length > 0) return { exchange, skipped: 'it refers to an id made by an exchange that could not be replayed' };
    const { credential } = exchange;
    if (credential && credential.project !== 'a' && keyOf[credential.project] === undefined) return { exchange, skipped: MISSING_KEY[credential.project] };

    const recordedHeaders = Object.fromEntries(Object.entries(exchange.request.headers).filter(([name]) => !NOT_RESENT.has(name.toLowerCase())));
    const authorization = exchange.request.headers.authorization ?? exchange.request.headers.Authorization;
    let sentPath = path.text;
    let headers: Record<string, string>;
    let key: string | null = null;
    let masked = false;
    if (credential) {
      // Every place a key travels is emptied of the redacted one, then the credential is rebuilt from the key given.
      const bare = withoutKeyPlaces(path.text, recordedHeaders);
      const rebuilt = credentialFor(keyOf[credential.project]!, credential.variant);
      sentPath = withQuery(bare.path, rebuilt.query);
      headers = { ...bare.headers, ...rebuilt.headers };
    } else {
      masked = authorization?.startsWith('Bearer ') === true && isMask(authorization.slice('Bearer '.length));
      headers = recordedHeaders;
      if (authorization !== undefined && !masked) headers.authorization = authorization;
      if (masked) key = target.keyA;
    }
    const send = (withKey: string | null): Promise<Reply> => {
      const sent: SentRequest = { method: exchange.request.method, path: sentPath, headers, key: withKey, ...(exactPath ? { exactPath } : {}) };
      if (body !== undefined || exchange.bodyBytes) {
        sent.raw = exchange.bodyBytes ?? body!.text;
        const contentType = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
        if (contentType !== undefined) sent.contentType = contentType;
      }
      return http(sent);
    };
    return { exchange, send, key, keyBFallback: masked && !namesProjects && target.keyB !== undefined };
  };

  /** Waits as long after the last timed request as the old run did, for a request whose outcome depends on elapsed time. */
  const keepGap = async (exchange: RecordedExchange) => {
    if (exchange.credential?.project !== 'expiry' || exchange.startedAtMs === undefined) return;
    if (lastTimed) {
      const due = lastTimed.replayedAtMs + (exchange.startedAtMs - lastTimed.recordedAtMs);
      if (due > Date.now()) await sleep(due - Date.now());
    }
    lastTimed = { recordedAtMs: exchange.startedAtMs, replayedAtMs: Date.now() };
  };

  /** Sends one prepared exchange and judges its outcome against the old one. */
  const judge = async (prepared: Ready, reply: Reply | TransportError): Promise<ReplayVerdict> => {
    const { exchange } = prepared;
    const old = exchange.response!;
    if (reply instanceof TransportError) return { kind: 'changed', exchange, changes: [`no response: ${reply.kind}: ${reply.message}`] };
    let answer = reply;
    let changes = outcomeChanges(old, { status: answer.status, headers: answer.headers, body: answer.text });
    let withKeyB = false;
    if (changes.length > 0 && prepared.keyBFallback) {
      const second = await prepared.send(target.keyB!).catch(() => undefined);
      if (second && outcomeChanges(old, { status: second.status, headers: second.headers, body: second.text }).length === 0) {
        answer = second;
        changes = [];
        withKeyB = true;
      }
    }
    ids.pair(old.body, answer.text, old.headers, answer.headers);
    if (changes.length > 0) {
      const redacted = changes.map((change) => redactText(change, secrets));
      const openPoints = openPointsOf(redacted, { check: checkOpenPoints(exchange), ...documentedOpenPoint(exchange) });
      return { kind: 'changed', exchange, changes: redacted, status: answer.status, ...(openPoints ? { openPoints } : {}) };
    }
    return { kind: 'same', exchange, withKeyB };
  };

  const sendOnce = (prepared: Ready): Promise<Reply | TransportError> =>
    prepared.send(prepared.key).catch((error: unknown) => {
      if (error instanceof TransportError) return error;
      throw error;
    });

  for (const group of replayGroups(exchanges)) {
    sender = `${group[0]!.checkId} #${group[0]!.index}`;
    if (group.length === 1) {
      const prepared = prepare(group[0]!);
      if ('skipped' in prepared) {
        verdicts.push({ kind: 'skipped', exchange: prepared.exchange, reason: prepared.skipped });
        continue;
      }
      await keepGap(prepared.exchange);
      verdicts.push(await judge(prepared, await sendOnce(prepared)));
      continue;
    }
    // Requests sent together are sent together again, except those whose outcome was a race (groups.ts).
    const raced = racing(group);
    const prepared = group.map((exchange) => (raced.has(exchange) ? skippedAs(exchange, OVERLAP_RACE) : prepare(exchange)));
    const sendable = prepared.filter((one): one is Ready => !('skipped' in one));
    if (sendable.length < prepared.length - raced.size) {
      for (const one of prepared) verdicts.push({ kind: 'skipped', exchange: one.exchange, reason: 'skipped' in one ? one.skipped : OVERLAP_INCOMPLETE });
      continue;
    }
    const replies = await Promise.all(sendable.map(sendOnce));
    const judged = new Map<RecordedExchange, ReplayVerdict>();
    for (const [index, one] of sendable.entries()) judged.set(one.exchange, await judge(one, replies[index]!));
    for (const one of prepared) verdicts.push('skipped' in one ? { kind: 'skipped', exchange: one.exchange, reason: one.skipped } : judged.get(one.exchange)!);
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

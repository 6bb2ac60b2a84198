// The exchanges of an earlier run, read from its results.json (reports/results.schema.json).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { COMPRESSED_SUFFIX } from '../harness/http.ts';
import { KEY_VARIANT_NAMES, type KeyVariantName, type ProjectName, type RecordedCredential } from '../harness/key-variants.ts';
import { RESPONSE_RULES_AREA } from '../harness/response-rules/catalogue.ts';
import { isObject } from '../spec/index.ts';

export interface RecordedExchange {
  /** Position in the run, 1-based, in the order the exchanges were made. */
  index: number;
  checkId: string;
  checkStatus: string;
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  /**
   * The exact bytes of a body too large to inline, from the body file the report keeps beside
   * results.json (its reproduce line sends `@bodies/<sha256>.bin`, or reads `bodies/<sha256>.bin.gz`
   * through gzip), when that file is there.
   */
  bodyBytes?: Uint8Array;
  response?: { status: number; headers: Record<string, string>; body: string };
  transportError?: string;
  /** When the old run sent it, epoch milliseconds: replay keeps the gaps of requests whose outcome depends on elapsed time. */
  startedAtMs?: number;
  /** Which project's key it carried and how (harness/key-variants.ts); absent in files of earlier versions. */
  credential?: RecordedCredential;
  /** The burst it was sent in, together with the other exchanges of the same group. */
  overlapGroup?: number;
  /** The open point its check is about, when the check has one. */
  openPoint?: string;
}

/** The body file a reproduce line sends: `--data-binary '@bodies/<sha256>.bin'`, or `gzip -dc 'bodies/<sha256>.bin.gz' | curl …`. */
function bodyFileOf(curl: string): string | undefined {
  return (/^gzip -dc '(bodies\/[0-9a-f]{64}\.bin\.gz)' \| curl /.exec(curl) ?? /--data-binary '@(bodies\/[0-9a-f]{64}\.bin)'/.exec(curl))?.[1];
}

function readBodyFile(path: string): Uint8Array {
  const bytes = readFileSync(path);
  return new Uint8Array(path.endsWith(COMPRESSED_SUFFIX) ? gunzipSync(bytes) : bytes);
}

const PROJECTS: readonly ProjectName[] = ['a', 'b', 'expiry'];

/** The recorded credential, when it names a project and a variant this version knows; undefined otherwise. */
function credentialOf(value: unknown): RecordedCredential | undefined {
  if (!isObject(value) || !PROJECTS.includes(value.project as ProjectName)) return undefined;
  if (value.variant === undefined) return { project: value.project as ProjectName };
  return KEY_VARIANT_NAMES.includes(value.variant as KeyVariantName)
    ? { project: value.project as ProjectName, variant: value.variant as KeyVariantName }
    : undefined;
}

export class UnreadableResults extends Error {
  override name = 'UnreadableResults';
}

export function readRecordedExchanges(file: string): RecordedExchange[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UnreadableResults(`cannot read ${file}: ${(error as Error).message.split('\n')[0]}`);
  }
  // Version 2 added the run's kind; a conformance run's exchanges are where version 1 had them.
  if (isObject(parsed) && parsed.schema_version === 2 && parsed.kind !== 'conformance') {
    throw new UnreadableResults(`${file} holds a ${String(parsed.kind)} run: replay reads the exchanges of a conformance run`);
  }
  if (!isObject(parsed) || (parsed.schema_version !== 1 && parsed.schema_version !== 2) || !Array.isArray(parsed.checks)) {
    throw new UnreadableResults(`${file} is not a results.json of the kit (schema_version 1 or 2 with checks)`);
  }
  const exchanges: RecordedExchange[] = [];
  for (const check of parsed.checks) {
    // A response rule's evidence is an exchange a check sent, already listed under that check.
    if (!isObject(check) || !Array.isArray(check.evidence) || check.area === RESPONSE_RULES_AREA) continue;
    for (const evidence of check.evidence) {
      if (!isObject(evidence) || !isObject(evidence.request)) continue;
      const request = evidence.request as unknown as RecordedExchange['request'];
      const bodyFile = typeof evidence.curl === 'string' ? bodyFileOf(evidence.curl) : undefined;
      const bodyPath = bodyFile ? join(dirname(file), bodyFile) : undefined;
      const response = isObject(evidence.response) ? (evidence.response as unknown as RecordedExchange['response']) : undefined;
      exchanges.push({
        index: exchanges.length + 1,
        checkId: String(check.id),
        checkStatus: String(check.status),
        request,
        ...(bodyPath && existsSync(bodyPath) ? { bodyBytes: readBodyFile(bodyPath) } : {}),
        ...(response ? { response } : {}),
        ...(typeof evidence.transport_error === 'string' ? { transportError: evidence.transport_error } : {}),
        ...(typeof evidence.started_at_ms === 'number' ? { startedAtMs: evidence.started_at_ms } : {}),
        ...(credentialOf(evidence.credential) ? { credential: credentialOf(evidence.credential)! } : {}),
        ...(typeof evidence.overlap_group === 'number' ? { overlapGroup: evidence.overlap_group } : {}),
        ...(typeof check.open_point === 'string' ? { openPoint: check.open_point } : {}),
      });
    }
  }
  return inSendingOrder(exchanges);
}

/**
 * The exchanges in the order the old run sent them: with several workers, checks ran together and
 * the server saw their requests interleaved, so replaying check by check would meet another state
 * (a decision a later check made under a caller's id, already there). A burst stays whole, at the
 * place of its first request. Exchanges without a send time (files of earlier versions) keep
 * their place after the one before them; ties keep the file's order. Indexes follow the new order.
 */
function inSendingOrder(exchanges: readonly RecordedExchange[]): RecordedExchange[] {
  const burstStart = new Map<string, number>();
  let last = Number.NEGATIVE_INFINITY;
  const keyed = exchanges.map((exchange, position) => {
    const group = exchange.overlapGroup === undefined ? undefined : `${exchange.checkId} ${exchange.overlapGroup}`;
    const sentAt = exchange.startedAtMs ?? last;
    last = sentAt;
    if (group !== undefined && !burstStart.has(group)) burstStart.set(group, sentAt);
    return { exchange, position, key: group === undefined ? sentAt : burstStart.get(group)! };
  });
  keyed.sort((x, y) => x.key - y.key || x.position - y.position);
  return keyed.map(({ exchange }, index) => ({ ...exchange, index: index + 1 }));
}

// The exchanges of an earlier run, read from its results.json (reports/results.schema.json).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { COMPRESSED_SUFFIX } from '../harness/http.ts';
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
}

/** The body file a reproduce line sends: `--data-binary '@bodies/<sha256>.bin'`, or `gzip -dc 'bodies/<sha256>.bin.gz' | curl …`. */
function bodyFileOf(curl: string): string | undefined {
  return (/^gzip -dc '(bodies\/[0-9a-f]{64}\.bin\.gz)' \| curl /.exec(curl) ?? /--data-binary '@(bodies\/[0-9a-f]{64}\.bin)'/.exec(curl))?.[1];
}

function readBodyFile(path: string): Uint8Array {
  const bytes = readFileSync(path);
  return new Uint8Array(path.endsWith(COMPRESSED_SUFFIX) ? gunzipSync(bytes) : bytes);
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
      });
    }
  }
  return exchanges;
}

// What a response rule sees of one exchange: the request as it went on the wire (method, path
// as spelt, headers, body and its JSON), which credential it carried, and the whole response.
// Built once per exchange from what the kit sent and received, before anything is redacted or
// cut, so that a rule judges the real bytes; the recorded Exchange (curl line, excerpts) is what
// a breach shows.
import { operationIdOf, wireRequest, type Reply, type SentRequest } from '../http.ts';

/** Which credential a request carried: a key of the run, another Authorization value, or none. */
export type Credential = 'valid' | 'invalid' | 'none';

export interface JudgedExchange {
  method: string;
  /** The path as sent, query included. */
  path: string;
  /** The operation whose method and exact path spelling the request has, if any. */
  operationId?: string;
  credential: Credential;
  /** Request headers as sent, names in lower case. */
  requestHeaders: Readonly<Record<string, string>>;
  /** The request body, as sent. */
  requestBody?: string | Uint8Array;
  /** The request body read as JSON, when it is JSON; undefined otherwise. */
  requestJson?: unknown;
  status: number;
  /** Response headers, names in lower case. */
  responseHeaders: Readonly<Record<string, string>>;
  responseText: string;
  /** The response body read as JSON; undefined when it is not JSON. */
  responseJson: unknown;
}

/** RFC 9110 11.1: the auth scheme is case-insensitive, and one or more spaces separate it from the token. */
const BEARER = /^bearer +(\S+) *$/i;

/** The credential of request headers, judged against the keys of the run. */
export function credentialOf(headers: Readonly<Record<string, string>>, keys: readonly string[]): Credential {
  const authorization = Object.entries(headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  if (authorization === undefined) return 'none';
  const token = BEARER.exec(authorization)?.[1];
  return token !== undefined && keys.includes(token) ? 'valid' : 'invalid';
}

/** Whitespace JSON allows before a value (RFC 8259 section 2). */
const JSON_WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
/** What a JSON value starts with: an object, an array, a string, a number, true, false or null. */
const JSON_FIRST = new Set([...'{["-0123456789tfn'].map((char) => char.charCodeAt(0)));

/**
 * Whether the body could be JSON, read from its first significant character: uploads of tens of
 * megabytes (PDF, PNG, audio, text) are then not decoded whole only for JSON.parse to refuse their
 * first byte, which was a tenth of a full run's time.
 */
function mayBeJson(body: string | Uint8Array): boolean {
  const codeAt = typeof body === 'string' ? (index: number) => body.charCodeAt(index) : (index: number) => body[index]!;
  for (let index = 0; index < body.length; index += 1) {
    const code = codeAt(index);
    if (!JSON_WHITESPACE.has(code)) return JSON_FIRST.has(code);
  }
  return false;
}

function jsonOf(body: string | Uint8Array | undefined): unknown {
  if (body === undefined || !mayBeJson(body)) return undefined;
  try {
    return JSON.parse(typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The exchange a rule judges, from the request the kit sent and the reply it read. */
export function judgedExchange(sent: SentRequest, reply: Reply, keys: readonly string[]): JudgedExchange {
  const { headers, body } = wireRequest(sent);
  const requestHeaders = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  const operationId = operationIdOf(sent.method, sent.path);
  return {
    method: sent.method.toUpperCase(),
    path: sent.path,
    ...(operationId ? { operationId } : {}),
    credential: credentialOf(requestHeaders, keys),
    requestHeaders,
    ...(body !== undefined ? { requestBody: body } : {}),
    ...(sent.json !== undefined ? { requestJson: sent.json } : body !== undefined ? { requestJson: jsonOf(body) } : {}),
    status: reply.status,
    responseHeaders: reply.headers,
    responseText: reply.text,
    responseJson: reply.json,
  };
}

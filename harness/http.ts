// The suites' only way to a server: HTTP with a timeout on every request, a cap on every
// response body, keys redacted from everything recorded, and a curl line to reproduce it.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { getGlobalDispatcher, request, type Dispatcher } from 'undici';
import { operations } from '../spec/index.ts';
import { rateGate, type RateGate, type RequestSlots } from './in-flight.ts';
import { recognisedCredential, type ProjectName, type RecordedCredential } from './key-variants.ts';
import { currentOverlapGroup, inCleanup } from './overlap-group.ts';
import { redactDeep, redactText } from './redaction.ts';

export const DEFAULT_BODY_CAP_BYTES = 4 * 1024 * 1024;
const EXCERPT_CHARS = 2000;
const CURL_BODY_LIMIT = 16 * 1024;

export interface SentRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** A JSON value to send as application/json. */
  json?: unknown;
  /** Raw bytes or text, sent with `contentType`. */
  raw?: string | Uint8Array;
  contentType?: string;
  /** Sent as `Authorization: Bearer <key>`; null sends no Authorization header. */
  key?: string | null;
  /**
   * Sends `path` on the wire exactly as written: not parsed as a URL, so that dot segments
   * (`/v1/./decide`), doubled slashes and percent escapes reach the server as the check wrote them.
   */
  exactPath?: boolean;
  /** Sends the body in chunked transfer coding, without Content-Length. */
  chunked?: boolean;
}

export interface Reply {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: any;
  durationMs: number;
}

export interface Exchange {
  request: { method: string; url: string; headers: Record<string, string>; body?: string; bodyBytes: number };
  response?: { status: number; headers: Record<string, string>; body: string; bodyBytes: number };
  /** What went wrong on the wire, when there is no response. */
  transportError?: string;
  /** When the request was sent, in epoch milliseconds (fractional): with durationMs, what overlapped what (overlap.ts). */
  startedAtMs: number;
  durationMs: number;
  operationId?: string;
  curl: string;
  /** Which project's key the request carried, and the named variant of it if any (key-variants.ts): never the key. */
  credential?: RecordedCredential;
  /** Set on requests sent together (overlap-group.ts): the same number for every request of one burst. */
  overlapGroup?: number;
  /** Sent as a check's cleanup (overlap-group.ts): left out of the check's overlap. */
  cleanup?: boolean;
}

/** A request that produced no usable response: refused, reset, timed out, or an endless body. */
export class TransportError extends Error {
  constructor(
    readonly kind: 'timeout' | 'refused' | 'reset' | 'body-too-large' | 'network',
    message: string,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

export interface HttpOptions {
  baseUrl: string;
  timeoutMs: number;
  /**
   * Headers every request carries (--header: a tenant or routing header, a gateway's own key),
   * under the request's own: a check that sets one of them sets it for its request.
   */
  extraHeaders?: Readonly<Record<string, string>>;
  /** How requests reach the target: through a proxy, trusting a CA (harness/connection.ts); default undici's global dispatcher. */
  dispatcher?: Dispatcher;
  bodyCapBytes?: number;
  /** Secrets to redact wherever they appear in recorded exchanges. */
  secrets: string[];
  /**
   * Receives every exchange, for evidence and latency figures; with a response, also the request
   * as sent and the reply whole (uncut, unredacted), which the response rules judge.
   */
  record(exchange: Exchange, answered?: { sent: SentRequest; reply: Reply }): void;
  /** The keys of the run and their variables, so that each reproduce line names the key its request used. */
  keys?: readonly KeyVariable[];
  /** Where bodies too large to inline go; without it, their reproduce lines say the body is not kept. */
  bodies?: BodyStore;
  /**
   * Called each time a 429 is answered and the request is sent again. Rate limits are an open
   * point (seed 8): a 429 says nothing about the rule a check is judging, so the request is sent
   * again after the Retry-After wait, a few times, and only the last answer is judged.
   */
  onRateLimited?(waitMs: number): void;
  /**
   * Stops every request and every Retry-After wait once aborted (the runner aborts it when a
   * check's time is up), so that a check that has run out of time sends nothing more. Its
   * reason, when a TransportError, is what the interrupted request throws.
   */
  signal?: AbortSignal;
  /**
   * The run's request slots (--workers), asked for at each request: each waits for one before it
   * goes out, and its timeout and timing start once it has one. None: no limit (a check that runs
   * alone; a check that started among the others has none once it has the server to itself).
   */
  slots?(): RequestSlots | undefined;
  /**
   * The run's pause after a 429, shared by every check running at once: one 429 holds every
   * request for its Retry-After. Absent: this client's own (only its requests wait).
   */
  rateGate?: RateGate;
}

/** How often one request is sent again after 429, and the longest wait before it. */
export const RATE_LIMIT_RETRIES = 3;
const MAX_RETRY_AFTER_MS = 10_000;

/** The Retry-After header in milliseconds (seconds on the wire), 1 s without one, at most MAX_RETRY_AFTER_MS. */
export function retryAfterMs(reply: Pick<Reply, 'headers'>): number {
  const seconds = Number(reply.headers['retry-after']);
  return Math.min(Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 1000, MAX_RETRY_AFTER_MS);
}

export type Http = (sent: SentRequest) => Promise<Reply>;
/** Sends once; `again` for a request sent again after a 429 (it takes the next free slot first). */
type SendOnce = (sent: SentRequest, again: boolean) => Promise<Reply>;

const operationMatchers = operations.map((op) => ({
  operationId: op.operationId,
  method: op.method.toUpperCase(),
  pattern: new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+').replace(/\./g, '\\.')}$`),
}));

export function operationIdOf(method: string, path: string): string | undefined {
  const bare = path.split('?')[0]!;
  return operationMatchers.find((m) => m.method === method && m.pattern.test(bare))?.operationId;
}

function excerpt(text: string): string {
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}… (${text.length} characters)` : text;
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The environment variables reproduce lines read each project's key from (the command line's own). */
export const KEY_VARIABLES = { a: 'DECISION_API_KEY', b: 'DECISION_API_KEY_B', expiry: 'DECISION_EXPIRY_API_KEY' } as const satisfies Record<
  ProjectName,
  string
>;

/** The project whose key a variable holds. */
const projectOf = (variable: string) => (Object.keys(KEY_VARIABLES) as ProjectName[]).find((project) => KEY_VARIABLES[project] === variable);

/** A key a run sends, and the environment variable its reproduce lines name instead. */
export interface KeyVariable {
  key: string;
  variable: string;
}

export interface CurlOptions {
  /**
   * The variable that holds the key of this request's `Authorization: Bearer` header, or null for
   * a header printed as sent (a made-up key of an authentication check; secrets are still redacted).
   * Undefined: any Bearer header reads $DECISION_API_KEY.
   */
  keyVariable?: string | null;
  /** Where the bytes of a body too large to inline were written, relative to the folder curl runs in. */
  bodyFile?: string;
  /** The path goes out as written (`--path-as-is`: curl, too, removes dot segments otherwise). */
  pathAsIs?: boolean;
}

/** A curl line that reproduces the request; keys appear as environment variables, never in clear. */
export function curlFor(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
  options: CurlOptions = {},
): string {
  const parts = ['curl -sS -i', ...(options.pathAsIs ? ['--path-as-is'] : []), '-X', method, shellQuote(url)];
  for (const [name, value] of Object.entries(headers)) {
    // curl drops a header written "Name:" with nothing after the colon; "Name;" sends it empty.
    if (value === '') parts.push('-H', shellQuote(`${name};`));
    else if (name.toLowerCase() !== 'authorization') parts.push('-H', shellQuote(`${name}: ${value}`));
    else if (options.keyVariable === null) parts.push('-H', shellQuote(`${name}: ${value}`));
    else if (!value.startsWith('Bearer ')) parts.push('-H', '"Authorization: <redacted>"');
    else parts.push('-H', `"Authorization: Bearer $${options.keyVariable ?? KEY_VARIABLES.a}"`);
  }
  if (body === undefined) return parts.join(' ');
  const size = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  if (typeof body === 'string' && size <= CURL_BODY_LIMIT) return `${parts.join(' ')} --data-binary ${shellQuote(body)}`;
  if (options.bodyFile?.endsWith(COMPRESSED_SUFFIX)) return `gzip -dc ${shellQuote(options.bodyFile)} | ${parts.join(' ')} --data-binary @-`;
  if (options.bodyFile !== undefined) return `${parts.join(' ')} --data-binary ${shellQuote(`@${options.bodyFile}`)}`;
  const digest = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return `${parts.join(' ')} --data-binary @body.bin  # body: ${size} bytes generated by the kit (sha256 ${digest}…)`;
}

/**
 * Bodies too large to inline in a reproduce line (uploads, large JSON), by file name in
 * BODY_FOLDER: the reports write each one there, and its curl lines send it.
 */
export type BodyStore = Map<string, Uint8Array>;

export const BODY_FOLDER = 'bodies';
/**
 * From this size on, a body is kept gzip-compressed and its curl line reads it through
 * `gzip -dc`: the over-limit uploads alone are over 100 MB of filler a run would otherwise leave
 * in every report folder (and CI artefact), where compressed they take a few hundred KB.
 */
export const COMPRESSED_BODY_BYTES = 1024 * 1024;
export const COMPRESSED_SUFFIX = '.gz';

/** The file a body is kept in, within BODY_FOLDER: named by the SHA-256 of its bytes as sent. */
export function bodyFileName(digest: string, bytes: number): string {
  return `${digest}.bin${bytes >= COMPRESSED_BODY_BYTES ? COMPRESSED_SUFFIX : ''}`;
}

/** Keeps `body` in the store and returns its file, relative to the report folder; undefined when it may not be kept. */
function keepBody(store: BodyStore, body: string | Uint8Array, secrets: readonly string[]): string | undefined {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const asBuffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Keys never reach a report: a body that carries one is not written out.
  if (secrets.some((secret) => secret !== '' && asBuffer.includes(secret))) return undefined;
  const name = bodyFileName(createHash('sha256').update(bytes).digest('hex'), bytes.byteLength);
  if (!store.has(name)) store.set(name, bytes);
  return `${BODY_FOLDER}/${name}`;
}

async function readCapped(body: AsyncIterable<Buffer>, cap: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > cap) throw new TransportError('body-too-large', `the response body exceeded ${cap} bytes; stopped reading`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function classify(error: unknown, timeoutMs: number): TransportError {
  if (error instanceof TransportError) return error;
  const err = error as { name?: string; code?: string; message?: string };
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || /timeout/i.test(err.code ?? '')) {
    return new TransportError('timeout', `no complete response within ${timeoutMs} ms`);
  }
  if (err.code === 'ECONNREFUSED') return new TransportError('refused', 'the connection was refused');
  if (err.code === 'ECONNRESET' || err.code === 'UND_ERR_SOCKET' || err.code === 'EPIPE') {
    return new TransportError('reset', 'the connection was reset or closed before a complete response');
  }
  return new TransportError('network', `${err.code ?? err.name ?? 'error'}: ${err.message ?? String(error)}`);
}

/** The origin and the path as written, under the base URL's own path (if any). */
function exactTarget(baseUrl: string, path: string): { origin: string; path: string } {
  const base = new URL(baseUrl);
  return { origin: base.origin, path: `${base.pathname.replace(/\/$/, '')}${path}` };
}

/** The body as a stream of one chunk: no length known, so it goes out chunked. */
function chunksOf(body: string | Uint8Array): Readable {
  return Readable.from([typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body)]);
}

/** Why `signal` was aborted, as the error a request it stops throws. */
function abortedBy(signal: AbortSignal): TransportError {
  return signal.reason instanceof TransportError ? signal.reason : new TransportError('timeout', 'the request was stopped: its check is over');
}

export function createHttp(options: HttpOptions): Http {
  const gate = options.rateGate ?? rateGate();
  const once = sendOnce(options, gate);
  return async (sent) => {
    for (let retry = 0; ; retry += 1) {
      const reply = await once(sent, retry > 0);
      const slots = options.slots?.();
      if (reply.status === 429) slots?.narrow();
      else slots?.widen();
      if (reply.status !== 429 || retry === RATE_LIMIT_RETRIES) return reply;
      const waitMs = retryAfterMs(reply);
      options.onRateLimited?.(waitMs);
      gate.hold(waitMs);
    }
  };
}

/** The headers and body a request goes out with: the key as a bearer, JSON serialised with its type. */
export function wireRequest(sent: SentRequest): { headers: Record<string, string>; body: string | Uint8Array | undefined } {
  const headers: Record<string, string> = { ...sent.headers };
  if (sent.key) headers.authorization = `Bearer ${sent.key}`;
  let body: string | Uint8Array | undefined;
  if (sent.json !== undefined) {
    body = JSON.stringify(sent.json);
    headers['content-type'] = sent.contentType ?? 'application/json';
  } else if (sent.raw !== undefined) {
    body = sent.raw;
    if (sent.contentType !== undefined) headers['content-type'] = sent.contentType;
  }
  return { headers, body };
}

function sendOnce(options: HttpOptions, gate: RateGate): SendOnce {
  const cap = options.bodyCapBytes ?? DEFAULT_BODY_CAP_BYTES;
  const { signal } = options;
  return async (sent, again) => {
    // A check whose time is up sends nothing more: not even a request it builds after the abort.
    if (signal?.aborted) throw abortedBy(signal);
    const url = `${options.baseUrl}${sent.path}`;
    const wire = wireRequest(sent);
    const body = wire.body;
    const own = new Set(Object.keys(wire.headers).map((name) => name.toLowerCase()));
    const headers = { ...Object.fromEntries(Object.entries(options.extraHeaders ?? {}).filter(([name]) => !own.has(name.toLowerCase()))), ...wire.headers };
    // A chunked body: undici sets no Content-Length for an iterable and sends Transfer-Encoding: chunked.
    const sentHeaders = sent.chunked && body !== undefined ? { ...headers, 'transfer-encoding': 'chunked' } : headers;
    const bodyText = body === undefined ? undefined : typeof body === 'string' ? body : `<${body.byteLength} bytes>`;
    const inline = typeof body === 'string' && Buffer.byteLength(body) <= CURL_BODY_LIMIT;
    const bodyFile = body !== undefined && !inline && options.bodies ? keepBody(options.bodies, body, options.secrets) : undefined;
    const authorization = Object.entries(headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
    const keyVariable = options.keys ? (options.keys.find(({ key }) => authorization === `Bearer ${key}`)?.variable ?? null) : undefined;
    const projectKeys = (options.keys ?? []).flatMap(({ key, variable }) => (projectOf(variable) ? [{ project: projectOf(variable)!, key }] : []));
    const credential = recognisedCredential(headers, sent.path, projectKeys);
    const overlapGroup = currentOverlapGroup();
    const exchange: Exchange = {
      request: {
        method: sent.method,
        url,
        headers: redactDeep(sentHeaders, options.secrets),
        ...(bodyText !== undefined ? { body: redactText(excerpt(bodyText), options.secrets) } : {}),
        bodyBytes: body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength,
      },
      startedAtMs: 0,
      durationMs: 0,
      curl: redactText(
        curlFor(sent.method, url, sentHeaders, body, {
          ...(keyVariable !== undefined ? { keyVariable } : {}),
          ...(bodyFile ? { bodyFile } : {}),
          ...(sent.exactPath ? { pathAsIs: true } : {}),
        }),
        options.secrets,
      ),
      ...(operationIdOf(sent.method, sent.path) ? { operationId: operationIdOf(sent.method, sent.path)! } : {}),
      ...(credential ? { credential } : {}),
      ...(overlapGroup !== undefined ? { overlapGroup } : {}),
      ...(inCleanup() ? { cleanup: true } : {}),
    };
    // Waiting for a slot is not the server's time: the request's timeout and timing start once it has one.
    const slots = options.slots?.();
    const release = slots ? await slots.acquire(signal, again).catch(() => Promise.reject(abortedBy(signal!))) : undefined;
    // The pause after a 429 is checked once the request has its slot: one that waited for a slot
    // while the pause began must not go out during it.
    try {
      await gate.pass(signal);
    } catch (error) {
      release?.();
      throw signal?.aborted ? abortedBy(signal) : error;
    }
    const started = performance.now();
    exchange.startedAtMs = performance.timeOrigin + started;
    try {
      const init = {
        method: sent.method as 'GET',
        headers,
        ...(body !== undefined ? { body: sent.chunked ? chunksOf(body) : body } : {}),
        signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs)]) : AbortSignal.timeout(options.timeoutMs),
      };
      // request(url) parses the URL, which removes dot segments; the dispatcher takes the path as given.
      const dispatcher = options.dispatcher ?? getGlobalDispatcher();
      const response = sent.exactPath
        ? await dispatcher.request({ ...init, ...exactTarget(options.baseUrl, sent.path) })
        : await request(url, { ...init, dispatcher });
      const bytes = await readCapped(response.body as AsyncIterable<Buffer>, cap);
      const durationMs = performance.now() - started;
      const text = bytes.toString('utf8');
      const responseHeaders = Object.fromEntries(
        Object.entries(response.headers).map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value)]),
      );
      let json: unknown;
      try {
        json = text === '' ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      exchange.durationMs = durationMs;
      exchange.response = { status: response.statusCode, headers: responseHeaders, body: redactText(excerpt(text), options.secrets), bodyBytes: bytes.length };
      const reply: Reply = { status: response.statusCode, headers: responseHeaders, text, json, durationMs };
      options.record(exchange, { sent, reply });
      return reply;
    } catch (error) {
      const failure = signal?.aborted ? abortedBy(signal) : classify(error, options.timeoutMs);
      exchange.durationMs = performance.now() - started;
      exchange.transportError = `${failure.kind}: ${failure.message}`;
      options.record(exchange);
      throw failure;
    } finally {
      release?.();
    }
  };
}

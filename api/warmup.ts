// Before any check runs: the warm-up call (the seed warns that the first call after a quiet period
// may take about two minutes, a cold start, so it gets its own long timeout and its duration is
// reported), then one call with every other key given, so that a wrong key is a usage error
// naming its flag instead of a row of MUST failures of the server.
import type { Dispatcher } from 'undici';
import { createHttp, TransportError, type Reply } from '../harness/http.ts';

export interface Warmup {
  ok: boolean;
  durationMs: number;
  status?: number;
  message?: string;
}

/** A key given to the run, and where it came from (for the one line that says it was refused). */
export interface GivenKey {
  key: string;
  /** e.g. "project B". */
  role: string;
  /** e.g. "--api-key-b or DECISION_API_KEY_B". */
  source: string;
}

const WARMUP_BODY = {
  context: 'Warm-up call of the conformance kit.',
  questions: { warmup: { type: 'choice', options: { ready: 'The service is ready', other: '' } } },
};

function decideWith(baseUrl: string, key: string, timeoutMs: number, headers: Readonly<Record<string, string>>, dispatcher?: Dispatcher): Promise<Reply> {
  const http = createHttp({ baseUrl, timeoutMs, secrets: [key], record: () => {}, extraHeaders: headers, ...(dispatcher ? { dispatcher } : {}) });
  return http({ method: 'POST', path: '/v1/decide', key, json: WARMUP_BODY });
}

/** What a warm-up decide that did not succeed was answered, with the likely cause (the server's text is quoted, escaped where shown). */
function notAnswered(reply: Reply): string {
  const code = (reply.json as { error?: { code?: unknown } } | undefined)?.error?.code;
  const said = typeof code === 'string' ? code : JSON.stringify(reply.text.slice(0, 120));
  return `the warm-up decide, a valid request with key A, was answered ${reply.status} (${said}), not a success; the checks will judge it, but if a gateway or proxy in front of the server needs a header of its own, give it with --header 'Name: value'`;
}

const refused = (given: GivenKey) => `the target refused the key given for ${given.role} (401): check ${given.source}`;

function unanswered(baseUrl: string, error: unknown, slowHint: string): string {
  const what = error instanceof TransportError ? error.message : (error as Error).message;
  const hint =
    error instanceof TransportError && error.kind === 'timeout'
      ? slowHint
      : /certificate|self[- ]signed|unable to verify/i.test(what)
        ? "the server's certificate is not trusted: give its CA with --ca-cert FILE (or NODE_EXTRA_CA_CERTS), or --insecure"
        : 'check that the server is running and that --base-url is right';
  return `${baseUrl} did not answer a decide call: ${what}; ${hint}`;
}

export async function warmUp(
  baseUrl: string,
  given: GivenKey,
  timeoutMs: number,
  headers: Readonly<Record<string, string>> = {},
  dispatcher?: Dispatcher,
): Promise<Warmup> {
  const started = performance.now();
  try {
    const reply = await decideWith(baseUrl, given.key, timeoutMs, headers, dispatcher);
    const durationMs = performance.now() - started;
    if (reply.status === 401) return { ok: false, durationMs, status: 401, message: refused(given) };
    // Any other answer lets the checks run (they judge it), but one that is not a success is said
    // up front: a gateway in front of the server that wants a header of its own answers this way.
    if (reply.status < 200 || reply.status >= 300) return { ok: true, durationMs, status: reply.status, message: notAnswered(reply) };
    return { ok: true, durationMs, status: reply.status };
  } catch (error) {
    return { ok: false, durationMs: performance.now() - started, message: unanswered(baseUrl, error, 'raise --warmup-timeout-ms if the server starts slowly') };
  }
}

/** Why one of the other keys cannot be used (one line naming its flag), or undefined when the target accepts them all. */
export async function refusedKey(
  baseUrl: string,
  keys: readonly GivenKey[],
  timeoutMs: number,
  headers: Readonly<Record<string, string>> = {},
  dispatcher?: Dispatcher,
): Promise<string | undefined> {
  for (const given of keys) {
    try {
      if ((await decideWith(baseUrl, given.key, timeoutMs, headers, dispatcher)).status === 401) return refused(given);
    } catch (error) {
      return unanswered(baseUrl, error, 'raise --timeout-ms if the server is slow');
    }
  }
  return undefined;
}

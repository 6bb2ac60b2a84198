// A hostile server for the terminal-safety tests: a proxy in front of the bundled reference server
// that plants terminal control sequences in every text it controls — JSON string values (error
// codes and messages, ids, model names, answers), non-JSON bodies and response headers.
import { startMutatingProxy, type ProxiedResponse, type RunningProxy } from '../../../harness/testing/mutating-proxy.ts';

/**
 * Everything a terminal could act on: an OSC that retitles the window (ESC ] … BEL), a screen
 * clear (ESC [2J), a carriage return that rewrites the line, BEL, the 8-bit CSI (C1 U+009B), a
 * lone surrogate and DEL. The variants differ so that a replay against one of a run against the
 * other sees changed outcomes.
 */
export const HOSTILE = {
  a: '\u001b]0;pwned\u0007\u001b[2J\rHIDDEN\u0007\u009b31m\ud800\u007f',
  b: '\u001b[1A\r\u001b[2Kok\u0007\u009b2J\udc00\u007f\u0000',
} as const;
export type HostileVariant = keyof typeof HOSTILE;

/**
 * A header value carries only what HTTP/1.1 lets through to the kit's client (tab, printable
 * ASCII and obs-text, read as Latin-1): of the set, the C1 controls.
 */
const HEADER_HOSTILE = '\u009b2J\u0085\u009d0;pwned\u009c';

/** Every string in a JSON value with the payload in front (codes and messages) or behind (the rest). */
function plant(value: unknown, payload: string, key = ''): unknown {
  if (typeof value === 'string') return key === 'code' || key === 'message' ? `${payload}${value}` : `${value}${payload}`;
  if (Array.isArray(value)) return value.map((item) => plant(item, payload));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, plant(item, payload, name)]));
  }
  return value;
}

export function hostileResponse(received: ProxiedResponse, variant: HostileVariant): ProxiedResponse {
  const payload = HOSTILE[variant];
  const headers: Record<string, string> = { ...received.headers, 'x-hostile': `${variant}${HEADER_HOSTILE}` };
  if (headers['x-request-id'] !== undefined) headers['x-request-id'] = `${headers['x-request-id']}${HEADER_HOSTILE}`;
  if (headers['content-type'] !== undefined) headers['content-type'] = `${headers['content-type']}${HEADER_HOSTILE}`;
  let json: unknown;
  try {
    json = JSON.parse(received.body.toString('utf8'));
  } catch {
    json = undefined;
  }
  // 404s and bodies that are not JSON come back as raw text with the payload in it, unescaped.
  if (json === undefined || received.status === 404) {
    return { ...received, headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' }, body: Buffer.from(`not found ${payload} here`, 'utf8') };
  }
  // JSON.stringify writes control characters and lone surrogates as \u escapes: the kit reads them back raw.
  return { ...received, headers, body: Buffer.from(JSON.stringify(plant(json, payload)), 'utf8') };
}

export function startHostileProxy(upstream: string, variant: HostileVariant): Promise<RunningProxy> {
  // Statuses are kept: the warm-up and the checks run as against the reference server, reading hostile text.
  return startMutatingProxy(upstream, { response: (received) => hostileResponse(received, variant) });
}

/**
 * What a terminal may act on, as the reports' UNPRINTABLE (reports/escape.ts) but with the
 * carriage return: C0 but tab and line feed, DEL, C1, lone surrogates.
 */
export const RAW_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The lines of `text` that carry a raw control character (split at line feeds only: a CR counts). */
export function rawControlLines(text: string): string[] {
  return text.split('\n').filter((line) => RAW_CONTROL.test(line));
}

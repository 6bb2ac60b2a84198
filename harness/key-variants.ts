// The ways the authentication checks present a real key wrongly (a near miss, another scheme,
// another place), as one table of named transformations. The checks build their requests from
// it; the recording names the transformation a request carried (never the key it made); replay
// rebuilds the same transformation from the key it is given. One table, so that none of the
// three can drift from the others.
import { apiKeyPrefix } from '../spec/index.ts';

/** How a request presents (or fails to present) a key: header values and a query string. */
export interface Credential {
  headers: Record<string, string>;
  /** Appended to the path, e.g. "api_key=svc_live_…" (without the "?"). */
  query?: string;
}

export const bearer = (key: string): Credential => ({ headers: { authorization: `Bearer ${key}` } });

/** The public start of every key (the bearer scheme's x-key-prefix). */
const KEY_PREFIX = apiKeyPrefix;
const secretOf = (key: string) => (key.startsWith(KEY_PREFIX) ? key.slice(KEY_PREFIX.length) : key);

/** The last character replaced by another of the same kind (digit for digit, letter for letter). */
function lastCharacterChanged(key: string): string {
  const last = key.at(-1) ?? 'a';
  const replacement = /[0-9]/.test(last)
    ? String((Number(last) + 1) % 10)
    : /[a-z]/.test(last)
      ? last === 'z'
        ? 'a'
        : String.fromCharCode(last.charCodeAt(0) + 1)
      : last === 'A'
        ? 'B'
        : 'A';
  return `${key.slice(0, -1)}${replacement}`;
}

/** The secret's letters in the other case; the prefix kept. */
function secretCaseChanged(key: string): string {
  const swapped = [...secretOf(key)].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
  return `${KEY_PREFIX}${swapped}`;
}

/** The query parameter and headers a key may travel in: where replay removes a recorded (redacted) one before rebuilding it. */
export const KEY_QUERY_PARAMETER = 'api_key';
export const KEY_HEADERS: readonly string[] = ['authorization', 'x-api-key'];

export interface KeyVariant {
  /** How the checks' messages say it: "the valid key with its last character changed". */
  what: string;
  credential(key: string): Credential;
}

const scheme = (name: string): KeyVariant => ({
  what: `the valid key under the ${name} scheme`,
  credential: (key) => ({ headers: { authorization: `${name} ${key}` } }),
});
const schemeWritten = (name: string): KeyVariant => ({
  what: `the valid key under the scheme written "${name}"`,
  credential: (key) => ({ headers: { authorization: `${name} ${key}` } }),
});

const VARIANTS = {
  'last-char-changed': { what: 'the valid key with its last character changed', credential: (key) => bearer(lastCharacterChanged(key)) },
  'secret-case-changed': { what: "the valid key with its secret's letters in the other case", credential: (key) => bearer(secretCaseChanged(key)) },
  'char-added': { what: 'the valid key with one character added', credential: (key) => bearer(`${key}0`) },
  'last-char-removed': { what: 'the valid key without its last character', credential: (key) => bearer(key.slice(0, -1)) },
  'first-half': {
    what: 'the first half of the valid key',
    credential: (key) => bearer(key.slice(0, KEY_PREFIX.length + Math.ceil(secretOf(key).length / 2))),
  },
  'without-scheme': { what: 'the valid key without the Bearer scheme', credential: (key) => ({ headers: { authorization: key } }) },
  'scheme-token': scheme('Token'),
  'scheme-basic': scheme('Basic'),
  'scheme-apikey': scheme('ApiKey'),
  'scheme-lowercase': schemeWritten('bearer'),
  'scheme-uppercase': schemeWritten('BEARER'),
  'in-query': {
    what: 'the valid key in the query string (?api_key=) and no Authorization header',
    credential: (key) => ({ headers: {}, query: `${KEY_QUERY_PARAMETER}=${encodeURIComponent(key)}` }),
  },
  'in-x-api-key': { what: 'the valid key in an X-API-Key header and no Authorization header', credential: (key) => ({ headers: { 'x-api-key': key } }) },
} as const satisfies Record<string, KeyVariant>;

export type KeyVariantName = keyof typeof VARIANTS;
/** The named transformations of a key, by the name the recording gives them. */
export const KEY_VARIANTS: Readonly<Record<KeyVariantName, KeyVariant>> = VARIANTS;
export const KEY_VARIANT_NAMES = Object.keys(KEY_VARIANTS) as KeyVariantName[];

/** The credential `variant` makes of `key`, or the key itself as a bearer without one. */
export function credentialFor(key: string, variant?: KeyVariantName): Credential {
  return variant ? KEY_VARIANTS[variant].credential(key) : bearer(key);
}

const headerOf = (headers: Readonly<Record<string, string>>, name: string) => Object.entries(headers).find(([n]) => n.toLowerCase() === name)?.[1];

/** The query parameters of a path, as written (not decoded). */
const queryOf = (path: string) => (path.includes('?') ? path.slice(path.indexOf('?') + 1).split('&') : []);

/**
 * Whether a request (its headers as sent and its path) carries exactly `credential`: each of its
 * headers with that value, no other place a key travels filled, and its query parameter if any.
 */
export function carries(headers: Readonly<Record<string, string>>, path: string, credential: Credential): boolean {
  for (const name of KEY_HEADERS) {
    const wanted = Object.entries(credential.headers).find(([n]) => n.toLowerCase() === name)?.[1];
    if (headerOf(headers, name) !== wanted) return false;
  }
  const keyParameter = queryOf(path).find((part) => part.startsWith(`${KEY_QUERY_PARAMETER}=`));
  return keyParameter === credential.query;
}

/** The path and headers with every place a key travels emptied: what replay starts from before it adds the rebuilt credential. */
export function withoutKeyPlaces(path: string, headers: Readonly<Record<string, string>>): { path: string; headers: Record<string, string> } {
  const [bare, query] = path.includes('?') ? [path.slice(0, path.indexOf('?')), path.slice(path.indexOf('?') + 1)] : [path, undefined];
  const kept = query?.split('&').filter((part) => !part.startsWith(`${KEY_QUERY_PARAMETER}=`)) ?? [];
  return {
    path: kept.length > 0 ? `${bare}?${kept.join('&')}` : bare,
    headers: Object.fromEntries(Object.entries(headers).filter(([name]) => !KEY_HEADERS.includes(name.toLowerCase()))),
  };
}

/** The path with the credential's query appended (after any query it has). */
export const withQuery = (path: string, query: string | undefined) => (query ? `${path}${path.includes('?') ? '&' : '?'}${query}` : path);

/** The projects a run has keys of: the first, the second (isolation), the short-lifetime one (expiry). */
export type ProjectName = 'a' | 'b' | 'expiry';

/**
 * Which key of which project a request carried, and how it was presented: nothing secret, so it
 * is recorded on the exchange and replay rebuilds the credential from the key it is given.
 */
export interface RecordedCredential {
  project: ProjectName;
  /** Absent for the key itself as a bearer. */
  variant?: KeyVariantName;
}

/** The credential a request carried, recognised among the keys of the run and their variants; undefined for anything else. */
export function recognisedCredential(
  headers: Readonly<Record<string, string>>,
  path: string,
  keys: ReadonlyArray<{ project: ProjectName; key: string }>,
): RecordedCredential | undefined {
  for (const { project, key } of keys) if (key !== '' && carries(headers, path, bearer(key))) return { project };
  for (const { project, key } of keys) {
    if (key === '') continue;
    const variant = KEY_VARIANT_NAMES.find((name) => carries(headers, path, KEY_VARIANTS[name].credential(key)));
    if (variant) return { project, variant };
  }
  return undefined;
}

// Keys never leave a run in clear: http.ts redacts what it records, the runner redacts each
// result, and the reports pass over everything once more (a note, a message, an observation a
// check wrote itself). One masking rule for all three.
import { apiKeyPrefix } from '../spec/index.ts';

const KEY_PREFIX = apiKeyPrefix;

/** What a secret becomes: the public key prefix (`svc_live_`) survives (it says which kind of key it was), the secret part never does. */
export function maskOf(secret: string): string {
  return secret.startsWith(KEY_PREFIX) && secret.length > KEY_PREFIX.length ? `${KEY_PREFIX}***` : '***';
}

/** True for what maskOf makes of a secret: a recorded key that was masked and cannot be sent again. */
export function isMask(value: string): boolean {
  return value === `${KEY_PREFIX}***` || value === '***';
}

/** Replaces every occurrence of every secret, in clear or URL-encoded, and every near miss of one, with its mask. */
export function redactText(text: string, secrets: readonly string[]): string {
  return maskedText(text, spellings(secrets), nearMissStarts(secrets));
}

/** `text` with each of `forms` (spellings of secrets, longest first) and each near miss of a key starting with one of `starts` masked. */
function maskedText(text: string, forms: readonly string[], starts: readonly string[]): string {
  let out = text;
  for (const secret of forms) if (out.includes(secret)) out = out.split(secret).join(maskOf(secret));
  return maskNearMisses(out, starts);
}

/** A token that starts like a key; the prefix's own characters taken literally. */
const KEY_LIKE = new RegExp(`${KEY_PREFIX.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[A-Za-z0-9._~+/=-]+`, 'gi');
/** How much of a secret's start a near miss keeps before it counts as that secret. */
const NEAR_MISS_SHARED_CHARS = 8;

/**
 * The authentication checks send keys one edit away from a real one (a character changed, a
 * case changed, truncated, extended). Such a key still gives the secret away, so any
 * svc_live_ token that starts like a secret (ignoring case) is masked as the secret is.
 */
function maskNearMisses(text: string, starts: readonly string[]): string {
  if (starts.length === 0) return text;
  return text.replace(KEY_LIKE, (token) =>
    starts.some((start) => token.slice(KEY_PREFIX.length).toLowerCase().startsWith(start)) ? `${KEY_PREFIX}***` : token,
  );
}

/** How each secret that is a key starts, in lower case: a token of the key's prefix that starts so is a near miss of it. */
function nearMissStarts(secrets: readonly string[]): string[] {
  return secrets
    .filter((secret) => secret.startsWith(KEY_PREFIX) && secret.length >= KEY_PREFIX.length + NEAR_MISS_SHARED_CHARS)
    .map((secret) => secret.slice(KEY_PREFIX.length, KEY_PREFIX.length + NEAR_MISS_SHARED_CHARS).toLowerCase());
}

/** A deep copy of `value` with every string (values and property names) redacted. */
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
  const forms = spellings(secrets);
  if (forms.length === 0) return value;
  // Worked out once for the whole value, not for each of its strings: every result a run records
  // is redacted so. The spellings of the spellings: a key URL-encoded twice is masked too.
  const formsOfForms = spellings(forms);
  const starts = nearMissStarts(forms);
  const scrub = (text: string): string => maskedText(text, formsOfForms, starts);
  const visit = (node: unknown): unknown => {
    if (typeof node === 'string') return scrub(node);
    if (Array.isArray(node)) return node.map(visit);
    if (node !== null && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([key, child]) => [scrub(key), visit(child)]));
    }
    return node;
  };
  return visit(value) as T;
}

/**
 * Each secret as it may be written: in clear and URL-encoded (a key pasted into a query
 * string). Longest first, so that a secret containing another is masked whole.
 */
function spellings(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (!secret) continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

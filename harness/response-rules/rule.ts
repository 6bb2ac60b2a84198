// What a response rule is: one entry holds its metadata and its handler (oasdiff's registry),
// and the handler is a pure function of one exchange (Schemathesis's response checks).
import type { RuleBreach } from '../answer-rules.ts';
import type { Level } from '../check.ts';
import type { JudgedExchange } from './exchange.ts';

export { isSuccess } from '../status.ts';

export type { RuleBreach } from '../answer-rules.ts';

export interface ResponseRuleMeta {
  /** Stable id in lower-case kebab (a check id is upper case): `request-id`, `choice-margin`. */
  id: string;
  /** MUST: the seed states it; SHOULD: the seed implies it; OBSERVE: an open point, counted and never failed. */
  level: Level;
  seedSections: readonly string[];
  title: string;
  /** The exchanges the rule judges, in a few words (what `appliesTo` admits). */
  appliesTo: string;
  /** For OBSERVE rules: the spec's open point. */
  openPoint?: string;
}

export interface ResponseRule extends ResponseRuleMeta {
  /** Whether the rule judges this exchange at all (guard clauses of Schemathesis's checks). */
  applies(exchange: JudgedExchange): boolean;
  /** The breach in an exchange the rule applies to, or undefined when the response keeps it. */
  judge(exchange: JudgedExchange): RuleBreach | undefined;
}

/** A `/v1` request whatever its spelling: percent-encoded letters, doubled slashes, dot segments and the version's case undone. */
export function isVersionedPath(path: string): boolean {
  let bare = path.split(/[?#]/, 1)[0]!;
  try {
    bare = decodeURIComponent(bare);
  } catch {
    // A malformed escape stays as it is; the rest of the reading still applies.
  }
  const segments: string[] = [];
  for (const segment of bare.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return segments[0]?.toLowerCase() === 'v1';
}

/** The response carries a body (HEAD answers and 204/304 have none, whatever their status). */
export function hasBody(exchange: JudgedExchange): boolean {
  return exchange.method !== 'HEAD' && exchange.status !== 204 && exchange.status !== 304;
}

export const isError = (exchange: JudgedExchange) => exchange.status >= 400;

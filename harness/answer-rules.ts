// The semantic rules of decide answers (seed 1, 2.1, 2.4), as pure functions shared by the
// decide-answers checks and the property suite. Each rule returns what it expected and what it
// saw when an answer breaks it, and undefined when the answer keeps it.

/** Seed 2.4: confidence is top-1 minus top-2 probability; compared within this tolerance. */
export const MARGIN_TOLERANCE = 1e-9;
/** Choice probabilities are expected to add up to 1 within this tolerance (a SHOULD). */
export const SUM_TOLERANCE = 1e-6;

/** What an answer was expected to be, and what it was. */
export interface RuleBreach {
  expected: string;
  observed: string;
}

/**
 * Ids a server could bend: look-alikes (Latin "a", Cyrillic "а"), prototype names, spaces,
 * composed and decomposed accents, an astral emoji, a ligature NFKC would unfold, case, a
 * numeric key, JSON pointer characters and a zero-width space.
 */
export const TRICKY_IDS: readonly string[] = [
  'a',
  '\u0430',
  '__proto__',
  'constructor',
  'wants refund',
  ' padded ',
  'Gr\u00f6\u00dfe',
  'e\u0301te\u0301',
  '\u{1F4E6} parcel',
  '\uFB01le',
  'Topic',
  'topic',
  '1',
  'a/b~c',
  'zero\u200Bwidth',
];

/** Shows an id with every non-ASCII character escaped, so look-alikes can be told apart. */
export function showId(id: string): string {
  return JSON.stringify(id).replace(/[^\x20-\x7e]/gu, (char) => [...char].map((c) => `\\u{${c.codePointAt(0)!.toString(16)}}`).join(''));
}

/** The own keys of a JSON object, or undefined when the value is not one. */
export function objectKeys(value: unknown): string[] | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value) : undefined;
}

/** The probabilities as numbers, highest first; undefined when they are not all numbers. */
export function sortedProbabilities(answer: Record<string, any>): number[] | undefined {
  const values = typeof answer.probabilities === 'object' && answer.probabilities !== null ? Object.values(answer.probabilities) : [];
  if (values.length === 0 || !values.every((value) => typeof value === 'number')) return undefined;
  return (values as number[]).sort((x, y) => y - x);
}

/**
 * The highest and the second-highest probability (undefined with a single option), in one index
 * loop without sorting: k6's JavaScript runtime judges every load response with the rules below.
 * Undefined when there are none or they are not all numbers.
 */
export function topTwoProbabilities(answer: Record<string, any>): { first: number; second: number | undefined } | undefined {
  const probabilities = typeof answer.probabilities === 'object' && answer.probabilities !== null ? answer.probabilities : {};
  let first = -Infinity;
  let second = -Infinity;
  let count = 0;
  const keys = Object.keys(probabilities);
  for (let index = 0; index < keys.length; index++) {
    const p = probabilities[keys[index]!];
    if (typeof p !== 'number') return undefined;
    count += 1;
    if (p > first) {
      second = first;
      first = p;
    } else if (p > second) second = p;
  }
  return count === 0 ? undefined : { first, second: count > 1 ? second : undefined };
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** Seed 2.1 and 2.4: `returned` holds exactly the ids sent, compared as exact strings. */
export function sameIdsBreach(sent: readonly string[], returned: string[] | undefined, where: string): RuleBreach | undefined {
  if (!returned) return { expected: `${where} keyed by the ids sent`, observed: 'no such object in the body' };
  // The common case without building sets: k6's JavaScript runtime judges every load response with this.
  if (returned.length === sent.length && sent.every((id) => returned.includes(id)) && returned.every((id) => sent.includes(id))) return undefined;
  const sentSet = new Set(sent);
  const returnedSet = new Set(returned);
  const missing = sent.filter((id) => !returnedSet.has(id));
  const unexpected = returned.filter((id) => !sentSet.has(id));
  if (missing.length === 0 && unexpected.length === 0 && returned.length === sent.length) return undefined;
  return {
    expected: `${where} keyed by exactly the ${plural(sent.length, 'id')} sent, byte for byte`,
    observed: `${plural(returned.length, 'key')}; missing ${missing.map(showId).join(', ') || 'none'}; unexpected ${unexpected.map(showId).join(', ') || 'none'}`,
  };
}

/** Seed 2.4: every choice probability is a number from 0 to 1. */
export function probabilityRangeBreach(answer: Record<string, any>, where: string): RuleBreach | undefined {
  const probabilities = answer.probabilities ?? {};
  // An index loop over keys: k6's runtime, which judges every load response with this, iterates
  // entries or for-of several times slower.
  const optionIds = Object.keys(probabilities);
  for (let index = 0; index < optionIds.length; index++) {
    const optionId = optionIds[index]!;
    const p = probabilities[optionId];
    if (typeof p !== 'number' || !(p >= 0 && p <= 1))
      return { expected: `${where}/probabilities/${showId(optionId)} a number in [0, 1]`, observed: JSON.stringify(p) };
  }
  return undefined;
}

/** Seed 2.4: a non-null choice is an option id with the highest probability (not judged when choice is null). */
export function choiceArgmaxBreach(answer: Record<string, any>, where: string): RuleBreach | undefined {
  const top = topTwoProbabilities(answer);
  if (answer.choice === null || !top) return undefined;
  const chosen = typeof answer.choice === 'string' && Object.hasOwn(answer.probabilities, answer.choice) ? answer.probabilities[answer.choice] : undefined;
  if (chosen === top.first) return undefined;
  return {
    expected: `${where}/choice an option with the top probability ${top.first}`,
    observed: `${showId(String(answer.choice))} with probability ${String(chosen)}`,
  };
}

/**
 * Seed 2.4: confidence is the top-1 minus the top-2 probability (within MARGIN_TOLERANCE). Not
 * judged with fewer than two probabilities: a single option's margin is an open point.
 */
export function choiceMarginBreach(answer: Record<string, any>, where: string): RuleBreach | undefined {
  const top = topTwoProbabilities(answer);
  if (!top || top.second === undefined) return undefined;
  const margin = top.first - top.second;
  if (typeof answer.confidence === 'number' && Math.abs(answer.confidence - margin) <= MARGIN_TOLERANCE) return undefined;
  return { expected: `${where}/confidence ${margin} (top-1 ${top.first} minus top-2 ${top.second})`, observed: JSON.stringify(answer.confidence) };
}

/** Seed 2.4 and 3: when abstain is true, choice is null (probabilities remaining is judged by sameIdsBreach). */
export function abstainBreach(answer: Record<string, any>, where: string): RuleBreach | undefined {
  if (answer.abstain !== true || answer.choice === null) return undefined;
  return { expected: `${where}/choice null when abstain is true`, observed: JSON.stringify(answer.choice) };
}

/** The probabilities of a choice answer add up to 1 within SUM_TOLERANCE (a SHOULD; not judged when they are not all numbers). */
export function choiceSumBreach(answer: Record<string, any>, where: string): RuleBreach | undefined {
  const ranked = sortedProbabilities(answer);
  if (!ranked) return undefined;
  const sum = ranked.reduce((total, p) => total + p, 0);
  return Math.abs(sum - 1) > SUM_TOLERANCE ? { expected: `${where}/probabilities adding up to 1`, observed: `a sum of ${sum}` } : undefined;
}

/** Seed 1 and 2.4: usage.input_tokens is an integer of at least 0. */
export function inputTokensBreach(body: any): RuleBreach | undefined {
  const tokens = body?.usage?.input_tokens;
  return Number.isInteger(tokens) && tokens >= 0 ? undefined : { expected: 'usage.input_tokens an integer ≥ 0', observed: JSON.stringify(tokens) };
}

/** Seed 1: no output tokens. The fields of a decide body that look like one, in usage or at the top level. */
export function outputTokenFields(body: any): string[] {
  const usageKeys = objectKeys(body?.usage) ?? [];
  return [
    ...usageKeys.filter((key) => /output|completion/i.test(key)).map((key) => `usage.${key}`),
    ...(objectKeys(body) ?? []).filter((key) => /output_tokens|completion_tokens/i.test(key)),
  ];
}

/** JSON with object keys sorted, to compare answers whatever the key order. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'undefined';
  return `{${Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
    .join(',')}}`;
}

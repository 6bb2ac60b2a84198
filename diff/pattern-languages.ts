// Whether a new `pattern` admits more or fewer strings than the old one, decided as languages: each
// pattern becomes a finite automaton of every string it matches somewhere (JSON Schema's `pattern`
// is not anchored), and one language includes the other when it has no string outside it. refa
// builds the automata and finds the shortest string in a difference, so a change that narrows comes
// with a string it no longer admits. @eslint-community/regexpp parses the pattern as ajv runs it
// (ECMAScript, the u flag). What automata cannot model here (lookarounds, word boundaries, an anchor
// inside a group, a backreference to a group that varies) leaves the comparison undecided, with why.
import { RegExpParser, type AST } from '@eslint-community/regexpp';
import { DFA, getIntersectionWords, isDisjointWith, JS, NFA, TooManyNodesError } from 'refa';

/**
 * same: the same strings. wider: every string the old pattern admitted, and `gained`, which it did
 * not. narrower: the reverse, `lost` no longer admitted. different: each admits a string the other
 * does not. undecided: the languages could not be compared, and `reason` says what blocked it.
 */
export type PatternComparison =
  | { direction: 'same' }
  | { direction: 'wider'; gained: string }
  | { direction: 'narrower'; lost: string }
  | { direction: 'different'; lost: string; gained: string }
  | { direction: 'undecided'; reason: string };

/** Automata past this many states are not built: a pathological pattern must not stall the gate. */
const MAX_NODES = 20_000;

class Undecided extends Error {}

/**
 * The pattern rewritten to match whole strings: each top-level alternative keeps its own ^ and $,
 * and an alternative without one may have anything before or after it.
 */
function wholeStringSource(pattern: string): string {
  let parsed: AST.Pattern;
  try {
    parsed = new RegExpParser({ ecmaVersion: 2024 }).parsePattern(pattern, 0, pattern.length, { unicode: true });
  } catch (error) {
    throw new Undecided(`${JSON.stringify(pattern)} is not an ECMAScript pattern with the u flag (${(error as Error).message})`);
  }
  return parsed.alternatives
    .map((alternative) => {
      const elements = [...alternative.elements];
      const anchor = (element: AST.Element | undefined, kind: 'start' | 'end') => element?.type === 'Assertion' && element.kind === kind;
      const start = anchor(elements[0], 'start');
      if (start) elements.shift();
      const end = anchor(elements.at(-1), 'end');
      if (end) elements.pop();
      const body = elements.length === 0 ? '' : pattern.slice(elements[0]!.start, elements.at(-1)!.end);
      return `${start ? '' : '[^]*'}(?:${body})${end ? '' : '[^]*'}`;
    })
    .join('|');
}

/** The automaton of every string the pattern matches somewhere. */
function languageOf(pattern: string): NFA {
  const source = wholeStringSource(pattern);
  try {
    const { expression, maxCharacter } = JS.Parser.fromLiteral({ source, flags: 'u' }).parse({
      assertions: 'throw',
      backreferences: 'throw',
      maxNodes: MAX_NODES,
    });
    return NFA.fromRegex(expression, { maxCharacter }, {}, new NFA.LimitedNodeFactory(MAX_NODES));
  } catch (error) {
    if (error instanceof TooManyNodesError) throw new Undecided(`${JSON.stringify(pattern)} needs an automaton of more than ${MAX_NODES} states`);
    throw new Undecided(
      `${JSON.stringify(pattern)} has what automata do not model here: a lookaround, a word boundary, an anchor inside a group, or a backreference to a group that varies (${(error as Error).message})`,
    );
  }
}

/** The shortest string `inside` admits and `outside` does not, or undefined when there is none. */
function stringOnlyIn(inside: NFA, outside: NFA): string | undefined {
  try {
    const complement = DFA.fromFA(outside, new DFA.LimitedNodeFactory(MAX_NODES));
    complement.complement();
    if (isDisjointWith(inside, complement, MAX_NODES)) return undefined;
    for (const word of getIntersectionWords(inside, complement, MAX_NODES)) return String.fromCodePoint(...word);
    return undefined;
  } catch (error) {
    if (error instanceof TooManyNodesError) throw new Undecided(`comparing the two patterns needs an automaton of more than ${MAX_NODES} states`);
    throw error;
  }
}

export function comparePatterns(old: string, next: string): PatternComparison {
  if (old === next) return { direction: 'same' };
  try {
    const before = languageOf(old);
    const after = languageOf(next);
    const lost = stringOnlyIn(before, after);
    const gained = stringOnlyIn(after, before);
    if (lost === undefined && gained === undefined) return { direction: 'same' };
    if (lost === undefined) return { direction: 'wider', gained: gained! };
    if (gained === undefined) return { direction: 'narrower', lost };
    return { direction: 'different', lost, gained };
  } catch (error) {
    if (error instanceof Undecided) return { direction: 'undecided', reason: error.message };
    throw error;
  }
}

/**
 * Strings the pattern matches, shortest first: one per set of words of a length (the first
 * printable character of each position), up to `limit` of them. Undefined when automata cannot
 * model the pattern.
 */
export function stringsMatching(pattern: string, limit: number): string[] | undefined {
  const key = `${limit}\u0000${pattern}`;
  if (!matching.has(key)) matching.set(key, wordsOf(pattern, limit));
  return matching.get(key);
}
/** Patterns repeat across a comparison's samples: their words are found once. */
const matching = new Map<string, string[] | undefined>();

function wordsOf(pattern: string, limit: number): string[] | undefined {
  let language: NFA;
  try {
    language = languageOf(pattern);
  } catch (error) {
    if (error instanceof Undecided) return undefined;
    throw error;
  }
  const strings: string[] = [];
  for (const wordSet of language.wordSets()) {
    strings.push(String.fromCodePoint(...wordSet.map(printable)));
    if (strings.length >= limit) break;
  }
  return strings;
}

/** A character of the set, a printable ASCII letter or digit when the set has one. */
function printable(set: { ranges: readonly { min: number; max: number }[] }): number {
  for (const wanted of [0x61, 0x30, 0x41, 0x20]) for (const range of set.ranges) if (range.min <= wanted && wanted <= range.max) return wanted;
  for (const range of set.ranges) if (range.max >= 0x21) return Math.max(range.min, 0x21);
  return set.ranges[0]!.min;
}

/** Whether `pattern` (as ajv runs it: ECMAScript, the u flag, anywhere in the text) matches `text`; undefined when it does not compile. */
export function patternMatches(pattern: string, text: string): boolean | undefined {
  try {
    return new RegExp(pattern, 'u').test(text);
  } catch {
    return undefined;
  }
}

/** The shortest string `pattern` does not match, or undefined when it matches every string or cannot be modelled. */
export function stringNotMatching(pattern: string): string | undefined {
  const comparison = comparePatterns('', pattern);
  return comparison.direction === 'narrower' || comparison.direction === 'different' ? comparison.lost : undefined;
}

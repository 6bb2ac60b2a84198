// Pattern comparison as languages: each direction decided with the string that proves it, checked
// by the regex engine itself (a string the old pattern admits and the new one does not is exactly
// what a narrowed request pattern breaks), and what automata cannot model left undecided with why.
import { describe, expect, test } from 'vitest';
import { comparePatterns, type PatternComparison } from '../pattern-languages.ts';

type Direction = PatternComparison['direction'];

const decided: Array<[string, string, string, Exclude<Direction, 'undecided'>]> = [
  ['quantifier lower bound lowered', '^asset_[A-Za-z0-9_-]{8,64}$', '^asset_[A-Za-z0-9_-]{4,64}$', 'wider'],
  ['quantifier upper bound lowered', '^[a-z]{1,64}$', '^[a-z]{1,32}$', 'narrower'],
  ['+ becomes *', '^[a-z]+$', '^[a-z]*$', 'wider'],
  ['exact count becomes a range', '^[0-9]{4}$', '^[0-9]{2,4}$', 'wider'],
  ['? removed (optional part made mandatory)', '^a-?b$', '^a-b$', 'narrower'],
  ['alternative added', '^(red|green)$', '^(red|green|blue)$', 'wider'],
  ['alternative removed at top level', 'red|green|blue', 'red|blue', 'narrower'],
  ['character class widened', '^[a-z]+$', '^[a-z0-9]+$', 'wider'],
  ['character class narrowed', '^[A-Za-z0-9_-]+$', '^[A-Za-z0-9]+$', 'narrower'],
  ['class escape widened to a class', '^\\d+$', '^[0-9a-f]+$', 'wider'],
  ['single character widened to a class', '^fb_x$', '^fb_[xy]$', 'wider'],
  ['negated class narrowed', '^[^,]+$', '^[^,;]+$', 'narrower'],
  ['dot admits more than a class', '^[a-z]$', '^.$', 'wider'],
  ['^ removed', '^abc$', 'abc$', 'wider'],
  ['$ added', '^abc', '^abc$', 'narrower'],
  ['both anchors removed', '^[a-z]+$', '[a-z]+', 'wider'],
  ['same strings, other spelling', '^[0-9]+$', '^\\d+$', 'same'],
  ['lazy quantifier matches the same strings', '^a+?$', '^a+$', 'same'],
  ['class widened inside a non-capturing group', '^(?:[a-f]{2})+$', '^(?:[a-z]{2})+$', 'wider'],
  ['named group, bound widened', '^(?<id>[0-9]{3})$', '^(?<id>[0-9]{1,3})$', 'wider'],
  // What a comparison of tree shapes could not decide.
  ['a prefix alternative added (another shape)', '^asset_[a-z0-9]{8}$', '^(asset|file)_[a-z0-9]{8}$', 'wider'],
  ['an unanchored pattern is any string containing a match', 'ab', '^[^]*ab', 'same'],
  ['. stops at a line terminator', 'ab', '^.*ab', 'narrower'],
  ['a repeated group spelled out', '^(ab)+$', '^ab(ab)*$', 'same'],
  ['a unicode property narrowed', '^\\p{L}+$', '^\\p{Lu}+$', 'narrower'],
  ['a constant backreference', '^(a)\\1$', '^aa$', 'same'],
  ['more atoms', '^[a-z]+$', '^[a-z]+-[a-z]+$', 'different'],
  ['class widened and bound narrowed at once', '^[a-z]{1,10}$', '^[a-z0-9]{1,5}$', 'different'],
  ['disjoint classes', '^[a-z]+$', '^[0-9]+$', 'different'],
  ['alternatives replaced', '^(red|green)$', '^(red|blue)$', 'different'],
  ['^ removed while the body narrowed', '^[a-z0-9]+$', '[a-z]+$', 'different'],
];

const undecided: Array<[string, string, string, RegExp]> = [
  ['lookahead', '^(?=.*[a-z])[a-z0-9]+$', '^(?=.*[0-9])[a-z0-9]+$', /lookaround/],
  ['negative lookahead added', '^[a-z]+$', '^(?!x)[a-z]+$', /lookaround/],
  ['backreference to a group that varies', '^([a-z]+)\\1$', '^([a-z]+)\\1{2}$', /backreference/],
  ['word boundary', '\\bword\\b', '\\bwords?\\b', /word boundary/],
  ['an anchor inside a group', '^(a|^b)$', '^(a|b)$', /anchor inside a group/],
  ['malformed pattern', '^[a-z$', '^[a-z]$', /not an ECMAScript pattern with the u flag/],
  ['a pattern too large to build', '^[a-z]{1,20000}$', '^[a-z]{1,19999}$', /more than \d+ states/],
  ['a comparison whose automaton grows exponentially', '^(a|b)*a(a|b){12}$', '^(a|b)*a(a|b){11}$', /more than \d+ states/],
];

const reverseOf: Record<Exclude<Direction, 'undecided'>, Exclude<Direction, 'undecided'>> = {
  wider: 'narrower',
  narrower: 'wider',
  same: 'same',
  different: 'different',
};

describe('pattern directions decided, each with the string that proves it', () => {
  test.each(decided)('%s: %s -> %s', (_name, old, next, expected) => {
    const compared = comparePatterns(old, next);
    expect(compared.direction).toBe(expected);
    const before = new RegExp(old, 'u');
    const after = new RegExp(next, 'u');
    // A lost string is admitted by the old pattern and not by the new; a gained one the reverse.
    if ('lost' in compared) expect([before.test(compared.lost), after.test(compared.lost)], JSON.stringify(compared.lost)).toEqual([true, false]);
    if ('gained' in compared) expect([before.test(compared.gained), after.test(compared.gained)], JSON.stringify(compared.gained)).toEqual([false, true]);
    // The change undone goes the other way.
    expect(comparePatterns(next, old).direction).toBe(reverseOf[expected]);
  });
});

describe('pattern directions left undecided, with what blocked them', () => {
  test.each(undecided)('%s: %s -> %s', (_name, old, next, reason) => {
    for (const compared of [comparePatterns(old, next), comparePatterns(next, old)]) {
      expect(compared.direction).toBe('undecided');
      expect(compared.direction === 'undecided' && compared.reason).toMatch(reason);
    }
  });
});

test('the shortest string is the witness: a narrowed bound loses the first length past it', () => {
  expect(comparePatterns('^[a-z]{1,64}$', '^[a-z]{1,32}$')).toEqual({ direction: 'narrower', lost: 'a'.repeat(33) });
  expect(comparePatterns('^asset_[a-z0-9]{8}$', '^(asset|file)_[a-z0-9]{8}$')).toEqual({ direction: 'wider', gained: 'file_00000000' });
});

// Pattern directions: each case the comparison decides, and cases it must leave undecided.
import { describe, expect, test } from 'vitest';
import { comparePatterns } from '../regex-compare.ts';

const decided: Array<[string, string, string, 'wider' | 'narrower' | 'same']> = [
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
];

const undecided: Array<[string, string, string]> = [
  ['lookahead', '^(?=.*[a-z])[a-z0-9]+$', '^(?=.*[0-9])[a-z0-9]+$'],
  ['negative lookahead added', '^[a-z]+$', '^(?!x)[a-z]+$'],
  ['backreference', '^(a)\\1$', '^(a)\\1{2}$'],
  ['word boundary', '\\bword\\b', '\\bwords?\\b'],
  ['unicode property', '^\\p{L}+$', '^\\p{Lu}+$'],
  ['different structure (more atoms)', '^[a-z]+$', '^[a-z]+-[a-z]+$'],
  ['class widened and bound narrowed at once', '^[a-z]{1,10}$', '^[a-z0-9]{1,5}$'],
  ['disjoint classes', '^[a-z]+$', '^[0-9]+$'],
  ['one pattern widened and the other narrowed in two places', '^[a-z]{2}[0-9]{2}$', '^[a-z]{1,2}[0-9]$'],
  ['^ removed while the body narrowed', '^[a-z0-9]+$', '[a-z]+$'],
  ['alternatives replaced', '^(red|green)$', '^(red|blue)$'],
  ['malformed pattern', '^[a-z$', '^[a-z]$'],
];

describe('pattern directions decided', () => {
  test.each(decided)('%s: %s -> %s', (_name, old, next, expected) => {
    expect(comparePatterns(old, next)).toBe(expected);
    // The change undone goes the other way.
    const reverse = expected === 'wider' ? 'narrower' : expected === 'narrower' ? 'wider' : 'same';
    expect(comparePatterns(next, old)).toBe(reverse);
  });
});

describe('pattern directions left undecided', () => {
  test.each(undecided)('%s: %s -> %s', (_name, old, next) => {
    expect(comparePatterns(old, next)).toBeUndefined();
    expect(comparePatterns(next, old)).toBeUndefined();
  });
});

test('every decided case agrees with the regex engine on sample strings', () => {
  const samples = [
    '',
    'a',
    'ab',
    'abc',
    'a-b',
    'ab-',
    'asset_abcd',
    'asset_abcdefgh',
    '12',
    '1234',
    'ff',
    'x',
    'fb_x',
    'fb_y',
    'red',
    'blue',
    'zz',
    'A_b',
    'a,b',
    'a;b',
    'word',
    'aa',
  ];
  for (const [, old, next, expected] of decided) {
    const before = new RegExp(old, 'u');
    const after = new RegExp(next, 'u');
    for (const sample of samples) {
      if (expected !== 'narrower' && before.test(sample)) expect(after.test(sample), `${next} admits "${sample}" like ${old}`).toBe(true);
      if (expected !== 'wider' && after.test(sample)) expect(before.test(sample), `${old} admits "${sample}" like ${next}`).toBe(true);
    }
  }
});

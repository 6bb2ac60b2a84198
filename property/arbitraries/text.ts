// String arbitraries where the seed's semantics matter: ids a caller chooses (returned exactly
// as sent, so look-alikes, emoji, spaces and "__proto__" must survive), texts, and long texts
// at a length limit. Every unit is one Unicode code point, so a unit count is a character count
// however characters are counted (open point character-counting) — except that long texts stay
// in the Basic Multilingual Plane, where code points and UTF-16 units agree.
import fc from 'fast-check';
import { TRICKY_IDS } from '../../harness/answer-rules.ts';

/** Plain id characters: what shrinking falls back to. */
const PLAIN_ID_CHARS = [...'abcdefghijklmnopqrstuvwxyz0123456789_'];
/** Cyrillic and Greek letters that look like Latin ones (а е о р с х у Α Ο), and Latin ones that look alike (I l 1 0 O). */
const LOOK_ALIKE_CHARS = ['\u0430', '\u0435', '\u043e', '\u0440', '\u0441', '\u0445', '\u0443', '\u0391', '\u039f', 'I', 'l', '1', '0', 'O'];
/** Astral emoji (two UTF-16 units each) and a BMP one. */
const EMOJI_CHARS = ['\u{1F4E6}', '\u{1F600}', '\u{1F69A}', '\u{1F44D}', '\u2764'];
/** Composed and decomposed accents (é and e + U+0301), ß, ö, a ligature NFKC unfolds, a CJK character. */
const ACCENT_CHARS = ['\u00e9', '\u0301', '\u00f6', '\u00df', '\uFB01', '\u6ce8'];
/** Spaces, JSON pointer characters, quotes and backslashes (escaped in JSON), a zero-width space. */
const PUNCTUATION_CHARS = [' ', '/', '~', '.', '"', '\\', '-', ':', '\u200B'];
/** Ids that name built-in properties of JavaScript objects. */
const PROTOTYPE_IDS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype'];

/** One character of an id: mostly plain, often a look-alike, an emoji, an accent or punctuation. */
export function idCharacter(): fc.Arbitrary<string> {
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.constantFrom(...PLAIN_ID_CHARS), weight: 10 },
    { arbitrary: fc.constantFrom(...LOOK_ALIKE_CHARS), weight: 3 },
    { arbitrary: fc.constantFrom(...EMOJI_CHARS), weight: 2 },
    { arbitrary: fc.constantFrom(...ACCENT_CHARS), weight: 2 },
    { arbitrary: fc.constantFrom(...PUNCTUATION_CHARS), weight: 2 },
  );
}

export const MAX_ID_CHARACTERS = 12;

/**
 * A question or option id: built character by character (so a failing id shrinks to its one
 * guilty character), or one of the ids known to trip servers (look-alikes, "__proto__", NFC and
 * NFD forms, an emoji with a space, a ligature, a zero-width space).
 */
export function callerId(): fc.Arbitrary<string> {
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.string({ unit: idCharacter(), minLength: 1, maxLength: MAX_ID_CHARACTERS }), weight: 5 },
    { arbitrary: fc.constantFrom(...TRICKY_IDS, ...PROTOTYPE_IDS), weight: 2 },
  );
}

/** A plain id (lowercase letters, digits, underscore): no open point about id formats can apply. */
export function plainId(): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...PLAIN_ID_CHARS), minLength: 1, maxLength: 8 });
}

/** One character of free text: mostly letters and spaces. */
function textCharacter(): fc.Arbitrary<string> {
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz     '), weight: 12 },
    { arbitrary: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,;!?\'"\\/-\n\t'), weight: 3 },
    { arbitrary: fc.constantFrom(...LOOK_ALIKE_CHARS, ...ACCENT_CHARS, ...EMOJI_CHARS), weight: 2 },
  );
}

/** Free texts up to this many characters are drawn character by character; longer ones are filler. */
export const SHORT_TEXT_CHARACTERS = 200;

const FILLER = 'My parcel arrived damaged and late; I was charged twice for order 1182 and want a refund. Mon colis est arrivé cassé. ';

/**
 * Readable text of exactly `length` characters, all in the Basic Multilingual Plane, starting at
 * `offset` in a fixed sentence: cheap to build and to shrink at any length.
 */
export function fillerText(length: number, offset = 0): string {
  const start = offset % FILLER.length;
  const repeated = FILLER.repeat(Math.ceil((length + start) / FILLER.length) + 1);
  return repeated.slice(start, start + length);
}

/**
 * Free text of `minLength` to `maxLength` characters. Short ranges are drawn character by
 * character; a range that starts beyond SHORT_TEXT_CHARACTERS (a text at a limit) is filler.
 */
export function freeText(minLength: number, maxLength: number): fc.Arbitrary<string> {
  if (minLength > SHORT_TEXT_CHARACTERS) {
    return fc.tuple(fc.integer({ min: minLength, max: maxLength }), fc.nat({ max: FILLER.length - 1 })).map(([length, offset]) => fillerText(length, offset));
  }
  return fc.string({ unit: textCharacter(), minLength, maxLength: Math.min(maxLength, SHORT_TEXT_CHARACTERS) });
}

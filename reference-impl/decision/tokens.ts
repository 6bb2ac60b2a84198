// Text normalisation and tokenisation, shared by contexts and by the probe texts they are
// compared with (option texts, instructions), so both sides of a similarity see the same words.

// Diacritics of the Latin, Greek and Cyrillic scripts ("délivery" matches "delivery"). Only this
// block is stripped: in other scripts (Devanagari vowel signs, for one) marks are part of the word.
const COMBINING_DIACRITICS = /[\u0300-\u036f]/g;
const TYPOGRAPHIC_APOSTROPHES = /[\u2018\u2019\u02bc\uff07]/g;

// Text with no character above U+007F: every step of normaliseText but lowercasing is then the
// identity (no compatibility forms, no diacritics, no typographic apostrophes).
const NON_ASCII = /[^\u0000-\u007f]/;

/**
 * Lowercases, folds compatibility forms (NFKC: full-width letters, ligatures), strips Latin
 * diacritics and unifies apostrophes, so that "Don’t", "DON'T" and "don't" are one word.
 */
export function normaliseText(text: string): string {
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  return text.toLowerCase().normalize('NFKD').replace(COMBINING_DIACRITICS, '').normalize('NFC').replace(TYPOGRAPHIC_APOSTROPHES, "'");
}

// A word is a run of letters, digits and marks, with inner apostrophes ("don't"). An emoji (with
// its variation selector, skin tone or ZWJ sequence) or another symbol is a word of its own, so
// ids such as "👍" can match. Clause punctuation ends a clause; other characters separate words.
const TOKEN = new RegExp(
  [
    String.raw`(?<word>[\p{L}\p{N}\p{M}]+(?:'[\p{L}\p{N}\p{M}]+)*)`,
    String.raw`(?<symbol>\p{Extended_Pictographic}(?:[\u{FE0F}\u{1F3FB}-\u{1F3FF}]|\u{200D}\p{Extended_Pictographic})*|\p{S})`,
    String.raw`(?<clauseEnd>[.,;:!?\u00a1\u00bf\u3001\u3002\uff01\uff0c\uff1a\uff1b\uff1f])`,
  ].join('|'),
  'gu',
);

// English negation cues (with apostrophe-less spellings common in support messages). Anything
// ending in "n't" is a cue too.
const NEGATION_CUES = new Set([
  'not',
  'no',
  'never',
  'none',
  'nobody',
  'nothing',
  'neither',
  'nor',
  'nowhere',
  'cannot',
  'without',
  'dont',
  'doesnt',
  'didnt',
  'isnt',
  'wasnt',
  'arent',
  'werent',
  'cant',
  'couldnt',
  'wont',
  'wouldnt',
  'shouldnt',
  'havent',
  'hasnt',
  'hadnt',
]);
// English function words. They carry no topic, yet a short probe such as "Is the delivery
// late?" would otherwise match any context through "is" and "the". features.ts skips them unless
// a text has nothing else (an option id "a"). Negation cues are not stopwords: an option "no" or
// "none" must stay matchable.
const STOPWORDS = new Set([
  'a',
  'an',
  'the',
  'and',
  'or',
  'but',
  'of',
  'to',
  'in',
  'on',
  'at',
  'for',
  'from',
  'by',
  'with',
  'about',
  'as',
  'into',
  'onto',
  'than',
  'then',
  'so',
  'if',
  'is',
  'am',
  'are',
  'was',
  'were',
  'be',
  'been',
  'being',
  'do',
  'does',
  'did',
  'doing',
  'have',
  'has',
  'had',
  'having',
  'i',
  'me',
  'my',
  'mine',
  'myself',
  'you',
  'your',
  'yours',
  'he',
  'him',
  'his',
  'she',
  'her',
  'hers',
  'it',
  'its',
  'we',
  'us',
  'our',
  'ours',
  'they',
  'them',
  'their',
  'theirs',
  'this',
  'that',
  'these',
  'those',
  'there',
  'here',
  'what',
  'which',
  'who',
  'whom',
  'whose',
  'when',
  'where',
  'why',
  'how',
  'will',
  'would',
  'shall',
  'should',
  'can',
  'could',
  'may',
  'might',
  'must',
  'just',
  'also',
  'very',
  'too',
  "i'm",
  "i've",
  "i'd",
  "i'll",
  "it's",
  "that's",
  "there's",
  "you're",
  "we're",
  "they're",
]);
// Words that turn a sentence around and so end a negation's scope ("not late but broken").
const SCOPE_BREAKERS = new Set(['but', 'however', 'although', 'though', 'except']);
/** How many words after a cue a negation reaches, at most (within the clause; stopwords do not count). */
export const NEGATION_SCOPE_WORDS = 3;

const STOPWORD = 1;
const NEGATION_CUE = 2;
const SCOPE_BREAKER = 4;
// The three lists as one map from word to its roles ("but" is a stopword and a scope breaker):
// every word of every text is looked up, once instead of three times.
const WORD_ROLES = new Map<string, number>();
for (const [words, role] of [
  [STOPWORDS, STOPWORD],
  [NEGATION_CUES, NEGATION_CUE],
  [SCOPE_BREAKERS, SCOPE_BREAKER],
] as const) {
  for (const word of words) WORD_ROLES.set(word, (WORD_ROLES.get(word) ?? 0) | role);
}

function rolesOf(word: string): number {
  const roles = WORD_ROLES.get(word) ?? 0;
  return word.endsWith("n't") ? roles | NEGATION_CUE : roles;
}

/**
 * Receives each word of a normalised text in order, whether it falls inside a negation's scope
 * and whether it is a stopword; and clauseEnd at clause punctuation and at the end: word bigrams
 * and negation scopes never cross a clause.
 */
export interface WordSink {
  word(text: string, negated: boolean, stopword: boolean): void;
  clauseEnd(): void;
}

/**
 * Reads a text word by word and marks the words a negation cue governs: up to
 * NEGATION_SCOPE_WORDS content words after "not", "never", "don't"… until clause punctuation or
 * a word such as "but". The cue itself is not negated. This is the classic scope heuristic of lexical
 * sentiment analysis; it lets "did not ask for a refund" differ from "asked for a refund".
 * features.ts hashes words as they come: no word object is made for a context.
 */
export function readWords(text: string, sink: WordSink): void {
  let scopeLeft = 0;
  const onToken = (word: string | undefined): void => {
    if (word === undefined) {
      // Clause punctuation.
      sink.clauseEnd();
      scopeLeft = 0;
      return;
    }
    const roles = rolesOf(word);
    const stopword = (roles & STOPWORD) !== 0;
    if ((roles & NEGATION_CUE) !== 0) {
      sink.word(word, false, stopword);
      scopeLeft = NEGATION_SCOPE_WORDS;
    } else if ((roles & SCOPE_BREAKER) !== 0) {
      sink.word(word, false, stopword);
      scopeLeft = 0;
    } else {
      sink.word(word, scopeLeft > 0, stopword);
      if (scopeLeft > 0 && !stopword) scopeLeft -= 1;
    }
  };
  const normalised = normaliseText(text);
  if (NON_ASCII.test(normalised)) patternTokens(normalised, onToken);
  else asciiTokens(normalised, onToken);
  onToken(undefined);
}

/** Receives each word or symbol token in order, and undefined for clause punctuation. */
export type TokenSink = (word: string | undefined) => void;

/** The tokens of a normalised text, by the TOKEN pattern: any script. */
export function patternTokens(normalised: string, onToken: TokenSink): void {
  for (const match of normalised.matchAll(TOKEN)) {
    const groups = match.groups ?? {};
    if (groups.clauseEnd !== undefined) onToken(undefined);
    else {
      const word = groups.word ?? groups.symbol;
      if (word !== undefined) onToken(word);
    }
  }
}

// What each ASCII character is to the TOKEN pattern, read off the pattern itself at load time so
// the two tokenisers cannot disagree on a class.
const ASCII_OTHER = 0;
const ASCII_WORD = 1;
const ASCII_SYMBOL = 2;
const ASCII_CLAUSE_END = 3;
const ASCII_CLASS = Uint8Array.from({ length: 128 }, (_, code) => {
  const char = String.fromCharCode(code);
  const groups = new RegExp(`^(?:${TOKEN.source})$`, 'u').exec(char)?.groups;
  if (!groups) return ASCII_OTHER;
  if (groups.word !== undefined) return ASCII_WORD;
  if (groups.symbol !== undefined) return ASCII_SYMBOL;
  return ASCII_CLAUSE_END;
});
const APOSTROPHE = 0x27;

/**
 * The same tokens as patternTokens for a text of ASCII characters only (most traffic), by a
 * scan over character codes: the pattern's Unicode property classes were most of a decision's
 * feature work. A word is a run of word characters with inner apostrophes; in ASCII a symbol is
 * always one character (the pictographic sequences need characters above U+007F).
 */
export function asciiTokens(normalised: string, onToken: TokenSink): void {
  const length = normalised.length;
  let index = 0;
  while (index < length) {
    const kind = ASCII_CLASS[normalised.charCodeAt(index)]!;
    if (kind === ASCII_WORD) {
      const start = index;
      index += 1;
      for (;;) {
        while (index < length && ASCII_CLASS[normalised.charCodeAt(index)] === ASCII_WORD) index += 1;
        // An apostrophe belongs to the word only with a word character after it.
        if (index + 1 < length && normalised.charCodeAt(index) === APOSTROPHE && ASCII_CLASS[normalised.charCodeAt(index + 1)] === ASCII_WORD) index += 2;
        else break;
      }
      onToken(normalised.slice(start, index));
      continue;
    }
    if (kind === ASCII_SYMBOL) onToken(normalised[index]);
    else if (kind === ASCII_CLAUSE_END) onToken(undefined);
    index += 1;
  }
}

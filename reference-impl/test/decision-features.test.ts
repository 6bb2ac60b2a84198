// Text to features: normalisation, negation scope, stopwords and the hashed sparse vectors the
// model is fed.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { BUCKET_COUNT, contextVector, featureVector, type SparseVector } from '../decision/features.ts';
import { asciiTokens, normaliseText, patternTokens, readWords } from '../decision/tokens.ts';

function overlap(a: SparseVector, b: SparseVector): number {
  const ids = new Set(a.ids);
  return Array.from(b.ids).filter((id) => ids.has(id)).length;
}

const wordsOf = (text: string): string[] => {
  const words: string[] = [];
  readWords(text, { word: (word, negated) => words.push(negated ? `not:${word}` : word), clauseEnd: () => {} });
  return words;
};

describe('normalisation and tokens', () => {
  test('case, compatibility forms, Latin diacritics and apostrophes are folded', () => {
    expect(normaliseText('Délivery')).toBe('delivery');
    expect(normaliseText('ＦＵＬＬ')).toBe('full');
    expect(normaliseText('Don’t')).toBe("don't");
    expect(featureVector('LATE Délivery')).toEqual(featureVector('late delivery'));
  });

  test('marks of other scripts are kept: different Devanagari words stay different', () => {
    expect(normaliseText('कुल')).not.toBe(normaliseText('कल'));
    expect(featureVector('कुल')).not.toEqual(featureVector('कल'));
  });

  test('a negation reaches the next content words of its clause only', () => {
    expect(wordsOf('I did not ask for a refund, I want my parcel')).toEqual([
      'i',
      'did',
      'not',
      'not:ask',
      'not:for',
      'not:a',
      'not:refund',
      'i',
      'want',
      'my',
      'parcel',
    ]);
    expect(wordsOf("It wasn't late but the box was broken")).toEqual(['it', "wasn't", 'not:late', 'but', 'the', 'box', 'was', 'broken']);
    expect(wordsOf('never ever received these shoes at all')).toEqual(['never', 'not:ever', 'not:received', 'not:these', 'not:shoes', 'at', 'all']);
  });

  test('emoji and symbols are words of their own; underscores and hyphens split words', () => {
    expect(wordsOf('great 👍🏽 service_level e-mail')).toEqual(['great', '👍🏽', 'service', 'level', 'e', 'mail']);
  });
});

describe('feature vectors', () => {
  test('ids are distinct buckets in range, weights finite and non-zero', () => {
    const vector = featureVector('The parcel arrived late, the parcel was late, late again.');
    expect(vector.ids.length).toBe(vector.weights.length);
    expect(new Set(vector.ids).size).toBe(vector.ids.length);
    for (const id of vector.ids) expect(id >= 0 && id < BUCKET_COUNT).toBe(true);
    for (const weight of vector.weights) expect(Number.isFinite(weight) && weight !== 0).toBe(true);
  });

  test('a text with more features than the scratch lists first hold: every id once, and nothing left over for the next text', () => {
    const short = 'The parcel arrived late and I want a refund.';
    const before = featureVector(short);
    // 20,000 distinct words, each with its own unigram, bigram and character grams.
    const long = featureVector(Array.from({ length: 20_000 }, (_, index) => `w${index.toString(36)}q`).join(' '));
    expect(long.ids.length).toBeGreaterThan(10_000);
    expect(new Set(long.ids).size).toBe(long.ids.length);
    for (const weight of long.weights) expect(Number.isFinite(weight) && weight !== 0).toBe(true);
    expect(featureVector(short)).toEqual(before);
  });

  test('the same text always gives the same vector', () => {
    const text = 'Mon colis est arrivé en retard 📦, and I want a refund!';
    expect(featureVector(text)).toEqual(featureVector(text));
    expect(contextVector(text)).toEqual(featureVector(text));
  });

  test('repeats are damped: a word said four times weighs twice, not four times', () => {
    const once = featureVector('refund');
    const fourTimes = featureVector('refund refund refund refund');
    const norm = (v: SparseVector): number => Math.hypot(...v.weights);
    // Four repeats also add three "refund refund" bigrams: compare the shared features only.
    const weightOf = (v: SparseVector, id: number): number => v.weights[v.ids.indexOf(id)]!;
    for (const id of once.ids) expect(Math.abs(weightOf(fourTimes, id))).toBeCloseTo(2 * Math.abs(weightOf(once, id)), 5);
    expect(norm(fourTimes)).toBeGreaterThan(norm(once));
  });

  test('inflections share character grams; unrelated words share few', () => {
    const refund = featureVector('refund');
    expect(overlap(refund, featureVector('refunds'))).toBeGreaterThanOrEqual(6);
    expect(overlap(refund, featureVector('parcel'))).toBe(0);
  });

  test('stopwords are skipped unless they are all a text has', () => {
    expect(featureVector('Is the delivery late?')).toEqual(featureVector('delivery late'));
    expect(featureVector('a').ids.length).toBeGreaterThan(0);
    expect(featureVector('a')).not.toEqual(featureVector('the'));
  });

  test('a negated word keeps its character grams but not its word features', () => {
    const plain = featureVector('refund');
    const negated = featureVector('not refund');
    const flippedPlain = featureVector('refund', 'flipped');
    // "not refund" = the cue "not" + a negated "refund": its char grams match the plain word...
    expect(overlap(plain, negated)).toBe(plain.ids.length - 1);
    // ...and reading "refund" flipped gives exactly the negated word's features.
    expect(overlap(flippedPlain, negated)).toBe(flippedPlain.ids.length);
  });

  test('every context has at least one feature, even without a single word', () => {
    for (const text of ['a', ' ', '...', '?!', '😀', '\n']) {
      expect(contextVector(text).ids.length, JSON.stringify(text)).toBeGreaterThanOrEqual(1);
    }
    expect(featureVector('...').ids.length).toBe(0);
  });
});

describe('the ASCII tokeniser is the pattern tokeniser, faster', () => {
  const tokensBy = (tokeniser: typeof asciiTokens, text: string): Array<string | null> => {
    const tokens: Array<string | null> = [];
    tokeniser(text, (word) => tokens.push(word ?? null));
    return tokens;
  };
  // Every ASCII character, with the ones the tokens turn on (apostrophes, word characters,
  // clause punctuation, symbols) made frequent.
  const asciiText = fc.string({
    unit: fc.oneof(
      fc.constantFrom("'", "'", 'a', 'b', 'z', '0', '9', ' ', '.', ',', '!', '?', '$', '+', '#', '-', '_', '\n'),
      fc.integer({ min: 0, max: 127 }).map((code) => String.fromCharCode(code)),
    ),
    maxLength: 60,
  });

  test('same tokens, in the same order, for any ASCII text', () => {
    fc.assert(
      fc.property(asciiText, (text) => {
        const normalised = normaliseText(text);
        expect(tokensBy(asciiTokens, normalised)).toEqual(tokensBy(patternTokens, normalised));
      }),
      { numRuns: 3000 },
    );
  });

  test('normalising ASCII text is lowercasing it, and only ASCII text skips the Unicode steps', () => {
    fc.assert(fc.property(asciiText, (text) => normaliseText(text) === text.toLowerCase()));
    expect(normaliseText("I DON'T know")).toBe("i don't know");
    expect(normaliseText('DON’T')).toBe("don't");
  });

  test('apostrophes join words only between word characters; symbols stand alone', () => {
    expect(tokensBy(asciiTokens, "don't 'quoted' it's' x''y a$b c+d e.f")).toEqual([
      "don't",
      'quoted',
      "it's",
      'x',
      'y',
      'a',
      '$',
      'b',
      'c',
      '+',
      'd',
      'e',
      null,
      'f',
    ]);
  });
});

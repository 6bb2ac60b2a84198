// The generators: built from the spec's schemas, valid against them, at and near every limit the
// schemas state, biased where the seed's semantics matter, and within what the target claims.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ALL_CAPABILITIES, type Capability } from '../../harness/check.ts';
import { requestBodyValidator } from '../../spec/index.ts';
import type { AssetPool } from '../arbitraries/asset-pool.ts';
import { decideRequestArbitrary, optionIdsOf, questionsOf, questionType, withinMediaLimits, withPlainIds } from '../arbitraries/decide-request.ts';
import { SchemaConverter } from '../arbitraries/from-schema.ts';
import { decideLimits } from '../arbitraries/limits.ts';
import { fillerText } from '../arbitraries/text.ts';
import { isWireObject, jsonBytes, showWire, toJsonText, type WireObject, wireObject, type WireValue } from '../arbitraries/wire.ts';

const POOL: AssetPool = {
  image: [{ id: 'asset_image000001', mimeType: 'image/png' }],
  document: [{ id: 'asset_document0001', mimeType: 'text/plain' }],
  audio: [{ id: 'asset_audio0000001', mimeType: 'audio/wav' }],
};
const validDecideBody = requestBodyValidator('decide');

function sample(capabilities: readonly Capability[], pool: AssetPool, numRuns = 300, seed = 42): WireObject[] {
  return fc.sample(decideRequestArbitrary({ capabilities: new Set(capabilities), pool }), { seed, numRuns });
}

const partsOf = (body: WireObject): WireObject[] => (Array.isArray(body.get('context')) ? (body.get('context') as WireObject[]) : []);
const characters = (value: WireValue | undefined) => (typeof value === 'string' ? [...value].length : -1);

describe('the decide request generator', () => {
  const bodies = sample(ALL_CAPABILITIES, POOL);

  test('every generated body meets the spec DecideRequest schema and the 256 KiB limit', () => {
    for (const body of bodies) {
      const result = validDecideBody(JSON.parse(toJsonText(body)));
      expect(result.issues, showWire(body).slice(0, 2000)).toEqual([]);
      expect(jsonBytes(body)).toBeLessThanOrEqual(decideLimits.bodyBytes);
    }
  });

  test('sizes reach every limit the schemas state, and one below it', () => {
    const questionCounts = new Set(bodies.map((body) => questionsOf(body).length));
    expect(questionCounts).toContain(decideLimits.questions.min);
    expect(questionCounts).toContain(decideLimits.questions.max);
    expect(questionCounts).toContain(decideLimits.questions.max - 1);
    const contexts = new Set(bodies.map((body) => characters(body.get('context'))));
    expect(contexts).toContain(decideLimits.contextCharacters.max);
    expect(contexts).toContain(decideLimits.contextCharacters.max - 1);
    const partCounts = new Set(bodies.map((body) => partsOf(body).length));
    expect(partCounts).toContain(decideLimits.parts.max);
    const parts = bodies.flatMap(partsOf);
    expect(new Set(parts.map((part) => characters(part.get('text'))))).toContain(decideLimits.textPartCharacters.max);
    expect(new Set(parts.map((part) => characters(part.get('id'))))).toContain(decideLimits.partIdCharacters);
    // Past 8 options, where a server might cut a list short.
    expect(bodies.some((body) => questionsOf(body).some(([, question]) => optionIdsOf(question).length > 8))).toBe(true);
  });

  test('ids include look-alikes, emoji, spaces and __proto__; descriptions include the empty string', () => {
    const ids = bodies.flatMap((body) => questionsOf(body).flatMap(([id, question]) => [id, ...optionIdsOf(question)]));
    expect(ids).toContain('__proto__');
    expect(ids.some((id) => /[\u0400-\u04ff]/.test(id))).toBe(true);
    expect(ids.some((id) => /\p{Extended_Pictographic}/u.test(id))).toBe(true);
    expect(ids.some((id) => id.includes(' '))).toBe(true);
    const descriptions = bodies.flatMap((body) =>
      questionsOf(body).flatMap(([, question]) =>
        questionType(question) === 'choice' ? (question.get('options') as WireObject).entries.map(([, d]) => d) : [],
      ),
    );
    expect(descriptions).toContain('');
  });

  test('media parts reference pooled assets only, within x-media-limits; every question type and part type occurs', () => {
    const pooled = new Set(
      Object.values(POOL)
        .flat()
        .map((asset) => asset.id),
    );
    const parts = bodies.flatMap(partsOf);
    for (const part of parts) if (part.has('asset_id')) expect(pooled).toContain(part.get('asset_id'));
    for (const body of bodies) {
      for (const [type, { max }] of Object.entries(decideLimits.media))
        expect(partsOf(body).filter((part) => part.get('type') === type).length).toBeLessThanOrEqual(max);
    }
    expect(new Set(parts.map((part) => part.get('type')))).toEqual(new Set(['text', 'image', 'document', 'audio']));
    expect(new Set(bodies.flatMap((body) => questionsOf(body).map(([, question]) => questionType(question))))).toEqual(
      new Set(['choice', 'noul', 'multi', 'score']),
    );
    // Open point noul-instructions-required: noul questions always carry instructions.
    for (const body of bodies)
      for (const [, question] of questionsOf(body)) if (questionType(question) === 'noul') expect(typeof question.get('instructions')).toBe('string');
  });

  test('without capabilities: choice questions and string contexts only; without a pool: no media parts', () => {
    for (const body of sample([], POOL, 100)) {
      expect(typeof body.get('context')).toBe('string');
      for (const [, question] of questionsOf(body)) expect(questionType(question)).toBe('choice');
    }
    const noPool = sample(['multimodal', 'noul'], { image: [], document: [], audio: [] }, 200);
    expect(noPool.some((body) => partsOf(body).length > 0)).toBe(true);
    for (const body of noPool) for (const part of partsOf(body)) expect(part.get('type')).toBe('text');
    for (const body of noPool) for (const [, question] of questionsOf(body)) expect(['choice', 'noul']).toContain(questionType(question));
  });

  test('the same seed generates the same bodies', () => {
    expect(sample(ALL_CAPABILITIES, POOL, 20, 9).map(toJsonText)).toEqual(sample(ALL_CAPABILITIES, POOL, 20, 9).map(toJsonText));
  });

  test('media parts past a limit become text parts, so the part count stays', () => {
    const images = Array.from({ length: decideLimits.media.image.max + 2 }, (_, index) =>
      wireObject({ type: 'image', id: `p${index}`, asset_id: 'asset_image000001' }),
    );
    const limited = withinMediaLimits(images) as WireObject[];
    expect(limited).toHaveLength(images.length);
    expect(limited.filter((part) => part.get('type') === 'image')).toHaveLength(decideLimits.media.image.max);
    expect(limited.at(-1)!.get('id')).toBe(`p${images.length - 1}`);
  });

  test('withPlainIds renames question and option ids and keeps everything else', () => {
    const body = wireObject({
      context: 'x',
      questions: wireObject([
        [
          '\u{1F4E6}',
          wireObject({
            type: 'choice',
            options: wireObject([
              ['__proto__', ''],
              ['а', 'b'],
            ]),
          }),
        ],
      ]),
    });
    expect(toJsonText(withPlainIds(body))).toBe('{"context":"x","questions":{"q1":{"type":"choice","options":{"o1":"","o2":"b"}}}}');
  });
});

describe('the schema converter', () => {
  test('rejects keywords it cannot honour instead of ignoring them', () => {
    const converter = new SchemaConverter();
    expect(() => converter.schema({ type: 'string', format: 'email' }, { components: [], path: [] })).toThrow(/keyword "format"/);
    expect(() => converter.schema({ allOf: [{ type: 'string' }] }, { components: [], path: [] })).toThrow(/keyword "allOf"/);
  });

  test('honours required, additionalProperties false, enum, const, patterns and bounds of an inline schema', () => {
    const schema = {
      type: 'object',
      required: ['kind', 'code'],
      additionalProperties: false,
      properties: {
        kind: { const: 'k' },
        code: { type: 'string', pattern: '^[A-Z]{3}$' },
        level: { enum: [1, 2] },
        tags: { type: 'array', minItems: 1, maxItems: 3, items: { type: 'null' } },
      },
    };
    for (const value of fc.sample(new SchemaConverter().schema(schema, { components: [], path: [] }), { seed: 1, numRuns: 100 })) {
      expect(isWireObject(value)).toBe(true);
      const object = value as WireObject;
      expect(object.get('kind')).toBe('k');
      expect(object.get('code')).toMatch(/^[A-Z]{3}$/);
      expect(object.keys.every((key) => ['kind', 'code', 'level', 'tags'].includes(key))).toBe(true);
      if (object.has('level')) expect([1, 2]).toContain(object.get('level'));
      if (object.has('tags')) expect((object.get('tags') as WireValue[]).length).toBeGreaterThanOrEqual(1);
    }
  });
});

describe('wire values', () => {
  test('keep key order and any key, "__proto__" and "1" included', () => {
    const body = wireObject([
      ['b', 1],
      ['__proto__', wireObject([['x', null]])],
      ['1', 'one'],
    ]);
    expect(toJsonText(body)).toBe('{"b":1,"__proto__":{"x":null},"1":"one"}');
    expect(Object.keys(JSON.parse(toJsonText(body)))).toEqual(['1', 'b', '__proto__']);
  });

  test('are shown with non-ASCII characters escaped and long strings shortened with their length', () => {
    const shown = showWire(wireObject({ a: '\u0430', emoji: '\u{1F4E6}', long: fillerText(8000) }));
    expect(shown).toContain('"\\u0430"');
    expect(shown).toContain('"\\ud83d\\udce6"');
    expect(shown).toContain('/* 8000 characters */');
    expect(shown).not.toMatch(/[^\x00-\x7e…]/);
  });

  test('filler text has the exact length asked for, in the Basic Multilingual Plane', () => {
    for (const length of [1, 99, 8000, 8001]) {
      const text = fillerText(length, 17);
      expect([...text].length).toBe(length);
      expect(text.length).toBe(length);
    }
  });
});

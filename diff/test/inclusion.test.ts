// Soundness of the inclusion check (inclusion.ts): whenever it says every value of one schema is a
// value of another, no value ajv accepts under the first may be refused under the second. Schemas
// are generated small (types, bounds, enums, properties, unions, negation); values are the witness
// search's own candidates for the pair, at and past every bound either schema sets, and fast-check's
// JSON values.
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { Json } from '../../spec/index.ts';
import { canonicalForm } from '../canonical.ts';
import { includes } from '../inclusion.ts';
import { leafCandidates } from '../witness.ts';

const ajv = new Ajv2020({ strict: false, validateSchema: false, logger: false });

const bound = fc.integer({ min: 0, max: 6 });
const leaf: fc.Arbitrary<Record<string, Json>> = fc.oneof(
  fc.record({ type: fc.constantFrom('string', 'integer', 'number', 'boolean', 'null') }, { requiredKeys: [] }),
  fc.record({ type: fc.constant('string'), minLength: bound, maxLength: bound }, { requiredKeys: ['type'] }),
  fc.record(
    { type: fc.constantFrom('integer', 'number'), minimum: bound, maximum: bound, exclusiveMaximum: bound, multipleOf: fc.constantFrom(1, 2, 3) },
    { requiredKeys: ['type'] },
  ),
  fc.record({ enum: fc.uniqueArray(fc.constantFrom<Json>('a', 'b', 1, 2, null, true), { minLength: 1, maxLength: 3 }) }),
  fc.record({ type: fc.constant('string'), pattern: fc.constantFrom('^a', 'b$', '^[ab]+$', 'a|b') }, { requiredKeys: ['type'] }),
);
const schema: fc.Arbitrary<Record<string, Json>> = fc.letrec<{ node: Record<string, Json> }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record(
      {
        type: fc.constant('object'),
        properties: fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('node'), { maxKeys: 2 }),
        required: fc.uniqueArray(fc.constantFrom('a', 'b'), { maxLength: 2 }),
        additionalProperties: fc.oneof(fc.constant(false), tie('node')),
        maxProperties: bound,
      },
      { requiredKeys: ['type'] },
    ),
    fc.record({ type: fc.constant('array'), items: tie('node'), minItems: bound, maxItems: bound, uniqueItems: fc.boolean() }, { requiredKeys: ['type'] }),
    fc.record({ anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ oneOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ allOf: fc.array(tie('node'), { minLength: 1, maxLength: 2 }) }),
    fc.record({ not: tie('node') }),
  ),
})).node;

/** The schema with its `which`-th number moved by `delta`, or its `which`-th keyword dropped: a near neighbour, wider or narrower. */
function nudged(node: Json, which: number, delta: number): Json {
  let seen = 0;
  const walk = (value: Json): Json => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, Json> = {};
    for (const [key, child] of Object.entries(value)) {
      const here = seen++;
      if (here === which && delta === 0) continue;
      out[key] = here === which && typeof child === 'number' ? Math.max(0, child + delta) : key === 'enum' ? child : walk(child);
    }
    return out;
  };
  return walk(node);
}

/** Pairs where one is often a near neighbour of the other, or a narrowed copy: the interesting cases. */
const pair = fc.oneof(
  fc.tuple(schema, schema).map(([a, b]): [Json, Json] => [a, b]),
  fc.tuple(schema, leaf).map(([outer, extra]): [Json, Json] => [outer, { allOf: [outer, extra] }]),
  fc.tuple(schema, fc.nat({ max: 12 }), fc.integer({ min: -2, max: 2 })).map(([outer, which, delta]): [Json, Json] => [outer, nudged(outer, which, delta)]),
  fc.tuple(schema, fc.nat({ max: 12 }), fc.integer({ min: -2, max: 2 })).map(([inner, which, delta]): [Json, Json] => [nudged(inner, which, delta), inner]),
);

const form = (node: Json) => canonicalForm({ openapi: '3.1.0', paths: {} }, { node, pointer: `/${JSON.stringify(node)}` });

test('when inclusion is claimed, no value the inner schema admits is refused by the outer one', () => {
  let claimed = 0;
  fc.assert(
    fc.property(pair, fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 8 }), ([outer, inner], values) => {
      const outerForm = form(outer);
      const innerForm = form(inner);
      if (!includes(outerForm, innerForm)) return;
      claimed += 1;
      const validInner = ajv.compile(inner as object);
      const validOuter = ajv.compile(outer as object);
      for (const value of [...leafCandidates(innerForm, outerForm), ...(values as Json[])]) {
        if (validInner(value))
          expect(validOuter(value), `${JSON.stringify(value)} is valid under ${JSON.stringify(inner)} but not ${JSON.stringify(outer)}`).toBe(true);
      }
    }),
    { numRuns: 600, seed: 4242 },
  );
  // The property must be exercised: a check that never claims inclusion proves nothing.
  expect(claimed).toBeGreaterThan(100);
});

/** [keyword, outer, inner that it includes, inner that it does not]: each keyword proved both ways. */
const KEYWORD_CASES: Array<[string, Json, Json, Json]> = [
  ['type', { type: ['number'] }, { type: 'integer' }, { type: 'string' }],
  ['enum', { enum: ['a', 'b'] }, { enum: ['a'] }, { enum: ['a', 'c'] }],
  ['maxLength', { type: 'string', maxLength: 5 }, { type: 'string', maxLength: 3 }, { type: 'string', maxLength: 6 }],
  ['minLength', { type: 'string', minLength: 2 }, { type: 'string', minLength: 3 }, { type: 'string', minLength: 1 }],
  ['maximum', { type: 'integer', maximum: 3 }, { type: 'integer', maximum: 2 }, { type: 'integer', maximum: 5 }],
  ['minimum', { type: 'integer', minimum: 3 }, { type: 'integer', minimum: 4 }, { type: 'integer', minimum: 1 }],
  ['exclusiveMaximum', { type: 'number', exclusiveMaximum: 3 }, { type: 'number', maximum: 2 }, { type: 'number', maximum: 3 }],
  ['exclusiveMinimum', { type: 'number', exclusiveMinimum: 3 }, { type: 'number', minimum: 4 }, { type: 'number', minimum: 3 }],
  ['multipleOf', { type: 'integer', multipleOf: 2 }, { type: 'integer', multipleOf: 4 }, { type: 'integer', multipleOf: 3 }],
  ['pattern', { type: 'string', pattern: '^a' }, { type: 'string', pattern: '^ab' }, { type: 'string', pattern: '^b' }],
  ['format', { type: 'string', format: 'date' }, { type: 'string', format: 'date' }, { type: 'string' }],
  ['maxItems', { type: 'array', maxItems: 3 }, { type: 'array', maxItems: 2 }, { type: 'array' }],
  ['minItems', { type: 'array', minItems: 2 }, { type: 'array', minItems: 2 }, { type: 'array', minItems: 1 }],
  ['uniqueItems', { type: 'array', uniqueItems: true }, { type: 'array', uniqueItems: true }, { type: 'array' }],
  ['items', { type: 'array', items: { type: 'number' } }, { type: 'array', items: { type: 'integer' } }, { type: 'array', items: { type: 'string' } }],
  ['required', { type: 'object', required: ['a'] }, { type: 'object', required: ['a', 'b'] }, { type: 'object', required: ['b'] }],
  [
    'properties',
    { type: 'object', properties: { a: { type: 'string', maxLength: 3 } } },
    { type: 'object', properties: { a: { type: 'string', maxLength: 2 } } },
    { type: 'object', properties: { a: { type: 'string' } } },
  ],
  [
    'additionalProperties',
    { type: 'object', additionalProperties: false, properties: { a: {} } },
    { type: 'object', additionalProperties: false, properties: { a: { type: 'string' } } },
    { type: 'object', properties: { a: {} } },
  ],
  [
    'maxProperties (a closed object)',
    { type: 'object', maxProperties: 1 },
    { type: 'object', additionalProperties: false, properties: { a: {} } },
    { type: 'object', additionalProperties: false, properties: { a: {}, b: {} } },
  ],
  ['minProperties (required names)', { type: 'object', minProperties: 1 }, { type: 'object', required: ['a'] }, { type: 'object' }],
  ['propertyNames', { type: 'object', propertyNames: { maxLength: 3 } }, { type: 'object', propertyNames: { maxLength: 2 } }, { type: 'object' }],
  ['dependentRequired', { type: 'object', dependentRequired: { a: ['b'] } }, { type: 'object', required: ['b'] }, { type: 'object' }],
  ['not', { not: { enum: ['x'] } }, { not: { type: 'string' } }, { type: 'string' }],
  ['anyOf (outer)', { anyOf: [{ type: 'string' }, { type: 'integer' }] }, { type: 'integer', maximum: 3 }, { type: 'boolean' }],
  ['anyOf (inner)', { type: ['string', 'integer'] }, { anyOf: [{ type: 'string' }, { type: 'integer' }] }, { anyOf: [{ type: 'string' }, { type: 'null' }] }],
  ['allOf (outer)', { allOf: [{ type: 'string' }, { maxLength: 3 }] }, { type: 'string', maxLength: 2 }, { type: 'string', maxLength: 4 }],
  [
    'discriminator (outer: must match)',
    { type: 'object', discriminator: { propertyName: 'k' } },
    { type: 'object', discriminator: { propertyName: 'k' } },
    { type: 'object' },
  ],
  ['nullable (OpenAPI 3.0, widens)', { type: 'string' }, { type: 'string', maxLength: 2 }, { type: 'string', nullable: true }],
];

test.each(KEYWORD_CASES)('%s: proved for a narrower schema, not for a wider or different one', (_keyword, outer, narrower, wider) => {
  expect(includes(form(outer), form(narrower))).toBe(true);
  expect(includes(form(outer), form(wider))).toBe(false);
});

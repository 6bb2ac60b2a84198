// One pair of documents per keyword of the keyword table (keywords.ts), each judged on the
// request side and on the response side: the probe schema `base`, then `narrower`, which admits
// fewer values and differs from it in that keyword only. Forward the change narrows (breaking
// for requests), reversed it widens (breaking for responses). `{side}` in a rule id stands for
// request or response.
import { probe, type CorpusCase } from './case.ts';

export interface KeywordCase {
  keyword: string;
  base: object;
  narrower: object;
  /** Rule reported when `base` becomes `narrower`. */
  narrowed: string;
  /** Rule reported when `narrower` becomes `base`. */
  widened: string;
  /** The documents are OpenAPI 3.0 (for 3.0-only keywords such as nullable). */
  openapi30?: boolean;
}

const TUPLE = [{ type: 'string' }];
const VARIANTS = [{ maxLength: 3 }, { minLength: 10 }];

export const KEYWORD_CASES: readonly KeywordCase[] = [
  { keyword: 'type', base: { type: ['string', 'integer'] }, narrower: { type: 'string' }, narrowed: '{side}-type-narrowed', widened: '{side}-type-widened' },
  {
    keyword: 'enum',
    base: { type: 'string', enum: ['a', 'b'] },
    narrower: { type: 'string', enum: ['a'] },
    narrowed: '{side}-enum-value-removed',
    widened: '{side}-enum-value-added',
  },
  { keyword: 'const', base: { type: 'string' }, narrower: { type: 'string', const: 'a' }, narrowed: '{side}-enum-added', widened: '{side}-enum-removed' },
  {
    keyword: 'multipleOf',
    base: { type: 'number', multipleOf: 2 },
    narrower: { type: 'number', multipleOf: 4 },
    narrowed: '{side}-multiple-of-narrowed',
    widened: '{side}-multiple-of-widened',
  },
  {
    keyword: 'pattern',
    base: { type: 'string', pattern: '^[a-z]{2,8}$' },
    narrower: { type: 'string', pattern: '^[a-z]{4,8}$' },
    narrowed: '{side}-pattern-narrowed',
    widened: '{side}-pattern-widened',
  },
  {
    keyword: 'uniqueItems',
    base: { type: 'array' },
    narrower: { type: 'array', uniqueItems: true },
    narrowed: '{side}-unique-items-added',
    widened: '{side}-unique-items-removed',
  },
  {
    keyword: 'required',
    base: { type: 'object', properties: { a: { type: 'string' } } },
    narrower: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
    narrowed: '{side}-property-became-required',
    widened: '{side}-property-became-optional',
  },
  {
    keyword: 'dependentRequired',
    base: { type: 'object' },
    narrower: { type: 'object', dependentRequired: { a: ['b'] } },
    narrowed: '{side}-dependent-required-added',
    widened: '{side}-dependent-required-removed',
  },
  {
    keyword: 'prefixItems',
    base: { type: 'array', prefixItems: TUPLE },
    narrower: { type: 'array', prefixItems: [...TUPLE, { type: 'integer' }] },
    narrowed: '{side}-type-narrowed',
    widened: '{side}-type-widened',
  },
  {
    keyword: 'items',
    base: { type: 'array' },
    narrower: { type: 'array', items: { type: 'string' } },
    narrowed: '{side}-type-narrowed',
    widened: '{side}-type-widened',
  },
  {
    keyword: 'contains',
    base: { type: 'array' },
    narrower: { type: 'array', contains: { type: 'string' } },
    narrowed: '{side}-contains-added',
    widened: '{side}-contains-removed',
  },
  {
    keyword: 'additionalProperties',
    base: { type: 'object' },
    narrower: { type: 'object', additionalProperties: { type: 'string' } },
    narrowed: '{side}-type-narrowed',
    widened: '{side}-type-widened',
  },
  {
    keyword: 'unevaluatedProperties',
    base: { type: 'object' },
    narrower: { type: 'object', unevaluatedProperties: { type: 'string' } },
    narrowed: '{side}-type-narrowed',
    widened: '{side}-type-widened',
  },
  {
    keyword: 'unevaluatedItems',
    base: { type: 'array' },
    narrower: { type: 'array', unevaluatedItems: { type: 'string' } },
    narrowed: '{side}-type-narrowed',
    widened: '{side}-type-widened',
  },
  {
    keyword: 'properties',
    base: { type: 'object', properties: { a: { type: ['string', 'integer'] } } },
    narrower: { type: 'object', properties: { a: { type: 'string' } } },
    narrowed: '{side}-type-narrowed',
    widened: '{side}-type-widened',
  },
  {
    keyword: 'patternProperties',
    base: { type: 'object' },
    narrower: { type: 'object', patternProperties: { '^x_': { type: 'string' } } },
    narrowed: '{side}-type-narrowed',
    widened: '{side}-type-widened',
  },
  {
    keyword: 'dependentSchemas',
    base: { type: 'object' },
    narrower: { type: 'object', dependentSchemas: { a: { minProperties: 2 } } },
    narrowed: '{side}-min-properties-increased',
    widened: '{side}-min-properties-decreased',
  },
  {
    keyword: 'propertyNames',
    base: { type: 'object' },
    narrower: { type: 'object', propertyNames: { pattern: '^[a-z]+$' } },
    narrowed: '{side}-pattern-added',
    widened: '{side}-pattern-removed',
  },
  {
    keyword: 'if',
    base: { type: 'object' },
    // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword, not a thenable.
    narrower: { type: 'object', if: { required: ['a'] }, then: { required: ['b'] } },
    narrowed: '{side}-condition-changed',
    widened: '{side}-condition-changed',
  },
  {
    keyword: 'then',
    base: { type: 'object', if: { required: ['a'] } },
    // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword, not a thenable.
    narrower: { type: 'object', if: { required: ['a'] }, then: { minProperties: 3 } },
    narrowed: '{side}-min-properties-increased',
    widened: '{side}-min-properties-decreased',
  },
  {
    keyword: 'else',
    base: { type: 'object', if: { required: ['a'] } },
    narrower: { type: 'object', if: { required: ['a'] }, else: { minProperties: 3 } },
    narrowed: '{side}-min-properties-increased',
    widened: '{side}-min-properties-decreased',
  },
  {
    keyword: 'allOf',
    base: { allOf: [{ type: 'string' }] },
    narrower: { allOf: [{ type: 'string' }, { maxLength: 5 }] },
    narrowed: '{side}-all-of-member-added',
    widened: '{side}-all-of-member-removed',
  },
  {
    keyword: 'anyOf',
    base: { anyOf: VARIANTS },
    narrower: { anyOf: VARIANTS.slice(0, 1) },
    narrowed: '{side}-variant-removed',
    widened: '{side}-variant-added',
  },
  {
    keyword: 'oneOf',
    base: { oneOf: VARIANTS },
    narrower: { oneOf: VARIANTS.slice(0, 1) },
    narrowed: '{side}-variant-removed',
    widened: '{side}-variant-added',
  },
  {
    keyword: 'not',
    base: { type: 'string' },
    narrower: { type: 'string', not: { const: 'x' } },
    narrowed: '{side}-negation-added',
    widened: '{side}-negation-removed',
  },
  {
    keyword: 'format',
    base: { type: 'string' },
    narrower: { type: 'string', format: 'date' },
    narrowed: '{side}-format-changed',
    widened: '{side}-format-removed',
  },
  {
    keyword: 'readOnly',
    base: { type: 'string' },
    narrower: { type: 'string', readOnly: true },
    narrowed: '{side}-read-only-added',
    widened: '{side}-read-only-removed',
  },
  {
    keyword: 'writeOnly',
    base: { type: 'string' },
    narrower: { type: 'string', writeOnly: true },
    narrowed: '{side}-write-only-added',
    widened: '{side}-write-only-removed',
  },
  {
    keyword: 'nullable',
    base: { type: 'string', nullable: true },
    narrower: { type: 'string' },
    narrowed: '{side}-property-became-non-nullable',
    widened: '{side}-property-became-nullable',
    openapi30: true,
  },
  {
    keyword: 'exclusiveMaximum',
    base: { type: 'number', maximum: 10 },
    narrower: { type: 'number', maximum: 10, exclusiveMaximum: true },
    narrowed: '{side}-exclusive-maximum-decreased',
    widened: '{side}-exclusive-maximum-increased',
    openapi30: true,
  },
  {
    keyword: 'discriminator',
    base: {
      oneOf: [{ $ref: '#/components/schemas/TextPart' }],
      discriminator: { propertyName: 'type', mapping: { text: '#/components/schemas/TextPart', plain: '#/components/schemas/TextPart' } },
    },
    narrower: {
      oneOf: [{ $ref: '#/components/schemas/TextPart' }],
      discriminator: { propertyName: 'type', mapping: { text: '#/components/schemas/TextPart' } },
    },
    narrowed: 'discriminator-mapping-changed',
    widened: '{side}-discriminator-value-added',
  },
  {
    keyword: 'contentMediaType',
    base: { type: 'string' },
    narrower: { type: 'string', contentMediaType: 'text/plain' },
    narrowed: '{side}-keyword-changed',
    widened: '{side}-keyword-changed',
  },
];

export const keywordCases: CorpusCase[] = KEYWORD_CASES.flatMap((k) =>
  (['request', 'response'] as const).map((side) => ({
    name: `${side} ${k.keyword} narrowed${k.openapi30 ? ' (OpenAPI 3.0)' : ''}`,
    prepare: (doc: any) => {
      if (k.openapi30) doc.openapi = '3.0.3';
      probe(doc, side, structuredClone(k.base));
    },
    change: (doc: any) => probe(doc, side, structuredClone(k.narrower)),
    forward: [k.narrowed.replace('{side}', side)],
    reverse: [k.widened.replace('{side}', side)],
  })),
);

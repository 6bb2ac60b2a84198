// Schema cases: values, bounds, patterns, properties, composition, on each side of the wire.
import { probe, probeOf, type CorpusCase } from './case.ts';

export const BOUNDS: Array<{ keyword: string; stem: string; kind: 'max' | 'min'; type: string }> = [
  { keyword: 'maxLength', stem: 'max-length', kind: 'max', type: 'string' },
  { keyword: 'minLength', stem: 'min-length', kind: 'min', type: 'string' },
  { keyword: 'maximum', stem: 'maximum', kind: 'max', type: 'number' },
  { keyword: 'minimum', stem: 'minimum', kind: 'min', type: 'number' },
  { keyword: 'exclusiveMaximum', stem: 'exclusive-maximum', kind: 'max', type: 'number' },
  { keyword: 'exclusiveMinimum', stem: 'exclusive-minimum', kind: 'min', type: 'number' },
  { keyword: 'maxItems', stem: 'max-items', kind: 'max', type: 'array' },
  { keyword: 'minItems', stem: 'min-items', kind: 'min', type: 'array' },
  { keyword: 'maxProperties', stem: 'max-properties', kind: 'max', type: 'object' },
  { keyword: 'minProperties', stem: 'min-properties', kind: 'min', type: 'object' },
  { keyword: 'maxContains', stem: 'max-contains', kind: 'max', type: 'array' },
  { keyword: 'minContains', stem: 'min-contains', kind: 'min', type: 'array' },
];

/** One case per bound and side: the bound narrowed (max 10 -> 5, min 1 -> 3), then widened back. */
const boundCases: CorpusCase[] = BOUNDS.flatMap((bound) =>
  (['request', 'response'] as const).map((side) => {
    const narrowWord = bound.kind === 'max' ? 'decreased' : 'increased';
    const widenWord = bound.kind === 'max' ? 'increased' : 'decreased';
    return {
      name: `${side} ${bound.keyword} narrowed`,
      prepare: (doc: any) => probe(doc, side, { type: bound.type, [bound.keyword]: bound.kind === 'max' ? 10 : 1 }),
      change: (doc: any) => (probeOf(doc, side)[bound.keyword] = bound.kind === 'max' ? 5 : 3),
      forward: [`${side}-${bound.stem}-${narrowWord}`],
      reverse: [`${side}-${bound.stem}-${widenWord}`],
    };
  }),
);

const bothSides = (make: (side: 'request' | 'response') => CorpusCase): CorpusCase[] => [make('request'), make('response')];

export const schemaCases: CorpusCase[] = [
  ...boundCases,
  {
    name: 'real spec: text part maxLength 8000 -> 4000 (request), and added as a bound where there was none',
    change: (doc) => {
      doc.components.schemas.TextPart.properties.text.maxLength = 4000;
      doc.components.schemas.ChoiceQuestion.maxProperties = 2;
    },
    forward: ['request-max-length-decreased', 'request-max-properties-decreased'],
    reverse: ['request-max-length-increased', 'request-max-properties-increased'],
  },
  {
    name: 'real spec: confidence maximum widened on a response (1 -> 2)',
    change: (doc) => (doc.components.schemas.ChoiceAnswer.properties.confidence.maximum = 2),
    forward: ['response-maximum-increased'],
    reverse: ['response-maximum-decreased'],
  },
  {
    name: 'real spec: a dependentSchemas entry limits questions whenever context is present (a narrowing through a conditional applicator)',
    change: (doc) => (doc.components.schemas.DecideRequest.dependentSchemas = { context: { properties: { questions: { maxProperties: 2 } } } }),
    forward: ['request-max-properties-decreased', 'request-property-added'],
    // Removed, the entry's property is judged as removed (breaking on both sides, as any removal).
    reverse: ['request-property-removed'],
  },
  ...bothSides((side) => ({
    name: `${side}: a constrained property added to an open object narrows what any value of that name could be`,
    prepare: (doc) => probe(doc, side, { type: 'object' }),
    change: (doc) => (probeOf(doc, side).properties = { limit: { type: 'integer', maximum: 10 } }),
    forward: [`${side}-property-added`, `${side}-type-narrowed`, `${side}-maximum-decreased`],
    reverse: [`${side}-property-removed`],
  })),
  {
    name: 'real spec: unevaluatedProperties: false added to an object additionalProperties: false already closes (no change)',
    change: (doc) => (doc.components.schemas.DecideRequest.unevaluatedProperties = false),
    forward: [],
    reverse: [],
  },
  {
    name: 'real spec: additionalProperties: false swapped for unevaluatedProperties: false on an object with no applicator in place (no change)',
    change: (doc) => {
      delete doc.components.schemas.DecideRequest.additionalProperties;
      doc.components.schemas.DecideRequest.unevaluatedProperties = false;
    },
    forward: [],
    reverse: [],
  },
  {
    name: 'real spec: the Question union written as anyOf instead of oneOf; its branches are disjoint by their type const (the same set)',
    change: (doc) => {
      doc.components.schemas.Question.anyOf = doc.components.schemas.Question.oneOf;
      delete doc.components.schemas.Question.oneOf;
    },
    forward: [],
    reverse: [],
  },
  ...bothSides((side) => ({
    name: `${side} oneOf whose branches overlap written as anyOf: a value matching both was refused and is now admitted (still judged as a change)`,
    prepare: (doc) => probe(doc, side, { oneOf: [{ type: 'string' }, { type: 'string', maxLength: 3 }] }),
    change: (doc) => {
      probeOf(doc, side).anyOf = probeOf(doc, side).oneOf;
      delete probeOf(doc, side).oneOf;
    },
    forward: [`${side}-variant-removed`, `${side}-variant-added`],
    reverse: [`${side}-variant-removed`, `${side}-variant-added`],
  })),
  ...bothSides((side) => ({
    name: `${side} pattern added, then removed`,
    prepare: (doc) => probe(doc, side, { type: 'string' }),
    change: (doc) => (probeOf(doc, side).pattern = '^[a-z]+$'),
    forward: [`${side}-pattern-added`],
    reverse: [`${side}-pattern-removed`],
  })),
  ...bothSides((side) => ({
    name: `${side} pattern changed to one that admits other strings, neither set inside the other (letters -> digits)`,
    prepare: (doc) => probe(doc, side, { type: 'string', pattern: '^[a-z]+$' }),
    change: (doc) => (probeOf(doc, side).pattern = '^[0-9]+$'),
    forward: [`${side}-pattern-changed`],
    reverse: [`${side}-pattern-changed`],
  })),
  ...bothSides((side) => ({
    name: `${side} pattern changed in a way automata do not model here (a lookahead added): undecided`,
    prepare: (doc) => probe(doc, side, { type: 'string', pattern: '^[a-z0-9]+$' }),
    change: (doc) => (probeOf(doc, side).pattern = '^(?=.*[0-9])[a-z0-9]+$'),
    forward: [`${side}-pattern-undecided`],
    reverse: [`${side}-pattern-undecided`],
  })),
  ...bothSides((side) => ({
    name: `${side} pattern widened in another shape (a prefix alternative: ^asset_ -> ^(asset|file)_)`,
    prepare: (doc) => probe(doc, side, { type: 'string', pattern: '^asset_[A-Za-z0-9_-]{8,64}$' }),
    change: (doc) => (probeOf(doc, side).pattern = '^(asset|file)_[A-Za-z0-9_-]{8,64}$'),
    forward: [`${side}-pattern-widened`],
    reverse: [`${side}-pattern-narrowed`],
  })),
  ...bothSides((side) => ({
    name: `${side} pattern narrowed by a quantifier (+ -> {2,})`,
    prepare: (doc) => probe(doc, side, { type: 'string', pattern: '^[a-z]+$' }),
    change: (doc) => (probeOf(doc, side).pattern = '^[a-z]{2,}$'),
    forward: [`${side}-pattern-narrowed`],
    reverse: [`${side}-pattern-widened`],
  })),
  ...bothSides((side) => ({
    name: `${side} pattern rewritten with the same strings ([0-9] -> \\d)`,
    prepare: (doc) => probe(doc, side, { type: 'string', pattern: '^[0-9]+$' }),
    change: (doc) => (probeOf(doc, side).pattern = '^\\d+$'),
    forward: [`${side}-pattern-rewritten`],
    reverse: [`${side}-pattern-rewritten`],
  })),
  {
    name: 'real spec: a media part asset_id pattern widened ({8,64} -> {4,64}), request only (ImagePart)',
    change: (doc) => {
      const assetId = doc.components.schemas.AssetId;
      doc.components.schemas.ImagePart.properties.asset_id = { ...structuredClone(assetId), pattern: '^asset_[A-Za-z0-9_-]{4,64}$' };
    },
    forward: ['request-pattern-widened'],
    reverse: ['request-pattern-narrowed'],
  },
  {
    name: 'real spec: the AssetId pattern widened ({8,64} -> {4,64}), which responses (Asset) also carry',
    change: (doc) => (doc.components.schemas.AssetId.pattern = '^asset_[A-Za-z0-9_-]{4,64}$'),
    forward: ['request-pattern-widened', 'response-pattern-widened'],
    reverse: ['request-pattern-narrowed', 'response-pattern-narrowed'],
  },
  {
    name: 'real spec: question ids restricted by propertyNames (Questions)',
    change: (doc) => (doc.components.schemas.Questions.propertyNames = { pattern: '^[a-z0-9_]{1,32}$' }),
    forward: ['request-pattern-added'],
    reverse: ['request-pattern-removed'],
  },
  {
    name: 'real spec: a new discriminator value for an existing content part (picture -> ImagePart)',
    change: (doc) => (doc.components.schemas.ContentPart.discriminator.mapping.picture = '#/components/schemas/ImagePart'),
    forward: ['request-discriminator-value-added'],
    reverse: ['discriminator-mapping-changed'],
  },
  ...bothSides((side) => ({
    name: `${side} type changed (string -> integer)`,
    prepare: (doc) => probe(doc, side, { type: 'string' }),
    change: (doc) => (probeOf(doc, side).type = 'integer'),
    forward: [`${side}-type-changed`],
    reverse: [`${side}-type-changed`],
  })),
  ...bothSides((side) => ({
    name: `${side} type widened (string -> string or integer)`,
    prepare: (doc) => probe(doc, side, { type: 'string' }),
    change: (doc) => (probeOf(doc, side).type = ['string', 'integer']),
    forward: [`${side}-type-widened`],
    reverse: [`${side}-type-narrowed`],
  })),
  ...bothSides((side) => ({
    name: `${side} value made nullable`,
    prepare: (doc) => probe(doc, side, { type: 'string' }),
    change: (doc) => (probeOf(doc, side).type = ['string', 'null']),
    forward: [`${side}-property-became-nullable`],
    reverse: [`${side}-property-became-non-nullable`],
  })),
  {
    name: 'real spec: choice answer no longer nullable (response)',
    change: (doc) => {
      doc.components.schemas.ChoiceAnswer.properties.choice.type = 'string';
    },
    forward: ['response-property-became-non-nullable'],
    reverse: ['response-property-became-nullable'],
  },
  ...bothSides((side) => ({
    name: `${side} enum value removed`,
    prepare: (doc) => probe(doc, side, { type: 'string', enum: ['low', 'high'] }),
    change: (doc) => (probeOf(doc, side).enum = ['low']),
    forward: [`${side}-enum-value-removed`],
    reverse: [`${side}-enum-value-added`],
  })),
  ...bothSides((side) => ({
    name: `${side} enum added where values were free`,
    prepare: (doc) => probe(doc, side, { type: 'string' }),
    change: (doc) => (probeOf(doc, side).enum = ['low', 'high']),
    forward: [`${side}-enum-added`],
    reverse: [`${side}-enum-removed`],
  })),
  ...bothSides((side) => ({
    name: `${side} format added`,
    prepare: (doc) => probe(doc, side, { type: 'string' }),
    change: (doc) => (probeOf(doc, side).format = 'date-time'),
    forward: [`${side}-format-changed`],
    reverse: [`${side}-format-removed`],
  })),
  {
    name: 'real spec: a new error code widens the ErrorCode response enum',
    change: (doc) => {
      doc.components.schemas.ErrorCode.enum.push('ASSET_LOCKED');
      doc.components.schemas.ErrorCode['x-codes'].ASSET_LOCKED = { status: 423, condition: 'Asset is locked.' };
    },
    forward: ['response-enum-value-added', 'error-code-added'],
    reverse: ['response-enum-value-removed', 'error-code-removed'],
  },
  {
    name: 'real spec: const of the choice answer type changed (response)',
    change: (doc) => (doc.components.schemas.ChoiceAnswer.properties.type.const = 'pick'),
    forward: ['response-enum-value-added', 'response-enum-value-removed'],
    reverse: ['response-enum-value-added', 'response-enum-value-removed'],
  },
  // Properties: FeedbackRequest is request-only, Feedback response-only.
  {
    name: 'request property removed (comment of FeedbackRequest)',
    change: (doc) => delete doc.components.schemas.FeedbackRequest.properties.comment,
    forward: ['request-property-removed'],
    reverse: ['request-property-added'],
  },
  {
    name: 'response property removed (comment of Feedback), optional property added back (9.3)',
    change: (doc) => delete doc.components.schemas.Feedback.properties.comment,
    forward: ['response-property-removed'],
    reverse: ['response-property-added'],
  },
  ...bothSides((side) => ({
    name: `${side} required property added`,
    change: (doc) => {
      const host = doc.components.schemas[side === 'request' ? 'FeedbackRequest' : 'Feedback'];
      host.properties.channel = { type: 'string' };
      host.required.push('channel');
    },
    forward: [`${side}-property-added-required`],
    reverse: [`${side}-property-removed`],
  })),
  {
    name: 'request property became required (comment of FeedbackRequest)',
    change: (doc) => doc.components.schemas.FeedbackRequest.required.push('comment'),
    forward: ['request-property-became-required'],
    reverse: ['request-property-became-optional'],
  },
  {
    name: 'response property made optional (created_at of Feedback)',
    change: (doc) => (doc.components.schemas.Feedback.required = doc.components.schemas.Feedback.required.filter((name: string) => name !== 'created_at')),
    forward: ['response-property-became-optional'],
    reverse: ['response-property-became-required'],
  },
  {
    name: 'request additionalProperties opened, then closed (FeedbackRequest)',
    change: (doc) => delete doc.components.schemas.FeedbackRequest.additionalProperties,
    forward: ['request-additional-properties-opened'],
    reverse: ['request-additional-properties-closed'],
  },
  {
    name: 'response additionalProperties closed, then opened (Feedback)',
    change: (doc) => (doc.components.schemas.Feedback.additionalProperties = false),
    forward: ['response-additional-properties-closed'],
    reverse: ['response-additional-properties-opened'],
  },
  // Composition and discriminators.
  {
    name: 'request oneOf variant removed with its discriminator mapping (audio parts)',
    change: (doc) => {
      const part = doc.components.schemas.ContentPart;
      part.oneOf = part.oneOf.filter((v: any) => v.$ref !== '#/components/schemas/AudioPart');
      delete part.discriminator.mapping.audio;
    },
    forward: ['request-variant-removed', 'discriminator-mapping-changed'],
    reverse: ['request-variant-added', 'discriminator-mapping-added'],
  },
  {
    name: 'response oneOf variant added (a new answer shape)',
    change: (doc) => {
      doc.components.schemas.RankAnswer = {
        type: 'object',
        required: ['type', 'ranking'],
        properties: { type: { const: 'rank' }, ranking: { type: 'array', items: { type: 'string' } } },
      };
      doc.components.schemas.Answer.oneOf.push({ $ref: '#/components/schemas/RankAnswer' });
      doc.components.schemas.Answer.discriminator.mapping.rank = '#/components/schemas/RankAnswer';
    },
    forward: ['response-variant-added', 'discriminator-mapping-added'],
    reverse: ['response-variant-removed', 'discriminator-mapping-changed'],
  },
  {
    name: 'discriminator property renamed (Question: type -> kind)',
    change: (doc) => (doc.components.schemas.Question.discriminator.propertyName = 'kind'),
    forward: ['discriminator-property-changed'],
    reverse: ['discriminator-property-changed'],
  },
  {
    name: 'discriminator mapping retargeted (audio -> DocumentPart)',
    change: (doc) => (doc.components.schemas.ContentPart.discriminator.mapping.audio = '#/components/schemas/DocumentPart'),
    forward: ['discriminator-mapping-changed'],
    reverse: ['discriminator-mapping-changed'],
  },
  {
    name: 'rename: a component renamed with the same content is no change to clients (TextPart -> PlainTextPart)',
    change: (doc) => {
      const schemas = doc.components.schemas;
      schemas.PlainTextPart = schemas.TextPart;
      delete schemas.TextPart;
      schemas.ContentPart.oneOf[0].$ref = '#/components/schemas/PlainTextPart';
      schemas.ContentPart.discriminator.mapping.text = '#/components/schemas/PlainTextPart';
    },
    forward: [],
    reverse: [],
  },
  ...bothSides((side) => ({
    name: `${side} allOf member added`,
    prepare: (doc) => probe(doc, side, { allOf: [{ type: 'string' }] }),
    change: (doc) => probeOf(doc, side).allOf.push({ maxLength: 5 }),
    forward: [`${side}-all-of-member-added`],
    reverse: [`${side}-all-of-member-removed`],
  })),
  ...bothSides((side) => ({
    name: `${side} "not" added`,
    prepare: (doc) => probe(doc, side, { type: 'string' }),
    change: (doc) => (probeOf(doc, side).not = { const: 'none' }),
    forward: [`${side}-negation-added`],
    reverse: [`${side}-negation-removed`],
  })),
  ...bothSides((side) => ({
    name: `${side} multipleOf changed to neither a multiple nor a divisor (2 -> 3)`,
    prepare: (doc) => probe(doc, side, { type: 'number', multipleOf: 2 }),
    change: (doc) => (probeOf(doc, side).multipleOf = 3),
    forward: [`${side}-multiple-of-changed`],
    reverse: [`${side}-multiple-of-changed`],
  })),
  ...bothSides((side) => ({
    name: `${side} patternProperties entry added beside additionalProperties`,
    prepare: (doc) => probe(doc, side, { type: 'object', additionalProperties: { type: 'string' } }),
    change: (doc) => (probeOf(doc, side).patternProperties = { '^x_': { type: 'integer' } }),
    forward: [`${side}-pattern-properties-changed`],
    reverse: [`${side}-pattern-properties-changed`],
  })),
  ...bothSides((side) => ({
    name: `${side} "not" changed`,
    prepare: (doc) => probe(doc, side, { type: 'string', not: { const: 'none' } }),
    change: (doc) => (probeOf(doc, side).not = { const: 'nothing' }),
    forward: [`${side}-negation-changed`],
    reverse: [`${side}-negation-changed`],
  })),
  ...bothSides((side) => ({
    name: `${side} "if" condition added`,
    prepare: (doc) => probe(doc, side, { type: 'object' }),
    // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword this case adds, not a thenable.
    change: (doc) => Object.assign(probeOf(doc, side), { if: { required: ['a'] }, then: { required: ['b'] } }),
    forward: [`${side}-condition-changed`],
    reverse: [`${side}-condition-changed`],
  })),
  {
    name: 'a change inside array items and prefixItems is walked (answers of a multi question)',
    change: (doc) => (doc.components.schemas.MultiAnswer.properties.selected.items.maxLength = 50),
    forward: ['response-max-length-decreased'],
    reverse: ['response-max-length-increased'],
  },
];

/** Changes that look like something but change nothing a client can see. */
export const noOpCases: CorpusCase[] = [
  {
    name: 'no-op: `type: object` above a oneOf of object variants narrows nothing (ContentPart, Question)',
    change: (doc) => {
      delete doc.components.schemas.ContentPart.type;
      delete doc.components.schemas.Question.type;
    },
    forward: [],
    reverse: [],
  },
  {
    name: 'no-op: descriptions and examples of a schema without hard rules',
    change: (doc) => {
      doc.components.schemas.Health.description = 'Alive.';
      doc.components.schemas.Health.examples = [{ status: 'ok' }, { status: 'ok' }];
    },
    forward: [],
    reverse: [],
  },
];

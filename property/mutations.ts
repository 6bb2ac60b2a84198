// Invalid decide requests, each made by breaking exactly one seed rule in a valid request. Every
// entry names the rule it breaks, the seed sections the rule comes from and what the seed says
// a server answers: the status and code read from the spec (errorCode(code).statedStatus), or
// only "a 4xx with the seed's error body" where the seed states no status or code. Where the
// outcome itself is an open point, the expectation holds only the seed's bounds on it (`bounds`):
// nothing a reference choice says ever decides this MUST verdict.
import fc from 'fast-check';
import type { Capability } from '../harness/check.ts';
import type { MediaPartType } from '../harness/requests.ts';
import { errorCode } from '../spec/index.ts';
import { referenceableIds, type AssetPool } from './arbitraries/asset-pool.ts';
import { questionsOf, questionType } from './arbitraries/decide-request.ts';
import { decideLimits, discriminatorMapping, propertyNames } from './arbitraries/limits.ts';
import { fillerText } from './arbitraries/text.ts';
import { escapedString, isWireObject, jsonBytes, showWire, toJsonText, WireObject, wireObject, type WireValue } from './arbitraries/wire.ts';

/** What the seed says a server answers to the mutated request. */
export interface MutationExpectation {
  /** The codes the error body may carry; undefined: the seed names no code, any code will do. */
  codes?: readonly string[];
  /**
   * 'stated': the status the seed states for the code that came back (a 4xx for a code the seed
   * names only). '4xx': the seed states no status; any 4xx in the seed's error body.
   * 'refused-or-answered': whether to refuse is itself open; a refusal is a 4xx in the seed's
   * error body, and an answer is judged as the answer to the request the body stands for.
   */
  status: 'stated' | '4xx' | 'refused-or-answered';
  /** The open points whose seed-stated bounds (x-seed-bounds) the expectation enforces, and no more. */
  bounds?: readonly string[];
}

/** Where and how a mutation breaks its rule: `pick` chooses a question or a part, `variant` one of the mutation's variants. */
export interface MutationDraw {
  pick: number;
  variant: WireValue;
}

/** What is sent: a wire body, or raw text (for bodies that are not JSON). */
export interface MutatedBody {
  body: WireValue | { raw: string };
  contentType: string;
  /** For 'refused-or-answered': the valid request a server that accepts the body answers. */
  answeredAs?: WireObject;
}

export interface DecideMutation {
  /** Stable name, e.g. too-many-questions. */
  name: string;
  seedSections: readonly string[];
  /** The seed rule the mutated request breaks, in the seed's words. */
  rule: string;
  expected: MutationExpectation;
  /** Capabilities the mutation needs the target to claim. */
  requires?: readonly Capability[];
  /** Part types whose pooled assets the mutation references. */
  needsAssets?: readonly MediaPartType[];
  /** The variants of the mutation (field names, wrong values, content types…); one is drawn per case. */
  variants?: readonly WireValue[];
  apply(base: WireObject, draw: MutationDraw, pool: AssetPool): MutatedBody;
}

const JSON_TYPE = 'application/json';
const INVALID_REQUEST: MutationExpectation = { codes: ['INVALID_REQUEST'], status: 'stated' };
/** Malformed options: INVALID_REQUEST (400), or INVALID_OPTIONS, a name-only code whose name fits (any 4xx). */
const INVALID_OPTIONS_OR_REQUEST: MutationExpectation = { codes: ['INVALID_REQUEST', 'INVALID_OPTIONS'], status: 'stated', bounds: ['name-only-statuses'] };
const json = (body: WireValue): MutatedBody => ({ body, contentType: JSON_TYPE });

/** The expectation in words, with statuses read from the spec, e.g. "status 400 with INVALID_REQUEST". */
export function describeExpectation(expected: MutationExpectation): string {
  const openPoint = expected.bounds ? ` (within open point ${expected.bounds.join(', ')})` : '';
  if (expected.status === 'refused-or-answered')
    return `a 4xx status with the seed's error body, or a 2xx answering the request as if sent as application/json; never a 5xx${openPoint}`;
  if (!expected.codes) return `a 4xx status with the seed's error body, never a 2xx or 5xx${openPoint}`;
  const parts = expected.codes.map((code) => {
    const stated = errorCode(code).statedStatus;
    return stated === null ? `${code} (a 4xx: its status is not stated)` : `status ${stated} with ${code}`;
  });
  return `${parts.join(', or ')}${openPoint}`;
}

// ---------------------------------------------------------------------------------------------
// Building blocks: each keeps the request valid while giving it what the mutation needs.

const PLAIN_QUESTIONS: Record<string, () => WireObject> = {
  choice: () => wireObject({ type: 'choice', options: wireObject({ billing: 'Payments and refunds', other: '' }) }),
  noul: () => wireObject({ type: 'noul', instructions: 'Does the customer ask for a refund?' }),
  multi: () => wireObject({ type: 'multi', options: wireObject({ refund: null, late_delivery: null }) }),
};

function questionsObject(base: WireObject): WireObject {
  const questions = base.get('questions');
  if (!isWireObject(questions)) throw new Error('A valid decide body has a questions object');
  return questions;
}

/** The base with a question of `type` (an existing one, or the picked question replaced by a plain one), and its id. */
function withQuestionOfType(base: WireObject, type: string, pick: number): { body: WireObject; id: string; question: WireObject } {
  const entries = questionsOf(base);
  const ofType = entries.filter(([, question]) => questionType(question) === type);
  if (ofType.length > 0) {
    const [id, question] = ofType[pick % ofType.length]!;
    return { body: base, id, question };
  }
  const [id] = entries[pick % entries.length]!;
  const question = PLAIN_QUESTIONS[type]!();
  return { body: base.with('questions', questionsObject(base).with(id, question)), id, question };
}

function withQuestionField(base: WireObject, type: string, pick: number, edit: (question: WireObject) => WireObject): WireObject {
  const { body, id, question } = withQuestionOfType(base, type, pick);
  return body.with('questions', questionsObject(body).with(id, edit(question)));
}

/** A fresh key not among `taken`, from a prefix. */
function freshKey(taken: readonly string[], prefix: string): string {
  let index = taken.length + 1;
  while (taken.includes(`${prefix}${index}`)) index += 1;
  return `${prefix}${index}`;
}

/** The context as a list of parts (a string context becomes one text part). */
function partsOf(base: WireObject): WireValue[] {
  const context = base.get('context');
  return Array.isArray(context) ? [...context] : [wireObject({ type: 'text', text: typeof context === 'string' ? context : 'Hello.' })];
}

function partType(part: WireValue): string | undefined {
  return isWireObject(part) && typeof part.get('type') === 'string' ? (part.get('type') as string) : undefined;
}

/** A new part of `type`: a text part, or a media part referencing a pooled asset (or none). */
function newPart(type: string, pool: AssetPool, pick: number): WireObject {
  if (type === 'text') return wireObject({ type: 'text', text: 'Please look at my order.' });
  const ids = referenceableIds(pool, type as MediaPartType);
  return wireObject({ type, asset_id: ids.length > 0 ? ids[pick % ids.length]! : 'asset_conformance0000' });
}

/**
 * The base with a list context holding a part of `type` (an existing one, or a new one put in
 * at the picked place, replacing a part when the list is full), and that part's index.
 */
function withPartOfType(base: WireObject, type: string, pick: number, pool: AssetPool): { parts: WireValue[]; index: number } {
  const parts = partsOf(base);
  const ofType = parts.map((part, index) => [part, index] as const).filter(([part]) => partType(part) === type);
  if (ofType.length > 0) return { parts, index: ofType[pick % ofType.length]![1] };
  const index = pick % (parts.length + (parts.length < decideLimits.parts.max ? 1 : 0));
  return { parts: withPartAt(parts, pick, newPart(type, pool, pick)), index };
}

/** The parts with `part` put in at the picked place, or replacing the picked part when the list is full. */
function withPartAt(parts: WireValue[], pick: number, part: WireValue): WireValue[] {
  const copy = [...parts];
  if (copy.length < decideLimits.parts.max) copy.splice(pick % (copy.length + 1), 0, part);
  else copy[pick % copy.length] = part;
  return copy;
}

function withPartField(base: WireObject, type: string, pick: number, pool: AssetPool, edit: (part: WireObject) => WireValue): WireObject {
  const { parts, index } = withPartOfType(base, type, pick, pool);
  parts[index] = edit(parts[index] as WireObject);
  return base.with('context', parts);
}

/** Media part types with a pooled asset, the picked one first. */
function mediaTypeWithAssets(pool: AssetPool, pick: number): MediaPartType {
  const types = (['image', 'document', 'audio'] as const).filter((type) => referenceableIds(pool, type).length > 0);
  if (types.length === 0) throw new Error('A mutation that needs a pooled asset ran without one');
  return types[pick % types.length]!;
}

/** Field names no schema declares: invented, look-alikes and case variants of real ones, "__proto__". */
const UNKNOWN_FIELD_NAMES: readonly string[] = ['priority', 'weight', 'metadata', 'lang', '__proto__', 'Type', 't\u0443pe', 'Options', 'context ', 'question'];

function unknownFieldsOf(schemaName: string): string[] {
  const known = new Set(propertyNames(schemaName));
  return UNKNOWN_FIELD_NAMES.filter((name) => !known.has(name));
}

const SCHEMA_OF_TAG = { question: discriminatorMapping('Question'), part: discriminatorMapping('ContentPart') };

function unknownFieldInQuestion(type: 'choice' | 'noul' | 'multi'): DecideMutation {
  return {
    name: `unknown-field-${type}-question`,
    seedSections: ['2.3', '4.1', '7'],
    rule: `A ${type} question has only the fields of seed 2.3; unknown fields are rejected with 400 INVALID_REQUEST`,
    expected: INVALID_REQUEST,
    ...(type === 'choice' ? {} : { requires: [type] }),
    variants: unknownFieldsOf(SCHEMA_OF_TAG.question[type]!),
    apply: (base, { pick, variant }) => json(withQuestionField(base, type, pick, (question) => question.with(String(variant), true))),
  };
}

function unknownFieldInPart(type: 'text' | MediaPartType): DecideMutation {
  return {
    name: `unknown-field-${type}-part`,
    seedSections: ['2.2', '7'],
    rule: `A ${type} part has no other fields than those of seed 2.2; unknown fields are rejected with 400 INVALID_REQUEST`,
    expected: INVALID_REQUEST,
    requires: type === 'text' ? ['multimodal'] : ['multimodal', 'assets'],
    ...(type === 'text' ? {} : { needsAssets: [type] }),
    variants: unknownFieldsOf(SCHEMA_OF_TAG.part[type]!),
    apply: (base, { pick, variant }, pool) => json(withPartField(base, type, pick, pool, (part) => part.with(String(variant), 'en'))),
  };
}

function overMediaLimit(type: MediaPartType): DecideMutation {
  const { max, code } = decideLimits.media[type];
  return {
    name: `too-many-${type}-parts`,
    seedSections: ['7', '8'],
    rule: `At most ${max} ${type} part${max === 1 ? '' : 's'} per request; seed 7 names ${code} for it, but its condition is open, so INVALID_REQUEST (an invalid request) is as right`,
    expected: { codes: [code, 'INVALID_REQUEST'], status: 'stated', bounds: ['name-only-statuses'] },
    requires: ['multimodal', 'assets'],
    needsAssets: [type],
    apply: (base, { pick }, pool) => {
      const ids = referenceableIds(pool, type);
      const media = Array.from({ length: max + 1 }, (_, index) =>
        wireObject({ type, id: `${type}-${index + 1}`, asset_id: ids[(pick + index) % ids.length]! }),
      );
      const others = partsOf(base)
        .filter((part) => partType(part) !== type)
        .slice(0, decideLimits.parts.max - media.length);
      return json(base.with('context', [...others, ...media]));
    },
  };
}

/** The base grown to exactly bodyBytes + 1 bytes by lengthening a choice option's description. */
function overBodyLimit(base: WireObject, pick: number): WireObject {
  const { body, id, question } = withQuestionOfType(base, 'choice', pick);
  const options = question.get('options') as WireObject;
  const [optionId, description] = options.entries[0]!;
  // ASCII padding: one byte per character, so the size comes out exact.
  const grow = (padding: number) =>
    body.with(
      'questions',
      questionsObject(body).with(
        id,
        question.with('options', options.with(optionId, `${String(description)}${'refund '.repeat(Math.ceil(padding / 7)).slice(0, padding)}`)),
      ),
    );
  const missing = decideLimits.bodyBytes + 1 - jsonBytes(grow(0));
  return grow(Math.max(0, missing));
}

// ---------------------------------------------------------------------------------------------

const { contextCharacters, textPartCharacters, partIdCharacters, questions: questionLimits, parts: partLimits } = decideLimits;
const [videoType, video] = Object.entries(decideLimits.unsupportedPartTypes)[0]!;

export const decideMutations: readonly DecideMutation[] = [
  {
    name: 'unknown-field-top',
    seedSections: ['2.1', '4.1', '7'],
    rule: 'The body has only context and questions; unknown fields are rejected with 400 INVALID_REQUEST',
    expected: INVALID_REQUEST,
    variants: unknownFieldsOf('DecideRequest'),
    apply: (base, { variant }) => json(base.with(String(variant), 'high')),
  },
  unknownFieldInQuestion('choice'),
  unknownFieldInQuestion('noul'),
  unknownFieldInQuestion('multi'),
  unknownFieldInPart('text'),
  unknownFieldInPart('image'),
  unknownFieldInPart('document'),
  unknownFieldInPart('audio'),
  {
    name: 'url-field',
    seedSections: ['2.2', '7'],
    rule: 'There is no url field on a media part',
    expected: INVALID_REQUEST,
    requires: ['multimodal', 'assets'],
    needsAssets: ['image'],
    apply: (base, { pick }, pool) =>
      json(withPartField(base, mediaTypeWithAssets(pool, pick), pick, pool, (part) => part.with('url', 'https://example.org/receipt.png'))),
  },
  {
    name: 'inline-bytes-field',
    seedSections: ['2.2', '7'],
    rule: 'There are no inline file bytes on a media part',
    expected: INVALID_REQUEST,
    requires: ['multimodal', 'assets'],
    needsAssets: ['image'],
    apply: (base, { pick }, pool) =>
      json(
        withPartField(base, mediaTypeWithAssets(pool, pick), pick, pool, (part) =>
          part.with('data', 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg=='),
        ),
      ),
  },
  {
    name: 'too-many-questions',
    seedSections: ['2.1', '8'],
    rule: `${questionLimits.min} to ${questionLimits.max} questions; ${questionLimits.max + 1} are an invalid request`,
    expected: INVALID_REQUEST,
    apply: (base) => {
      const entries = [...questionsOf(base)];
      while (entries.length < questionLimits.max + 1)
        entries.push([
          freshKey(
            entries.map(([id]) => id),
            'extra_',
          ),
          PLAIN_QUESTIONS.choice!(),
        ]);
      return json(base.with('questions', new WireObject(entries)));
    },
  },
  {
    name: 'no-questions',
    seedSections: ['2.1', '8'],
    rule: `${questionLimits.min} to ${questionLimits.max} questions; none is an invalid request`,
    expected: INVALID_REQUEST,
    apply: (base) => json(base.with('questions', new WireObject([]))),
  },
  {
    name: 'context-too-long',
    seedSections: ['2.1', '8'],
    rule: `A string context has ${contextCharacters.min} to ${contextCharacters.max} characters`,
    expected: INVALID_REQUEST,
    apply: (base, { pick }) => json(base.with('context', fillerText(contextCharacters.max + 1, pick))),
  },
  {
    name: 'context-empty',
    seedSections: ['2.1', '8'],
    rule: `A string context has ${contextCharacters.min} to ${contextCharacters.max} characters`,
    expected: INVALID_REQUEST,
    apply: (base) => json(base.with('context', '')),
  },
  {
    name: 'text-part-too-long',
    seedSections: ['2.2', '8'],
    rule: `A text part has ${textPartCharacters.min} to ${textPartCharacters.max} characters`,
    expected: INVALID_REQUEST,
    requires: ['multimodal'],
    apply: (base, { pick }, pool) => json(withPartField(base, 'text', pick, pool, (part) => part.with('text', fillerText(textPartCharacters.max + 1, pick)))),
  },
  {
    name: 'text-part-empty',
    seedSections: ['2.2', '8'],
    rule: `A text part has ${textPartCharacters.min} to ${textPartCharacters.max} characters`,
    expected: INVALID_REQUEST,
    requires: ['multimodal'],
    apply: (base, { pick }, pool) => json(withPartField(base, 'text', pick, pool, (part) => part.with('text', ''))),
  },
  {
    name: 'too-many-parts',
    seedSections: ['2.1', '8'],
    rule: `A list context has ${partLimits.min} to ${partLimits.max} parts`,
    expected: INVALID_REQUEST,
    requires: ['multimodal'],
    apply: (base, _draw, pool) => {
      const parts = partsOf(base);
      while (parts.length < partLimits.max + 1) parts.push(newPart('text', pool, 0));
      return json(base.with('context', parts));
    },
  },
  {
    name: 'no-parts',
    seedSections: ['2.1', '8'],
    rule: `A list context has ${partLimits.min} to ${partLimits.max} parts`,
    expected: INVALID_REQUEST,
    requires: ['multimodal'],
    apply: (base) => json(base.with('context', [])),
  },
  {
    name: 'part-id-too-long',
    seedSections: ['2.2', '8'],
    rule: `A part id has up to ${partIdCharacters} characters`,
    expected: INVALID_REQUEST,
    requires: ['multimodal'],
    apply: (base, { pick }) => {
      const parts = partsOf(base);
      const index = pick % parts.length;
      parts[index] = (parts[index] as WireObject).with('id', 'part-'.padEnd(partIdCharacters + 1, 'x'));
      return json(base.with('context', parts));
    },
  },
  overMediaLimit('image'),
  overMediaLimit('document'),
  overMediaLimit('audio'),
  {
    name: 'body-over-256-kib',
    seedSections: ['4.1', '8'],
    rule: `The body is at most 256 KiB; this one is ${decideLimits.bodyBytes + 1} bytes (no status or code stated)`,
    expected: { status: '4xx' },
    apply: (base, { pick }) => json(overBodyLimit(base, pick)),
  },
  {
    name: `${videoType}-part`,
    seedSections: ['1', '2.2', '7'],
    rule: `A part of type ${videoType} is rejected with ${video.status} ${video.code}`,
    expected: { codes: [video.code], status: 'stated' },
    requires: ['multimodal'],
    apply: (base, { pick }, pool) => {
      // A real asset where there is one, so that nothing but the part type is wrong.
      const ids = referenceableIds(pool, 'image');
      return json(
        base.with(
          'context',
          withPartAt(
            partsOf(base),
            pick,
            wireObject({ type: videoType, id: 'clip', asset_id: ids[pick % Math.max(1, ids.length)] ?? 'asset_conformance0000' }),
          ),
        ),
      );
    },
  },
  {
    name: 'unknown-part-type',
    seedSections: ['2.2', '7'],
    rule: 'A part type is one of text, image, document and audio',
    expected: INVALID_REQUEST,
    requires: ['multimodal'],
    variants: ['html', 'Text', 'IMAGE', 't\u0435xt', 'file'],
    apply: (base, { pick, variant }) => {
      const parts = partsOf(base);
      parts[pick % parts.length] = wireObject({ type: variant, text: 'Invoice 1182: 42.00 EUR' });
      return json(base.with('context', parts));
    },
  },
  {
    name: 'unknown-question-type',
    seedSections: ['2.3', '7'],
    rule: 'A question type is one of choice, noul, score and multi',
    expected: INVALID_REQUEST,
    variants: ['rank', 'Choice', 'ch\u043eice', 'multiple', 'boolean'],
    apply: (base, { pick, variant }) => {
      const [id] = questionsOf(base)[pick % questionsOf(base).length]!;
      return json(base.with('questions', questionsObject(base).with(id, wireObject({ type: variant, options: wireObject({ billing: '', other: '' }) }))));
    },
  },
  {
    name: 'bad-asset-id-pattern',
    seedSections: ['2.2', '7'],
    rule: `asset_id matches ${decideLimits.assetIdPattern.source}`,
    expected: INVALID_REQUEST,
    requires: ['multimodal'],
    variants: ['asset_short', 'receipt.png', `asset_${'a'.repeat(65)}`, 'asset_has space!', 'ASSET_abcdefgh', 'asset_abcd\u00e9fgh', ''],
    apply: (base, { pick, variant }) => {
      const parts = partsOf(base);
      const type = (['image', 'document', 'audio'] as const)[pick % 3]!;
      parts[pick % parts.length] = wireObject({ type, asset_id: variant });
      return json(base.with('context', parts));
    },
  },
  {
    name: 'context-wrong-type',
    seedSections: ['2.1', '7'],
    rule: 'context is a string or an array of content parts',
    expected: INVALID_REQUEST,
    variants: [1182, true, null, wireObject({ text: 'I was charged twice.' })],
    apply: (base, { variant }) => json(base.with('context', variant)),
  },
  {
    name: 'questions-wrong-type',
    seedSections: ['2.1', '7'],
    rule: 'questions is an object of question id to question',
    expected: INVALID_REQUEST,
    variants: ['array', 'topic', null, 16],
    apply: (base, { variant }) => json(base.with('questions', variant === 'array' ? questionsOf(base).map(([, question]) => question) : variant)),
  },
  {
    name: 'question-wrong-type',
    seedSections: ['2.3', '7'],
    rule: 'Each value of questions is a question object',
    expected: INVALID_REQUEST,
    variants: ['choice', null, 1, 'array'],
    apply: (base, { pick, variant }) => {
      const [id, question] = questionsOf(base)[pick % questionsOf(base).length]!;
      return json(base.with('questions', questionsObject(base).with(id, variant === 'array' ? [question] : variant)));
    },
  },
  {
    name: 'options-wrong-type',
    seedSections: ['2.3', '7'],
    rule: 'options of a choice question is an object of option id to description',
    expected: INVALID_OPTIONS_OR_REQUEST,
    variants: ['billing, shipping', ['billing', 'shipping'], null, 2],
    apply: (base, { pick, variant }) => json(withQuestionField(base, 'choice', pick, (question) => question.with('options', variant))),
  },
  {
    name: 'option-description-wrong-type',
    seedSections: ['2.3', '7'],
    rule: 'A choice option maps to a description string',
    expected: INVALID_OPTIONS_OR_REQUEST,
    variants: [1, null, true, wireObject({ text: 'Payments' })],
    apply: (base, { pick, variant }) =>
      json(
        withQuestionField(base, 'choice', pick, (question) => {
          const options = question.get('options') as WireObject;
          return question.with('options', options.with(options.keys[pick % options.keys.length]!, variant));
        }),
      ),
  },
  {
    name: 'multi-option-not-null',
    seedSections: ['2.3', '7'],
    rule: 'A multi option maps to null',
    expected: INVALID_OPTIONS_OR_REQUEST,
    requires: ['multi'],
    variants: ['Refund requested', 1, false, wireObject({})],
    apply: (base, { pick, variant }) =>
      json(
        withQuestionField(base, 'multi', pick, (question) => {
          const options = question.get('options') as WireObject;
          return question.with('options', options.with(options.keys[pick % options.keys.length]!, variant));
        }),
      ),
  },
  {
    name: 'instructions-wrong-type',
    seedSections: ['2.3', '7'],
    rule: 'instructions of a noul question is a string',
    expected: INVALID_REQUEST,
    requires: ['noul'],
    variants: [1, true, ['Does the customer ask for a refund?']],
    apply: (base, { pick, variant }) => json(withQuestionField(base, 'noul', pick, (question) => question.with('instructions', variant))),
  },
  {
    name: 'text-wrong-type',
    seedSections: ['2.2', '7'],
    rule: 'text of a text part is a string',
    expected: INVALID_REQUEST,
    requires: ['multimodal'],
    variants: [1182, null, ['I was charged twice.'], true],
    apply: (base, { pick, variant }, pool) => json(withPartField(base, 'text', pick, pool, (part) => part.with('text', variant))),
  },
  {
    name: 'part-wrong-type',
    seedSections: ['2.1', '2.2', '7'],
    rule: 'Each item of a list context is a content part object',
    expected: INVALID_REQUEST,
    requires: ['multimodal'],
    variants: ['I was charged twice.', null, 1, ['text', 'I was charged twice.']],
    apply: (base, { pick, variant }) => {
      const parts = partsOf(base);
      parts[pick % parts.length] = variant;
      return json(base.with('context', parts));
    },
  },
  {
    name: 'missing-context',
    seedSections: ['2.1', '7'],
    rule: 'context is required',
    expected: INVALID_REQUEST,
    apply: (base) => json(base.without('context')),
  },
  {
    name: 'missing-questions',
    seedSections: ['2.1', '7'],
    rule: 'questions is required',
    expected: INVALID_REQUEST,
    apply: (base) => json(base.without('questions')),
  },
  {
    name: 'missing-question-type',
    seedSections: ['2.3', '7'],
    rule: 'Every question has a type',
    expected: INVALID_REQUEST,
    apply: (base, { pick }) => {
      const [id, question] = questionsOf(base)[pick % questionsOf(base).length]!;
      return json(base.with('questions', questionsObject(base).with(id, question.without('type'))));
    },
  },
  {
    name: 'missing-choice-options',
    seedSections: ['2.3', '7'],
    rule: 'A choice question has options',
    expected: INVALID_OPTIONS_OR_REQUEST,
    apply: (base, { pick }) => json(withQuestionField(base, 'choice', pick, (question) => question.without('options'))),
  },
  {
    name: 'missing-multi-options',
    seedSections: ['2.3', '7'],
    rule: 'A multi question has options',
    expected: INVALID_OPTIONS_OR_REQUEST,
    requires: ['multi'],
    apply: (base, { pick }) => json(withQuestionField(base, 'multi', pick, (question) => question.without('options'))),
  },
  {
    name: 'missing-part-type',
    seedSections: ['2.2', '7'],
    rule: 'Every part has a type',
    expected: INVALID_REQUEST,
    requires: ['multimodal'],
    apply: (base, { pick }) => {
      const parts = partsOf(base);
      const index = pick % parts.length;
      parts[index] = (parts[index] as WireObject).without('type');
      return json(base.with('context', parts));
    },
  },
  {
    name: 'missing-text',
    seedSections: ['2.2', '7'],
    rule: 'A text part has text',
    expected: INVALID_REQUEST,
    requires: ['multimodal'],
    apply: (base, { pick }, pool) => json(withPartField(base, 'text', pick, pool, (part) => part.without('text'))),
  },
  {
    name: 'missing-asset-id',
    seedSections: ['2.2', '7'],
    rule: 'An image, document or audio part has an asset_id',
    expected: INVALID_REQUEST,
    requires: ['multimodal'],
    apply: (base, { pick }) => {
      const parts = partsOf(base);
      parts[pick % parts.length] = wireObject({ type: (['image', 'document', 'audio'] as const)[pick % 3]!, id: 'attachment' });
      return json(base.with('context', parts));
    },
  },
  {
    name: 'body-not-object',
    seedSections: ['2.1', '4', '7'],
    rule: 'The body is a JSON object with context and questions',
    expected: INVALID_REQUEST,
    variants: ['array', 'string', 'null', 'number'],
    apply: (base, { variant }) => {
      const text = { array: `[${toJsonText(base)}]`, string: JSON.stringify(toJsonText(base)), null: 'null', number: '42' }[variant as 'array'];
      return { body: { raw: text }, contentType: JSON_TYPE };
    },
  },
  {
    name: 'malformed-json',
    seedSections: ['4', '4.1', '7'],
    rule: 'The body is JSON; a truncated body is an invalid request',
    expected: INVALID_REQUEST,
    apply: (base, { pick }) => {
      // Every proper prefix of the text of a JSON object is invalid JSON.
      const text = toJsonText(base);
      const characters = [...text];
      return { body: { raw: characters.slice(0, 1 + (pick % (characters.length - 1))).join('') }, contentType: JSON_TYPE };
    },
  },
  {
    name: 'wrong-content-type',
    seedSections: ['4', '7'],
    // The seed tells clients to send application/json and never says a server must refuse other
    // types (open point json-content-type): refusing and reading the JSON anyway are both allowed.
    rule: 'Send Content-Type: application/json; a valid body sent as another type is refused in the error body or answered as the valid request it is',
    expected: { status: 'refused-or-answered', bounds: ['json-content-type'] },
    variants: ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=decision', 'application/octet-stream'],
    apply: (base, { variant }) => ({ body: { raw: toJsonText(base) }, contentType: String(variant), answeredAs: base }),
  },
];

/** Draws where and how a mutation breaks its rule. */
export function mutationDraw(mutation: DecideMutation): fc.Arbitrary<MutationDraw> {
  const variant = mutation.variants && mutation.variants.length > 0 ? fc.constantFrom(...mutation.variants) : fc.constant(null);
  return fc.record({ pick: fc.nat({ max: 1000 }), variant });
}

/** The exact text a mutated body is sent as. */
export function mutatedText(mutated: MutatedBody): string {
  const { body } = mutated;
  return typeof body === 'object' && body !== null && !Array.isArray(body) && !(body instanceof WireObject) ? body.raw : toJsonText(body as WireValue);
}

/** A mutated body for a person: pretty JSON (unicode escaped), or the raw text as a string literal. */
export function showMutated(mutated: MutatedBody): string {
  const { body } = mutated;
  const shown =
    typeof body === 'object' && body !== null && !Array.isArray(body) && !(body instanceof WireObject)
      ? `raw text ${escapedString(body.raw.length > 400 ? `${body.raw.slice(0, 400)}…` : body.raw)}`
      : showWire(body as WireValue);
  return `${mutated.contentType === JSON_TYPE ? '' : `Content-Type: ${mutated.contentType}\n`}${shown}`;
}

/** Whether a mutation can run against a target with these capabilities and this pool. */
export function mutationApplies(mutation: DecideMutation, capabilities: ReadonlySet<Capability>, pool: AssetPool): boolean {
  return (
    (mutation.requires ?? []).every((capability) => capabilities.has(capability)) &&
    (mutation.needsAssets ?? []).every((type) => referenceableIds(pool, type).length > 0)
  );
}

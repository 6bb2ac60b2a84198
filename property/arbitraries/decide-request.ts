// Valid decide requests (seed 2.1 to 2.3, 8), generated from the spec's DecideRequest schema by
// the converter, with hooks where the seed's semantics matter:
// - question and option ids from unicode, spaces, emoji, Latin/Cyrillic look-alikes and
//   "__proto__" (or plain ids, for requests that must stay clear of the id-format open point);
// - empty option descriptions; texts at and near their length limits (from the schemas);
// - media parts reference assets really uploaded (the pool), within x-media-limits counts;
// - question types and list contexts only as far as the target claims them (capabilities);
// - open points avoided: choice and multi questions get at least one option, noul questions
//   always carry instructions;
// - the whole body within the seed's 256 KiB.
import fc from 'fast-check';
import { ALL_CAPABILITIES, type Capability } from '../../harness/check.ts';
import type { MediaPartType } from '../../harness/requests.ts';
import { assetIdFrom, type AssetPool } from './asset-pool.ts';
import { inBasicPlane, SchemaConverter, type SchemaHooks, type SchemaSite } from './from-schema.ts';
import { decideLimits, discriminatorMapping } from './limits.ts';
import { callerId, fillerText, freeText, idCharacter, plainId } from './text.ts';
import { isWireObject, jsonBytes, WireObject, type WireValue } from './wire.ts';

export interface DecideGeneration {
  capabilities: ReadonlySet<Capability>;
  /** Assets media parts may reference; media parts of a type with no asset are not generated. */
  pool: AssetPool;
  /** Plain ids only (lowercase letters, digits and _), for requests that must not touch the id-format open point. */
  plainIds?: boolean;
}

/**
 * Zero options is an open point (id-format-and-count): valid requests send at least one, the
 * fewest an options object can hold. Not read from the reference choice: this input decides MUST verdicts.
 */
const MIN_OPTIONS = 1;
/** How many options a question may get: past 8, where a server might cut a list short. */
export const MAX_GENERATED_OPTIONS = 20;
const MEDIA_TYPES: readonly MediaPartType[] = ['image', 'document', 'audio'];
/** Part schema name → part type, from ContentPart's discriminator (ImagePart → image). */
const PART_TYPE_OF = Object.fromEntries(Object.entries(discriminatorMapping('ContentPart')).map(([tag, component]) => [component, tag]));

const innermost = (site: SchemaSite) => site.components.at(-1);
const lastStep = (site: SchemaSite) => site.path.at(-1);

function hooksFor(options: DecideGeneration): SchemaHooks {
  const ids = options.plainIds ? plainId : callerId;
  return {
    branch({ tag, component }, site) {
      if (innermost(site) === 'Question' && tag !== undefined && (ALL_CAPABILITIES as readonly string[]).includes(tag))
        return options.capabilities.has(tag as Capability);
      if (component === 'ContentParts') return options.capabilities.has('multimodal');
      if (innermost(site) === 'ContentPart' && (MEDIA_TYPES as readonly string[]).includes(tag ?? ''))
        return assetIdFrom(options.pool, tag as MediaPartType) !== undefined;
      return true;
    },
    key(site) {
      return ['Questions', 'ChoiceOptions', 'MultiOptions'].includes(innermost(site) ?? '') ? ids() : undefined;
    },
    mapSize(site) {
      return ['ChoiceOptions', 'MultiOptions'].includes(innermost(site) ?? '') ? { min: MIN_OPTIONS, max: MAX_GENERATED_OPTIONS } : undefined;
    },
    optional(property, site) {
      // Open point noul-instructions-required: every shown noul question has instructions.
      if (innermost(site) === 'NoulQuestion' && property === 'instructions') return 'always';
      return 'sometimes';
    },
    string({ minLength, maxLength }, site) {
      const where = innermost(site);
      if (where === 'TextContext' || (where === 'TextPart' && lastStep(site) === 'text')) return freeText(minLength, maxLength);
      if (where === 'PartId') return fc.string({ unit: idCharacter(), minLength, maxLength });
      // Seed 2.3: an empty description string is allowed.
      if (where === 'ChoiceOptions') return fc.oneof({ withCrossShrink: true }, fc.constant(''), freeText(1, Math.max(1, maxLength)));
      if (lastStep(site) === 'instructions') return freeText(Math.max(1, minLength), Math.max(1, maxLength));
      return undefined;
    },
    resizeString(text, size, site) {
      // Texts at a limit read as text: grown with filler, never with emoji (open point character-counting).
      const where = innermost(site);
      if (where !== 'TextContext' && !(where === 'TextPart' && lastStep(site) === 'text')) return undefined;
      const characters = [...inBasicPlane(text)];
      return characters.length >= size ? characters.slice(0, size).join('') : characters.join('') + fillerText(size - characters.length);
    },
    component(name, site, own) {
      if (name === 'AssetId') {
        const partType = PART_TYPE_OF[site.components.at(-2) ?? ''];
        const ids = (MEDIA_TYPES as readonly string[]).includes(partType ?? '') ? assetIdFrom(options.pool, partType as MediaPartType) : undefined;
        if (!ids) throw new Error(`No pooled asset for an asset_id inside ${partType}`);
        return ids;
      }
      if (name === 'ContentParts') return own().map(withinMediaLimits);
      if (name === 'DecideRequest') return own().filter((body) => jsonBytes(body) <= decideLimits.bodyBytes);
      return undefined;
    },
  };
}

/** Media parts past their type's x-media-limits count become text parts, so the part count stays. */
export function withinMediaLimits(parts: WireValue): WireValue {
  if (!Array.isArray(parts)) return parts;
  const seen = new Map<string, number>();
  return parts.map((part) => {
    if (!isWireObject(part)) return part;
    const type = part.get('type');
    const limit = typeof type === 'string' ? decideLimits.media[type as MediaPartType] : undefined;
    if (!limit) return part;
    const count = (seen.get(type as string) ?? 0) + 1;
    seen.set(type as string, count);
    if (count <= limit.max) return part;
    const id = part.get('id');
    return new WireObject([['type', 'text'], ...(id !== undefined ? [['id', id] as const] : []), ['text', 'See the attached file.']]);
  });
}

/** Valid decide bodies, as ordered wire objects. */
export function decideRequestArbitrary(options: DecideGeneration): fc.Arbitrary<WireObject> {
  return new SchemaConverter(hooksFor(options)).component('DecideRequest') as fc.Arbitrary<WireObject>;
}

/** The questions of a decide body as [id, question] entries, in order. */
export function questionsOf(body: WireObject): ReadonlyArray<readonly [string, WireObject]> {
  const questions = body.get('questions');
  return isWireObject(questions) ? (questions.entries.filter(([, question]) => isWireObject(question)) as Array<readonly [string, WireObject]>) : [];
}

/** The option ids of a choice or multi question, in order. */
export function optionIdsOf(question: WireObject): string[] {
  const options = question.get('options');
  return isWireObject(options) ? options.keys : [];
}

export function questionType(question: WireObject): string | undefined {
  const type = question.get('type');
  return typeof type === 'string' ? type : undefined;
}

/** The same body with question ids q1, q2, … and option ids o1, o2, …: the id-format open point taken out. */
export function withPlainIds(body: WireObject): WireObject {
  const questions = questionsOf(body).map(([, question], index) => {
    const options = question.get('options');
    const renamed = isWireObject(options)
      ? question.with('options', new WireObject(options.entries.map(([, value], at) => [`o${at + 1}`, value] as const)))
      : question;
    return [`q${index + 1}`, renamed] as const;
  });
  return body.with('questions', new WireObject(questions));
}

/** True when every question and option id is plain (lowercase letters, digits and _). */
export function hasOnlyPlainIds(body: WireObject): boolean {
  const plain = (id: string) => /^[a-z0-9_]+$/.test(id);
  return questionsOf(body).every(([id, question]) => plain(id) && optionIdsOf(question).every(plain));
}

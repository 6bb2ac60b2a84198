// The media facts of the seed that no schema keyword can carry, each read once from the extension
// that records it: the upload families (AssetMimeType x-families), how many media parts of each
// family one request may carry (ContentParts x-media-limits), the part types refused as a
// modality (ContentPart x-unsupported-part-types) and the families each media part may reference
// (ContentPart x-part-families: a document part may reference a page image). Each reader takes
// the document, so a test can hand it a broken one; a missing or malformed extension throws at
// load time instead of turning into undefined limits somewhere downstream.
import { componentsOf, isObject, openapiDocument, type Json, type JsonObject } from './document.ts';
import type { Schemas } from './types.ts';

export type MediaFamily = 'image' | 'document' | 'audio';
export type AssetMimeType = Schemas['AssetMimeType'];

export const mediaFamilies: readonly MediaFamily[] = ['image', 'document', 'audio'];

/** One upload family as x-families states it (seed 4.5 and 8). */
export interface UploadFamily {
  /** As the seed writes it, e.g. "10 MB" (its unit is open point size-units). */
  maxFile: string;
  maxPages?: number;
  maxSeconds?: number;
  recommendedMaxSeconds?: number;
  types: readonly AssetMimeType[];
}

/** How many parts of one family a request may carry, and the code over that (seed 2.1 and 8). */
export interface MediaPartLimit {
  max: number;
  code: string;
}

/** A part type refused as a modality rather than as an invalid request (seed 2.2). */
export interface UnsupportedPartType {
  status: number;
  code: string;
}

function schemaExtension(document: JsonObject, schemaName: string, extension: string): JsonObject {
  const schema = componentsOf(document, 'schemas')[schemaName];
  const value = isObject(schema) ? schema[extension] : undefined;
  if (!isObject(value)) throw new Error(`The spec's ${schemaName} schema has no ${extension} object`);
  return value;
}

function field<T>(value: Json | undefined, where: string, is: (value: Json | undefined) => value is T & Json, expected: string): T {
  if (!is(value)) throw new Error(`${where} must be ${expected}; the spec has ${JSON.stringify(value)}`);
  return value;
}

const isNumber = (value: Json | undefined): value is number => typeof value === 'number' && Number.isFinite(value);
const isString = (value: Json | undefined): value is string => typeof value === 'string' && value.length > 0;
const isStringList = (value: Json | undefined): value is string[] => Array.isArray(value) && value.length > 0 && value.every(isString);
const isFamilyList = (value: Json | undefined): value is MediaFamily[] =>
  isStringList(value) && value.every((name) => (mediaFamilies as readonly string[]).includes(name));

/** An entry per family, each read by `read`; a family missing from the extension throws. */
function perFamily<T>(table: JsonObject, extension: string, read: (entry: Json | undefined, where: string) => T): Record<MediaFamily, T> {
  return Object.fromEntries(mediaFamilies.map((family) => [family, read(table[family], `${extension}.${family}`)])) as Record<MediaFamily, T>;
}

function optionalNumber(entry: JsonObject, name: string, where: string): number | undefined {
  return entry[name] === undefined ? undefined : field(entry[name], `${where}.${name}`, isNumber, 'a number');
}

export function readUploadFamilies(document: JsonObject): Record<MediaFamily, UploadFamily> {
  const accepted = schemaEnum(document, 'AssetMimeType');
  const families = perFamily(schemaExtension(document, 'AssetMimeType', 'x-families'), 'x-families', (entry, where) => {
    if (!isObject(entry)) throw new Error(`${where} must be an object`);
    const family: UploadFamily = {
      maxFile: field(entry.max_file, `${where}.max_file`, isString, 'a size such as "10 MB"'),
      types: field(entry.types, `${where}.types`, isStringList, 'a list of MIME types') as AssetMimeType[],
    };
    const maxPages = optionalNumber(entry, 'max_pages', where);
    const maxSeconds = optionalNumber(entry, 'max_seconds', where);
    const recommendedMaxSeconds = optionalNumber(entry, 'recommended_max_seconds', where);
    if (maxPages !== undefined) family.maxPages = maxPages;
    if (maxSeconds !== undefined) family.maxSeconds = maxSeconds;
    if (recommendedMaxSeconds !== undefined) family.recommendedMaxSeconds = recommendedMaxSeconds;
    return family;
  });
  // Every accepted type in exactly one family, and no family type the enum does not accept.
  const listed = mediaFamilies.flatMap((family) => families[family].types);
  for (const type of accepted) {
    if (listed.filter((other) => other === type).length !== 1) throw new Error(`AssetMimeType ${type} must belong to exactly one family in x-families`);
  }
  for (const type of listed) {
    if (!accepted.includes(type)) throw new Error(`x-families lists ${type}, which AssetMimeType does not accept`);
  }
  return families;
}

function schemaEnum(document: JsonObject, schemaName: string): string[] {
  const schema = componentsOf(document, 'schemas')[schemaName];
  return field(isObject(schema) ? schema.enum : undefined, `${schemaName}.enum`, isStringList, 'a list of strings');
}

export function readMediaPartLimits(document: JsonObject): Record<MediaFamily, MediaPartLimit> {
  return perFamily(schemaExtension(document, 'ContentParts', 'x-media-limits'), 'x-media-limits', (entry, where) => {
    if (!isObject(entry)) throw new Error(`${where} must be an object`);
    return { max: field(entry.max, `${where}.max`, isNumber, 'a number'), code: field(entry.code, `${where}.code`, isString, 'an error code') };
  });
}

export function readUnsupportedPartTypes(document: JsonObject): Record<string, UnsupportedPartType> {
  const table = schemaExtension(document, 'ContentPart', 'x-unsupported-part-types');
  return Object.fromEntries(
    Object.entries(table).map(([type, entry]) => {
      const where = `x-unsupported-part-types.${type}`;
      if (!isObject(entry)) throw new Error(`${where} must be an object`);
      return [
        type,
        { status: field(entry.status, `${where}.status`, isNumber, 'a status'), code: field(entry.code, `${where}.code`, isString, 'an error code') },
      ];
    }),
  );
}

export function readPartFamilies(document: JsonObject): Record<MediaFamily, readonly MediaFamily[]> {
  return perFamily(schemaExtension(document, 'ContentPart', 'x-part-families'), 'x-part-families', (entry, where) =>
    field(entry, where, isFamilyList, `a list of families (${mediaFamilies.join(', ')})`),
  );
}

/** Seed 4.5 and 8: the upload families, their types and limits. */
export const uploadFamilies: Readonly<Record<MediaFamily, UploadFamily>> = readUploadFamilies(openapiDocument);
/** Seed 4.5: the twelve accepted upload types, in the spec's order. */
export const acceptedMimeTypes: readonly AssetMimeType[] = schemaEnum(openapiDocument, 'AssetMimeType') as AssetMimeType[];
/** Seed 2.1 and 8: media parts per request, by family, and the code over each limit. */
export const mediaPartLimits: Readonly<Record<MediaFamily, MediaPartLimit>> = readMediaPartLimits(openapiDocument);
/** Seed 2.2: part types refused as a modality, with their status and code. */
export const unsupportedPartTypes: Readonly<Record<string, UnsupportedPartType>> = readUnsupportedPartTypes(openapiDocument);
/** Seed 2.2: the families a media part of each type may reference. */
export const partFamilies: Readonly<Record<MediaFamily, readonly MediaFamily[]>> = readPartFamilies(openapiDocument);

export function isAcceptedMimeType(type: string): type is AssetMimeType {
  return (acceptedMimeTypes as readonly string[]).includes(type);
}

/** The family an accepted upload type belongs to. */
export function familyOfMimeType(type: AssetMimeType): MediaFamily {
  const family = mediaFamilies.find((name) => uploadFamilies[name].types.includes(type));
  if (!family) throw new Error(`${type} belongs to no family in x-families`);
  return family;
}

/** Seed 2.2: whether a media part of this type may reference an asset of this family (a document part may reference a page image). */
export function partMayReference(partType: MediaFamily, family: MediaFamily): boolean {
  return partFamilies[partType].includes(family);
}

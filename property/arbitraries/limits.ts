// The limits of a decide request, read from the spec's schemas (seed 2.1, 2.2, 8), so that
// generation and mutation follow the spec rather than copies of its numbers.
import { mediaPartLimits, openapiDocument, requestBodyLimitBytes, unsupportedPartTypes, type JsonObject } from '../../spec/index.ts';

const schemas = (openapiDocument.components as JsonObject).schemas as JsonObject;

function schema(name: string): JsonObject {
  const found = schemas[name];
  if (typeof found !== 'object' || found === null || Array.isArray(found)) throw new Error(`No component schema ${name} in the spec`);
  return found;
}

function numberAt(owner: JsonObject, keyword: string, where: string): number {
  const value = owner[keyword];
  if (typeof value !== 'number') throw new Error(`The spec gives no ${keyword} for ${where}`);
  return value;
}

const textPartText = (schema('TextPart').properties as JsonObject).text as JsonObject;

export const decideLimits = {
  /** A string context: 1 to 8,000 characters. */
  contextCharacters: { min: numberAt(schema('TextContext'), 'minLength', 'TextContext'), max: numberAt(schema('TextContext'), 'maxLength', 'TextContext') },
  /** A list context: 1 to 16 parts. */
  parts: { min: numberAt(schema('ContentParts'), 'minItems', 'ContentParts'), max: numberAt(schema('ContentParts'), 'maxItems', 'ContentParts') },
  /** A text part: 1 to 8,000 characters. */
  textPartCharacters: { min: numberAt(textPartText, 'minLength', 'TextPart.text'), max: numberAt(textPartText, 'maxLength', 'TextPart.text') },
  /** A part id: up to 100 characters. */
  partIdCharacters: numberAt(schema('PartId'), 'maxLength', 'PartId'),
  /** 1 to 16 questions. */
  questions: { min: numberAt(schema('Questions'), 'minProperties', 'Questions'), max: numberAt(schema('Questions'), 'maxProperties', 'Questions') },
  assetIdPattern: new RegExp(String(schema('AssetId').pattern), 'u'),
  /** Media parts per request and the code over each limit (x-media-limits). */
  media: mediaPartLimits,
  /** Part types rejected as a modality, with their status and code (x-unsupported-part-types). */
  unsupportedPartTypes,
  /**
   * Seed 4.1 and 8: a body is at most 256 KiB. No schema keyword can say this; the spec keeps it
   * in x-seed-limits.
   */
  bodyBytes: requestBodyLimitBytes,
} as const;

/** The discriminator tag → component schema name of a oneOf schema such as Question or ContentPart. */
export function discriminatorMapping(name: string): Record<string, string> {
  const mapping = ((schema(name).discriminator as JsonObject | undefined)?.mapping ?? {}) as Record<string, string>;
  return Object.fromEntries(Object.entries(mapping).map(([tag, ref]) => [tag, ref.replace('#/components/schemas/', '')]));
}

// The typed accessors of the spec's extensions (media facts, key prefix, generated request ids) read what openapi.yaml says, and
// refuse a document whose extension is missing or malformed instead of yielding undefined limits.
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { readFileSync } from 'node:fs';
import { apiKeyPrefix, readApiKeyPrefix } from '../api-key.ts';
import { specPath, type JsonObject } from '../document.ts';
import { generatedRequestIdPattern, readGeneratedRequestIdPattern } from '../request-id.ts';
import {
  acceptedMimeTypes,
  familyOfMimeType,
  mediaPartLimits,
  partFamilies,
  partMayReference,
  readMediaPartLimits,
  readPartFamilies,
  readUnsupportedPartTypes,
  readUploadFamilies,
  unsupportedPartTypes,
  uploadFamilies,
} from '../media.ts';

/** A fresh, mutable copy of the spec for one broken variant. */
const freshSpec = (): JsonObject & { components: { schemas: Record<string, JsonObject>; securitySchemes: Record<string, JsonObject> } } =>
  parse(readFileSync(specPath, 'utf8'));

describe('what the accessors read from openapi.yaml', () => {
  test('x-media-limits: 4 images, 2 documents, 1 audio clip, each with its code', () => {
    expect(mediaPartLimits).toEqual({
      image: { max: 4, code: 'TOO_MANY_IMAGES' },
      document: { max: 2, code: 'TOO_MANY_DOCUMENTS' },
      audio: { max: 1, code: 'TOO_MANY_AUDIO' },
    });
  });

  test('x-families: the twelve types in three families, with their limits', () => {
    expect(uploadFamilies.image).toEqual({ maxFile: '10 MB', types: ['image/png', 'image/jpeg', 'image/webp'] });
    expect(uploadFamilies.document).toMatchObject({ maxFile: '25 MB', maxPages: 20 });
    expect(uploadFamilies.document.types).toContain('text/html');
    expect(uploadFamilies.audio).toEqual({
      maxFile: '10 MB',
      maxSeconds: 30,
      recommendedMaxSeconds: 20,
      types: ['audio/wav', 'audio/mpeg', 'audio/flac', 'audio/ogg'],
    });
    expect(acceptedMimeTypes).toHaveLength(12);
    expect(familyOfMimeType('application/pdf')).toBe('document');
    expect(familyOfMimeType('audio/ogg')).toBe('audio');
  });

  test('x-unsupported-part-types: a video part is 400 UNSUPPORTED_MODALITY', () => {
    expect(unsupportedPartTypes).toEqual({ video: { status: 400, code: 'UNSUPPORTED_MODALITY' } });
  });

  test('x-part-families: a document part may reference a page image; no other part crosses families', () => {
    expect(partFamilies).toEqual({ image: ['image'], document: ['document', 'image'], audio: ['audio'] });
    expect(partMayReference('document', 'image')).toBe(true);
    expect(partMayReference('image', 'document')).toBe(false);
    expect(partMayReference('audio', 'image')).toBe(false);
  });

  test('x-key-prefix: keys start with svc_live_', () => {
    expect(apiKeyPrefix).toBe('svc_live_');
  });

  test('x-generated-pattern: a generated request id is req_<hex>', () => {
    expect(generatedRequestIdPattern.test('req_8f14e45fceea167a')).toBe(true);
    expect(generatedRequestIdPattern.test('req_')).toBe(false);
    expect(generatedRequestIdPattern.test('checkout-7f3a')).toBe(false);
  });
});

describe('a missing or malformed extension is refused', () => {
  const schemaOf = (spec: ReturnType<typeof freshSpec>, name: string) => spec.components.schemas[name]!;
  const broken: Array<[string, (spec: ReturnType<typeof freshSpec>) => void, (spec: JsonObject) => unknown, RegExp]> = [
    [
      'x-media-limits missing',
      (spec) => delete schemaOf(spec, 'ContentParts')['x-media-limits'],
      readMediaPartLimits,
      /ContentParts schema has no x-media-limits/,
    ],
    [
      'x-media-limits without audio',
      (spec) => delete (schemaOf(spec, 'ContentParts')['x-media-limits'] as JsonObject).audio,
      readMediaPartLimits,
      /x-media-limits.audio must be an object/,
    ],
    [
      'x-media-limits with a count as text',
      (spec) => (((schemaOf(spec, 'ContentParts')['x-media-limits'] as JsonObject).image as JsonObject).max = '4'),
      readMediaPartLimits,
      /x-media-limits.image.max must be a number/,
    ],
    ['x-families missing', (spec) => delete schemaOf(spec, 'AssetMimeType')['x-families'], readUploadFamilies, /AssetMimeType schema has no x-families/],
    [
      'x-families without max_file',
      (spec) => delete ((schemaOf(spec, 'AssetMimeType')['x-families'] as JsonObject).image as JsonObject).max_file,
      readUploadFamilies,
      /x-families.image.max_file must be/,
    ],
    [
      'x-families with max_pages as text',
      (spec) => (((schemaOf(spec, 'AssetMimeType')['x-families'] as JsonObject).document as JsonObject).max_pages = 'twenty'),
      readUploadFamilies,
      /x-families.document.max_pages must be a number/,
    ],
    [
      'an accepted type in no family',
      (spec) => (((schemaOf(spec, 'AssetMimeType')['x-families'] as JsonObject).audio as JsonObject).types = ['audio/wav']),
      readUploadFamilies,
      /audio\/mpeg must belong to exactly one family/,
    ],
    [
      'a family type the enum does not accept',
      (spec) =>
        (((schemaOf(spec, 'AssetMimeType')['x-families'] as JsonObject).image as JsonObject).types = ['image/png', 'image/jpeg', 'image/webp', 'image/gif']),
      readUploadFamilies,
      /lists image\/gif, which AssetMimeType does not accept/,
    ],
    [
      'x-unsupported-part-types missing',
      (spec) => delete schemaOf(spec, 'ContentPart')['x-unsupported-part-types'],
      readUnsupportedPartTypes,
      /ContentPart schema has no x-unsupported-part-types/,
    ],
    [
      'x-unsupported-part-types without a status',
      (spec) => delete ((schemaOf(spec, 'ContentPart')['x-unsupported-part-types'] as JsonObject).video as JsonObject).status,
      readUnsupportedPartTypes,
      /video.status must be a status/,
    ],
    [
      'x-part-families missing',
      (spec) => delete schemaOf(spec, 'ContentPart')['x-part-families'],
      readPartFamilies,
      /ContentPart schema has no x-part-families/,
    ],
    [
      'x-part-families naming an unknown family',
      (spec) => ((schemaOf(spec, 'ContentPart')['x-part-families'] as JsonObject).document = ['document', 'scan']),
      readPartFamilies,
      /x-part-families.document must be a list of families/,
    ],
    [
      'x-key-prefix missing',
      (spec) => delete spec.components.securitySchemes.bearerAuth!['x-key-prefix'],
      readApiKeyPrefix,
      /no bearer security scheme with an x-key-prefix/,
    ],
    [
      'x-generated-pattern missing',
      (spec) => delete spec.components.schemas.RequestId!['x-generated-pattern'],
      readGeneratedRequestIdPattern,
      /RequestId schema has no x-generated-pattern/,
    ],
    [
      'x-key-prefix empty',
      (spec) => (spec.components.securitySchemes.bearerAuth!['x-key-prefix'] = ''),
      readApiKeyPrefix,
      /no bearer security scheme with an x-key-prefix/,
    ],
  ];

  test.each(broken)('%s', (_, breakIt, read, message) => {
    const spec = freshSpec();
    expect(() => read(spec)).not.toThrow();
    breakIt(spec);
    expect(() => read(spec)).toThrow(message);
  });
});

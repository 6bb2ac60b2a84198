// The mutations: each breaks its one rule in a valid request (checked with the spec's own
// validator where the rule is a schema rule, and by measurement where it is not), and each
// expectation is read from the spec.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ALL_CAPABILITIES } from '../../harness/check.ts';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { errorCode, openapiDocument, requestBodyValidator, type JsonObject } from '../../spec/index.ts';
import type { AssetPool } from '../arbitraries/asset-pool.ts';
import { decideRequestArbitrary } from '../arbitraries/decide-request.ts';
import { decideLimits } from '../arbitraries/limits.ts';
import { toJsonText } from '../arbitraries/wire.ts';
import { decideMutations, describeExpectation, mutatedText, mutationApplies, mutationDraw, type DecideMutation } from '../mutations.ts';

const POOL: AssetPool = {
  image: [{ id: 'asset_image000001', mimeType: 'image/png' }],
  document: [{ id: 'asset_document0001', mimeType: 'text/plain' }],
  audio: [{ id: 'asset_audio0000001', mimeType: 'audio/wav' }],
};
const validDecideBody = requestBodyValidator('decide');

/**
 * A second oracle: the same component schemas compiled by ajv without its discriminator mode, in
 * which a oneOf of object schemas rejects a value that is no object at all. (In discriminator mode
 * ajv lets such a value through — a question or part that is a string passes the spec's
 * validator.)
 */
function plainOneOfValidator(): (value: unknown) => boolean {
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (typeof node !== 'object' || node === null) return node;
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key]) => key !== 'discriminator' && !key.startsWith('x-'))
        .map(([key, value]) => [key, key === '$ref' && typeof value === 'string' ? value.replace('#/components/schemas/', '#/$defs/') : rewrite(value)]),
    );
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema({ $id: 'urn:property-test:plain-one-of', $defs: rewrite((openapiDocument.components as JsonObject).schemas) as Record<string, unknown> });
  const validate = ajv.getSchema('urn:property-test:plain-one-of#/$defs/DecideRequest')!;
  return (value) => validate(value) as boolean;
}
const plainOneOfValid = plainOneOfValidator();
const base = decideRequestArbitrary({ capabilities: new Set(ALL_CAPABILITIES), pool: POOL, plainIds: true });

/** Mutated request texts of one mutation, for several bases and draws. */
function mutated(mutation: DecideMutation, numRuns = 25) {
  return fc.sample(fc.tuple(base, mutationDraw(mutation)), { seed: 3, numRuns }).map(([body, draw]) => mutation.apply(body, draw, POOL));
}

const byName = (name: string) => decideMutations.find((mutation) => mutation.name === name)!;
/** Rules a JSON Schema cannot state: counts per part type, the wire format. */
const NOT_SCHEMA_RULES = new Set(['too-many-image-parts', 'too-many-document-parts', 'too-many-audio-parts', 'malformed-json', 'wrong-content-type']);

describe('decide mutations', () => {
  test('names are unique; every mutation names its seed sections and rule', () => {
    expect(new Set(decideMutations.map((mutation) => mutation.name)).size).toBe(decideMutations.length);
    for (const mutation of decideMutations) {
      expect(mutation.seedSections.length, mutation.name).toBeGreaterThan(0);
      expect(mutation.rule.length, mutation.name).toBeGreaterThan(10);
    }
  });

  test.each(decideMutations.filter((mutation) => !NOT_SCHEMA_RULES.has(mutation.name)).map((mutation) => [mutation.name, mutation] as const))(
    '%s makes a request the spec schema rejects',
    (_name, mutation) => {
      for (const sent of mutated(mutation)) {
        expect(sent.contentType).toBe('application/json');
        expect(plainOneOfValid(JSON.parse(mutatedText(sent))), mutatedText(sent).slice(0, 300)).toBe(false);
      }
    },
  );

  test('the second oracle agrees with the spec validator on valid requests', () => {
    for (const body of fc.sample(base, { seed: 4, numRuns: 100 })) {
      const value = JSON.parse(toJsonText(body));
      expect(validDecideBody(value).valid).toBe(true);
      expect(plainOneOfValid(value)).toBe(true);
    }
  });

  test.each(['image', 'document', 'audio'] as const)('too-many-%s-parts sends one part over the x-media-limits count, and is otherwise valid', (type) => {
    for (const sent of mutated(byName(`too-many-${type}-parts`))) {
      const body = JSON.parse(mutatedText(sent));
      expect(validDecideBody(body).valid).toBe(true);
      expect(body.context.filter((part: { type: string }) => part.type === type)).toHaveLength(decideLimits.media[type].max + 1);
      expect(body.context.length).toBeLessThanOrEqual(decideLimits.parts.max);
    }
  });

  test('malformed-json is never JSON; wrong-content-type is a valid body under another type', () => {
    for (const sent of mutated(byName('malformed-json'))) expect(() => JSON.parse(mutatedText(sent))).toThrow();
    for (const sent of mutated(byName('wrong-content-type'))) {
      expect(sent.contentType).not.toMatch(/json/);
      expect(validDecideBody(JSON.parse(mutatedText(sent))).valid).toBe(true);
    }
  });

  test('expectations come from the spec: stated statuses and codes, or a 4xx where the seed states none', () => {
    expect(byName('malformed-json').expected).toEqual({ codes: ['INVALID_REQUEST'], status: 'stated' });
    expect(describeExpectation(byName('malformed-json').expected)).toBe(`status ${errorCode('INVALID_REQUEST').statedStatus} with INVALID_REQUEST`);
    expect(byName('video-part').expected.codes).toEqual([decideLimits.unsupportedPartTypes.video!.code]);
    expect(byName('too-many-image-parts').expected.codes).toEqual([decideLimits.media.image.code, 'INVALID_REQUEST']);
    expect(describeExpectation(byName('too-many-image-parts').expected)).toMatch(/TOO_MANY_IMAGES \(a 4xx: its status is not stated\)/);
    expect(byName('wrong-content-type').expected).toEqual({ status: 'refused-or-answered', bounds: ['json-content-type'] });
    expect(describeExpectation(byName('wrong-content-type').expected)).toMatch(/or a 2xx answering the request.*never a 5xx.*open point json-content-type/);
  });

  test('mutations that need capabilities or pooled assets are left out without them', () => {
    const none = new Set<never>();
    const empty: AssetPool = { image: [], document: [], audio: [] };
    const applicable = decideMutations.filter((mutation) => mutationApplies(mutation, none, empty)).map((mutation) => mutation.name);
    expect(applicable).toContain('malformed-json');
    expect(applicable).not.toContain('video-part');
    expect(applicable).not.toContain('too-many-image-parts');
    expect(decideMutations.filter((mutation) => mutationApplies(mutation, new Set(ALL_CAPABILITIES), empty)).map((mutation) => mutation.name)).not.toContain(
      'too-many-image-parts',
    );
  });
});

// The named key variants: each one made from a key is recognised as that variant of that
// project's key (and as nothing else), the recording never holds the key, and the results schema
// lists exactly the variants the table has.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { carries, credentialFor, KEY_VARIANT_NAMES, KEY_VARIANTS, recognisedCredential, withoutKeyPlaces, withQuery } from '../key-variants.ts';

const keys = [
  { project: 'a' as const, key: 'svc_live_a_0123456789abcdef01234567' },
  { project: 'b' as const, key: 'svc_live_b_fedcba9876543210fedcba98' },
];

test.each(KEY_VARIANT_NAMES)('%s of key B is recognised as that variant of project B, and rebuilt the same from the key', (name) => {
  const credential = KEY_VARIANTS[name].credential(keys[1]!.key);
  const path = withQuery('/v1/models', credential.query);
  expect(recognisedCredential(credential.headers, path, keys)).toEqual({ project: 'b', variant: name });
  // Replay starts from the recorded request with every key place emptied, and rebuilds the variant.
  const bare = withoutKeyPlaces(path, { ...credential.headers, 'content-type': 'application/json' });
  expect(bare.headers).toEqual({ 'content-type': 'application/json' });
  expect(bare.path).toBe('/v1/models');
  expect(carries(credential.headers, path, credentialFor(keys[1]!.key, name))).toBe(true);
  expect(carries(credential.headers, path, credentialFor(keys[0]!.key, name))).toBe(false);
});

test('the key itself is the project without a variant; a made-up key, another header value or none is no credential of the run', () => {
  expect(recognisedCredential({ authorization: `Bearer ${keys[0]!.key}` }, '/v1/models', keys)).toEqual({ project: 'a' });
  expect(recognisedCredential({ authorization: 'Bearer svc_live_conformance_unknown_00' }, '/v1/models', keys)).toBeUndefined();
  expect(recognisedCredential({ authorization: '' }, '/v1/models', keys)).toBeUndefined();
  expect(recognisedCredential({}, '/v1/models', keys)).toBeUndefined();
});

test('every variant differs from the key it is made from', () => {
  for (const name of KEY_VARIANT_NAMES)
    expect(
      carries(credentialFor(keys[0]!.key, name).headers, withQuery('/v1/models', credentialFor(keys[0]!.key, name).query), credentialFor(keys[0]!.key)),
    ).toBe(false);
});

test('the results schema lists exactly the variants of the table', () => {
  const schema = JSON.parse(readFileSync(new URL('../../reports/results.schema.json', import.meta.url), 'utf8'));
  expect(schema.$defs.exchange.properties.credential.properties.variant.enum).toEqual(KEY_VARIANT_NAMES);
});

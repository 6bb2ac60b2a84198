// Keys one edit away from a real one (what the authentication checks send) give the secret away
// as surely as the key itself: they are masked like it. Unrelated keys are left as they are.
import { expect, test } from 'vitest';
import { isMask, maskOf, redactDeep, redactText } from '../redaction.ts';

const KEY = 'svc_live_a_3f9c2e7d41b0a8c6e5f4d3c2';

test.each([
  ['one character changed', 'svc_live_a_3f9c2e7d41b0a8c6e5f4d3c3'],
  ['the secret in the other case', 'svc_live_A_3F9C2E7D41B0A8C6E5F4D3C2'],
  ['one character added', `${KEY}0`],
  ['the last character dropped', KEY.slice(0, -1)],
  ['only the first half', KEY.slice(0, 9 + 13)],
])('a near miss of the key (%s) is masked', (_what, nearMiss) => {
  const redacted = [
    redactText(`Authorization: Bearer ${nearMiss}`, [KEY]),
    JSON.stringify(redactDeep({ headers: { authorization: `Token ${nearMiss}` } }, [KEY])),
  ];
  for (const text of redacted) {
    expect(text).toContain('svc_live_***');
    expect(text.toLowerCase()).not.toContain('3f9c2e7d');
  }
});

test('a key that shares only the public prefix with the secret is left alone', () => {
  expect(redactText('Bearer svc_live_conformance_unknown_0000', [KEY])).toBe('Bearer svc_live_conformance_unknown_0000');
});

test('a mask is recognised as one (replay then sends its own key), a key or a near miss is not', () => {
  expect(isMask(maskOf(KEY))).toBe(true);
  expect(isMask(maskOf('not-a-key'))).toBe(true);
  expect(isMask(KEY)).toBe(false);
  expect(isMask('svc_live_****')).toBe(false);
  expect(isMask('svc_live_')).toBe(false);
});

// The off-heap decision index must behave exactly as a Map from string to string would, through
// every growth of its buffer and table, for any keys and values: a lost or crossed decision is a
// feedback answered 404 for a decision that exists, or linked to another project's decision.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { createDecisionIndex } from '../server/decision-index.ts';

test('any sequence of sets and gets answers as a Map does, from a tiny initial size up', () => {
  const keyText = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.string({ unit: 'grapheme', maxLength: 6 }),
    fc.constantFrom('', 'a', 'a\u0000', '\u0000a', 'é', 'e\u0301', '__proto__'),
  );
  const operation = fc.oneof(
    fc.record({ kind: fc.constant('set' as const), key: keyText, value: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('["topic"]', '[]', '')) }),
    fc.record({ kind: fc.constant('get' as const), key: keyText }),
  );
  fc.assert(
    fc.property(fc.array(operation, { maxLength: 300 }), fc.integer({ min: 1, max: 64 }), (operations, initialEntries) => {
      const index = createDecisionIndex(initialEntries);
      const model = new Map<string, string>();
      for (const op of operations) {
        if (op.kind === 'set') {
          index.set(op.key, op.value);
          model.set(op.key, op.value);
        } else expect(index.get(op.key)).toBe(model.get(op.key));
      }
      expect(index.size).toBe(model.size);
      for (const [key, value] of model) expect(index.get(key)).toBe(value);
    }),
    { numRuns: 200, seed: 20_261_123 },
  );
});

test('200,000 decisions through many growths: each finds its own question set, shared or not; absent keys find nothing', () => {
  const index = createDecisionIndex(16);
  const shared = '["topic","urgent"]';
  for (let i = 0; i < 200_000; i++) index.set(`proj_${i % 3}\u0000req_${i}`, i % 10 === 0 ? `["q${i}"]` : shared);
  expect(index.size).toBe(200_000);
  for (const i of [0, 1, 9, 10, 65_535, 65_536, 199_990, 199_999]) {
    expect(index.get(`proj_${i % 3}\u0000req_${i}`)).toBe(i % 10 === 0 ? `["q${i}"]` : shared);
    // The same request id under another project is another decision.
    expect(index.get(`proj_${(i + 1) % 3}\u0000req_${i}`)).toBeUndefined();
  }
  expect(index.get('proj_0\u0000req_200000')).toBeUndefined();
  // A reused request id links to its latest decision.
  index.set('proj_1\u0000req_1', '["replaced"]');
  expect(index.get('proj_1\u0000req_1')).toBe('["replaced"]');
  expect(index.size).toBe(200_000);
});

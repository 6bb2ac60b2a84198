// The rule catalogue: every rule has a stable, unique id and is exercised by the corpus.
import { expect, test } from 'vitest';
import { rules } from '../registry.ts';
import { allCases } from './corpus/all.ts';

test('every rule of the registry is expected by at least one corpus case', () => {
  const expected = new Set(allCases.flatMap((c) => [...c.forward, ...c.reverse]));
  expect(rules.filter((r) => !expected.has(r.id)).map((r) => r.id)).toEqual([]);
});

test('rule ids are kebab-case and every rule says what it detects', () => {
  for (const r of rules) {
    expect(r.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(r.description.length).toBeGreaterThan(10);
  }
});

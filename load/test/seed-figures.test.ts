// The scenarios' copy of the seed's figures (k6 cannot read the spec) matches the spec.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { seedFiguresPath, seedFiguresSource } from '../scripts/generate-seed-figures.ts';

test('load/definitions/seed-figures.js is what the spec generates (npx tsx load/scripts/generate-seed-figures.ts)', () => {
  expect(readFileSync(seedFiguresPath, 'utf8')).toBe(seedFiguresSource());
});

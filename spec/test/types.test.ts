import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { generateTypes, typesPath } from '../scripts/generate-types.ts';

test('spec/types.gen.ts is what `npm run gen:types` produces from the current spec', async () => {
  const fresh = await generateTypes();
  expect(readFileSync(typesPath, 'utf8') === fresh, 'spec/types.gen.ts is stale: run `npm run gen:types`').toBe(true);
});

// Writes load/definitions/seed-figures.js: the seed's figures the scenarios need, taken from
// spec/openapi.yaml through spec/index.ts. k6 cannot read YAML, so the scenarios read this
// generated copy; load/test/seed-figures.test.ts fails when it no longer matches the spec.
// Regenerate: npx tsx load/scripts/generate-seed-figures.ts
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { clientTimeoutMs, coldStartAllowanceMs, openapiDocument, type JsonObject } from '../../spec/index.ts';

const schemas = (openapiDocument.components as JsonObject).schemas as Record<string, JsonObject>;

export const seedFigures = {
  maxQuestions: schemas.Questions!.maxProperties as number,
  maxContextChars: schemas.TextContext!.maxLength as number,
  coldStartAllowanceS: coldStartAllowanceMs / 1000,
  clientTimeoutS: clientTimeoutMs / 1000,
};

export const seedFiguresPath = fileURLToPath(new URL('../definitions/seed-figures.js', import.meta.url));

export function seedFiguresSource(): string {
  return `// GENERATED from spec/openapi.yaml by load/scripts/generate-seed-figures.ts; do not edit.
// Regenerate: npx tsx load/scripts/generate-seed-figures.ts
export const seedFigures = ${JSON.stringify(seedFigures, null, 2)};
`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(seedFiguresPath, seedFiguresSource(), 'utf8');
  console.log(`wrote ${seedFiguresPath}`);
}

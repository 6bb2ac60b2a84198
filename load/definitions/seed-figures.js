// GENERATED from spec/openapi.yaml by load/scripts/generate-seed-figures.ts; do not edit.
// Regenerate: npx tsx load/scripts/generate-seed-figures.ts
export const seedFigures = {
  "maxQuestions": 16,
  "maxContextChars": 8000,
  "coldStartAllowanceS": 120,
  "clientTimeoutS": 180
};

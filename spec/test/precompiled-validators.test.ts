// The standalone validators a bundled reference server runs (reference-impl/start.mjs) judge
// exactly as the validators ajv compiles at run time: same verdict, same error locations and
// keywords, on every component schema, for the spec's own examples and for broken values.
import { createRequire } from 'node:module';
import { expect, test } from 'vitest';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { isObject, openapiDocument, type Json, type JsonObject } from '../document.ts';
import { schemaValidator, standaloneValidatorsCode } from '../validators.ts';

const schemas = (openapiDocument.components as JsonObject).schemas as JsonObject;

function loadStandalone(code: string): Record<string, ValidateFunction> {
  const module = { exports: {} as Record<string, ValidateFunction> };
  new Function('module', 'exports', 'require', code)(module, module.exports, createRequire(import.meta.url));
  return module.exports;
}

/** Every `example` and `examples` value in the spec, wherever it is. */
function specExamples(node: Json, found: Json[] = []): Json[] {
  if (Array.isArray(node)) node.forEach((child) => specExamples(child, found));
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'example') found.push(value);
      else if (key === 'examples' && Array.isArray(value)) found.push(...value);
      else if (key === 'examples' && isObject(value))
        found.push(...(Object.values(value).map((item) => (isObject(item) && 'value' in item ? item.value : item)) as Json[]));
      specExamples(value, found);
    }
  }
  return found;
}

const decideRequest = {
  context: 'I was charged twice and want a refund.',
  questions: { topic: { type: 'choice', options: { billing: 'Payments', shipping: 'Delivery' } } },
};
const brokenValues: Json[] = [
  null,
  0,
  -1,
  1.5,
  '',
  'x'.repeat(300),
  true,
  [],
  {},
  [null],
  { unknown: 1 },
  decideRequest,
  { ...decideRequest, questions: {} },
  { ...decideRequest, questions: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`q${i}`, decideRequest.questions.topic])) },
  { ...decideRequest, questions: { topic: { type: 'choice', options: { only: 'one' } } } },
  { ...decideRequest, questions: { topic: { type: 'rank', options: {} } } },
  { ...decideRequest, context: [{ type: 'image', asset_id: 'not an id' }] },
  { ...decideRequest, extra: true },
];

test('standalone code and run-time compilation agree on every component schema', () => {
  const standalone = loadStandalone(standaloneValidatorsCode('reference'));
  expect(Object.keys(standalone).sort()).toEqual(Object.keys(schemas).sort());
  const values = [...specExamples(openapiDocument as Json), ...brokenValues];
  let disagreements = 0;
  for (const name of Object.keys(schemas)) {
    const compiled = schemaValidator(name, 'reference');
    for (const value of values) {
      const expected = compiled(value);
      const valid = standalone[name]!(value) as boolean;
      const issues = (standalone[name]!.errors ?? []).map((error) => `${error.instancePath} ${error.keyword}`);
      const same = valid === expected.valid && JSON.stringify(issues) === JSON.stringify(expected.issues.map((issue) => `${issue.pointer} ${issue.keyword}`));
      if (!same) disagreements += 1;
    }
  }
  expect(disagreements).toBe(0);
  // The samples reach both verdicts on the decide request.
  const decide = standalone.DecideRequest!;
  expect(values.some((value) => decide(value))).toBe(true);
  expect(values.some((value) => !decide(value))).toBe(true);
});

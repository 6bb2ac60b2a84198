// Seed 2.1: "Field names are snake_case." Checks the `properties` keys of every schema.
// Header names (X-Request-ID, Retry-After) are keys of `headers` maps, not schema
// properties, so they are never checked here.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { eachSchema } from '../openapi/schemas.mjs';
/** @import { LintResult } from '../openapi/pointer.mjs' */

const SNAKE_CASE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

export default createRulesetFunction({ input: null, options: null }, function snakeCaseProperties(document) {
  /** @type {LintResult[]} */
  const results = [];
  eachSchema(document, (schema, path) => {
    if (schema.properties === null || typeof schema.properties !== 'object') return;
    for (const name of Object.keys(schema.properties)) {
      if (!SNAKE_CASE.test(name)) {
        results.push({ message: `Property "${name}" is not snake_case (expected ${SNAKE_CASE.source}).`, path: [...path, 'properties', name] });
      }
    }
  });
  return results;
});

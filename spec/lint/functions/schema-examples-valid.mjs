// Every schema-level `examples` entry (the JSON Schema 2020-12 keyword) is valid against its
// own schema. Spectral's oas3-valid-schema-example only reads the singular `example` and
// `default`, so 3.1 `examples` arrays go unchecked without this rule. Schemas are found in the
// unresolved document (so findings point at their definition) and validated in their resolved
// form (so $refs inside them count) with Spectral's `schema` function.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { schema as validateAgainstSchema } from '@stoplight/spectral-functions';
import { eachSchema } from '../openapi/schemas.mjs';
import { isObject, valueAt } from '../openapi/pointer.mjs';
/** @import { LintResult } from '../openapi/pointer.mjs' */

export default createRulesetFunction({ input: null, options: null }, function schemaExamplesValid(document, _options, context) {
  const resolvedDocument = /** @type {{ resolved?: unknown }} */ (context.documentInventory).resolved ?? document;
  /** @type {LintResult[]} */
  const results = [];
  eachSchema(document, (schema, path) => {
    if (!Array.isArray(schema.examples)) return;
    const resolved = valueAt(resolvedDocument, path);
    if (!isObject(resolved)) return;
    schema.examples.forEach((example, index) => {
      const examplePath = [...path, 'examples', index];
      // Spectral's schema function answers synchronously; it is declared as any ruleset function, which may be async.
      const found =
        /** @type {LintResult[] | void} */ (
          validateAgainstSchema(example, { schema: resolved, dialect: 'draft2020-12', allErrors: true }, { ...context, path: examplePath })
        ) ?? [];
      for (const result of found) {
        results.push({ message: `examples[${index}] does not match its schema: ${result.message}`, path: result.path ?? examplePath });
      }
    });
  });
  return results;
});

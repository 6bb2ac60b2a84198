// Seed 2.4 and 9.3: responses may gain new optional fields and callers ignore the ones they do
// not recognise. A response schema that closes an object (`additionalProperties: false` or
// `unevaluatedProperties: false`) would fail a server that adds one, so no schema reachable from
// a response body, through any `$ref`, may close. Request bodies are the opposite (seed 4.1:
// unknown fields are rejected; decision-closed-request-bodies).
import { createRulesetFunction } from '@stoplight/spectral-core';
import { eachOperationResponse, operationLabel } from '../openapi/operations.mjs';
import { isObject } from '../openapi/pointer.mjs';
import { walkReachableSchema } from '../openapi/schemas.mjs';

const CLOSING_KEYWORDS = ['additionalProperties', 'unevaluatedProperties'];

export default createRulesetFunction({ input: null, options: null }, function openResponseSchemas(document) {
  const findings = new Map();
  for (const entry of eachOperationResponse(document)) {
    if (!isObject(entry.response.content)) continue;
    for (const [mediaType, media] of Object.entries(entry.response.content)) {
      if (!isObject(media)) continue;
      walkReachableSchema(document, media.schema, [...entry.responsePath, 'content', mediaType, 'schema'], (schema, path) => {
        for (const keyword of CLOSING_KEYWORDS) {
          if (schema[keyword] !== false) continue;
          const at = [...path, keyword];
          const key = at.join('/');
          if (findings.has(key)) continue;
          findings.set(key, {
            message: `This schema, reachable from the ${entry.status} response of ${operationLabel(entry)}, closes with \`${keyword}: false\`; seed 9.3 lets servers add response fields: remove it.`,
            path: at,
          });
        }
      });
    }
  }
  return [...findings.values()];
});

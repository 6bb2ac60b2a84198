// Seed 7: "All errors share one body." Every 4xx/5xx response of every operation has an
// application/json body whose schema is the shared Error schema, by reference.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { eachOperationResponse, isErrorStatus, operationLabel } from '../openapi/operations.mjs';
import { isObject } from '../openapi/pointer.mjs';
/** @import { LintResult } from '../openapi/pointer.mjs' */

export default createRulesetFunction(
  {
    input: null,
    options: {
      type: 'object',
      properties: { mediaType: { type: 'string' }, schemaRef: { type: 'string' } },
      required: ['mediaType', 'schemaRef'],
      additionalProperties: false,
    },
  },
  function errorResponseBody(document, { mediaType, schemaRef }) {
    /** @type {LintResult[]} */
    const results = [];
    const checked = new Set();
    for (const entry of eachOperationResponse(document)) {
      if (!isErrorStatus(entry.status)) continue;
      const key = JSON.stringify(entry.responsePath);
      if (checked.has(key)) continue;
      checked.add(key);
      const where = entry.viaRef
        ? `The component response ${String(entry.responsePath.at(-1))} (the ${entry.status} of ${operationLabel(entry)})`
        : `The ${entry.status} response of ${operationLabel(entry)}`;
      const media = isObject(entry.response.content) ? entry.response.content[mediaType] : undefined;
      if (!isObject(media)) {
        results.push({ message: `${where} has no ${mediaType} body.`, path: entry.responsePath });
      } else if (!isObject(media.schema) || media.schema.$ref !== schemaRef) {
        results.push({
          message: `${where}: the ${mediaType} schema must be \`$ref: '${schemaRef}'\`.`,
          path: [...entry.responsePath, 'content', mediaType, 'schema'],
        });
      }
    }
    return results;
  },
);

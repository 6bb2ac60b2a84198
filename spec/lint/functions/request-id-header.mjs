// Seed 2.7: "Every response carries an X-Request-ID header." Every response of every operation,
// and every component response, declares the header by referencing the one shared header
// component, so its description and schema cannot drift between responses.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { eachOperationResponse, operationLabel } from '../openapi/operations.mjs';
import { isObject } from '../openapi/pointer.mjs';
/** @import { JsonObject, LintResult, Path } from '../openapi/pointer.mjs' */

export default createRulesetFunction(
  {
    input: null,
    options: {
      type: 'object',
      properties: { header: { type: 'string' }, ref: { type: 'string' } },
      required: ['header', 'ref'],
      additionalProperties: false,
    },
  },
  function requestIdHeader(document, { header, ref }) {
    /** @type {LintResult[]} */
    const results = [];
    const checked = new Set();
    const check = (/** @type {JsonObject} */ response, /** @type {Path} */ responsePath, /** @type {string} */ where) => {
      const key = JSON.stringify(responsePath);
      if (checked.has(key)) return;
      checked.add(key);
      const headers = isObject(response.headers) ? response.headers : {};
      const name = Object.keys(headers).find((candidate) => candidate.toLowerCase() === header.toLowerCase());
      if (name === undefined) {
        results.push({ message: `${where} does not declare the ${header} response header.`, path: responsePath });
      } else if (!isObject(headers[name]) || headers[name].$ref !== ref) {
        results.push({ message: `${where}: the ${header} header must be \`$ref: '${ref}'\`.`, path: [...responsePath, 'headers', name] });
      }
    };
    for (const entry of eachOperationResponse(document)) {
      const where = entry.viaRef
        ? `The component response ${String(entry.responsePath.at(-1))} (the ${entry.status} of ${operationLabel(entry)})`
        : `The ${entry.status} response of ${operationLabel(entry)}`;
      check(entry.response, entry.responsePath, where);
    }
    const components = isObject(document.components?.responses) ? document.components.responses : {};
    for (const [name, response] of Object.entries(components)) {
      if (isObject(response) && !('$ref' in response)) check(response, ['components', 'responses', name], `The component response ${name}`);
    }
    return results;
  },
);

// Seed 4.4 and 5.4: GET /health and GET /openapi.json need no key. The document declares a
// bearer requirement globally, so these operations must opt out explicitly with `security: []`.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { HTTP_METHODS } from '../openapi/operations.mjs';
import { isObject } from '../openapi/pointer.mjs';
/** @import { LintResult } from '../openapi/pointer.mjs' */

export default createRulesetFunction(
  {
    input: null,
    options: {
      type: 'object',
      properties: { paths: { type: 'array', items: { type: 'string' }, minItems: 1 } },
      required: ['paths'],
      additionalProperties: false,
    },
  },
  function publicEndpointsUnauthenticated(pathsObject, { paths }, context) {
    /** @type {LintResult[]} */
    const results = [];
    for (const pathKey of paths) {
      const pathItem = isObject(pathsObject) ? pathsObject[pathKey] : undefined;
      if (!isObject(pathItem)) {
        results.push({ message: `The unauthenticated endpoint ${pathKey} is missing.`, path: context.path });
        continue;
      }
      for (const method of HTTP_METHODS) {
        const operation = pathItem[method];
        if (!isObject(operation)) continue;
        const security = operation.security;
        if (!Array.isArray(security) || security.length !== 0) {
          results.push({
            message: `${method.toUpperCase()} ${pathKey} needs no key: it must declare \`security: []\`; found ${security === undefined ? 'none (inherits the document security)' : JSON.stringify(security)}.`,
            path: [...context.path, pathKey, method, ...(security === undefined ? [] : ['security'])],
          });
        }
      }
    }
    return results;
  },
);

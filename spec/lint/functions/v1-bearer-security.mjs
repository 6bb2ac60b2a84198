// Seed 5.1 and 5.2: every /v1 endpoint requires `Authorization: Bearer <key>`, keys having the
// prefix svc_live_. Each /v1 operation's effective security (its own, else the document's)
// must be non-empty, and every alternative must name an http bearer scheme with that prefix;
// an empty alternative `{}` would make the key optional.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { eachOperation, operationLabel } from '../openapi/operations.mjs';
import { isObject } from '../openapi/pointer.mjs';
/** @import { LintResult } from '../openapi/pointer.mjs' */

export default createRulesetFunction(
  {
    input: null,
    options: {
      type: 'object',
      properties: { pathPrefix: { type: 'string' }, keyPrefix: { type: 'string' } },
      required: ['pathPrefix', 'keyPrefix'],
      additionalProperties: false,
    },
  },
  function v1BearerSecurity(document, { pathPrefix, keyPrefix }) {
    const schemes = isObject(document.components?.securitySchemes) ? document.components.securitySchemes : {};
    const isBearerWithPrefix = (/** @type {string} */ name) => {
      const scheme = schemes[name];
      return isObject(scheme) && scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'bearer' && scheme['x-key-prefix'] === keyPrefix;
    };
    /** @type {LintResult[]} */
    const results = [];
    for (const entry of eachOperation(document)) {
      if (entry.pathKey !== pathPrefix && !entry.pathKey.startsWith(`${pathPrefix}/`)) continue;
      const own = entry.operation.security;
      const effective = own ?? document.security;
      const path = own !== undefined ? [...entry.path, 'security'] : entry.path;
      const label = operationLabel(entry);
      if (!Array.isArray(effective) || effective.length === 0) {
        results.push({ message: `${label} has no security requirement; ${pathPrefix} operations require a bearer key.`, path });
        continue;
      }
      effective.forEach((requirement, index) => {
        const names = isObject(requirement) ? Object.keys(requirement) : [];
        if (!names.some(isBearerWithPrefix)) {
          const at = own !== undefined ? [...path, index] : path;
          results.push({
            message: `${label}: security alternative ${index} (${names.join(', ') || 'empty'}) names no http bearer scheme with x-key-prefix "${keyPrefix}".`,
            path: at,
          });
        }
      });
    }
    return results;
  },
);

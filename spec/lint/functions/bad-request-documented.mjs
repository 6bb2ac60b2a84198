// Seed 4.5 and 7: an invalid request is 400 INVALID_REQUEST. An operation that takes input
// (parameters, its own or its path item's, or a request body) can receive invalid input, so it
// documents the 400 answer.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { HTTP_METHODS } from '../openapi/operations.mjs';
import { isObject } from '../openapi/pointer.mjs';
/** @import { LintResult } from '../openapi/pointer.mjs' */

export default createRulesetFunction({ input: null, options: null }, function badRequestDocumented(pathItem, _options, context) {
  if (!isObject(pathItem)) return [];
  const pathParameters = Array.isArray(pathItem.parameters) ? pathItem.parameters : [];
  /** @type {LintResult[]} */
  const results = [];
  for (const method of HTTP_METHODS) {
    const operation = pathItem[method];
    if (!isObject(operation)) continue;
    const ownParameters = Array.isArray(operation.parameters) ? operation.parameters : [];
    const takesInput = pathParameters.length + ownParameters.length > 0 || operation.requestBody !== undefined;
    const responses = isObject(operation.responses) ? operation.responses : {};
    if (takesInput && !('400' in responses)) {
      results.push({
        message: `${method.toUpperCase()} ${String(context.path[context.path.length - 1])} takes parameters or a body but documents no 400 response.`,
        path: [...context.path, method, 'responses'],
      });
    }
  }
  return results;
});

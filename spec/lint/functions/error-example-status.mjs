// Seed 7: each error code goes with one status. Every example of a 4xx/5xx response carries an
// `error.code` of the ErrorCode enum, and the response's status is that code's status: the one
// the seed states (x-codes), or for a name-only code the reference status recorded in the
// name-only-statuses open point. Both tables are read from the document being linted.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { readErrorCodeTables } from '../openapi/error-codes.mjs';
import { eachOperationResponse, isErrorStatus, operationLabel } from '../openapi/operations.mjs';
import { follow, isObject } from '../openapi/pointer.mjs';
/** @import { JsonObject, LintResult, Path } from '../openapi/pointer.mjs' */

export default createRulesetFunction(
  {
    input: null,
    options: {
      type: 'object',
      properties: { errorCodeSchema: { type: 'string' }, nameOnlyOpenPoint: { type: 'string' } },
      required: ['errorCodeSchema', 'nameOnlyOpenPoint'],
      additionalProperties: false,
    },
  },
  function errorExampleStatus(document, options) {
    const tables = readErrorCodeTables(document, options);
    /** @type {LintResult[]} */
    const results = [];
    for (const entry of eachOperationResponse(document)) {
      if (!isErrorStatus(entry.status)) continue;
      for (const example of responseExamples(document, entry)) {
        const problem = statusProblem(example.value, entry.status, tables);
        if (problem === null) continue;
        // A shared component response can sit under different statuses: report at the usage.
        const path = entry.viaRef ? entry.usagePath : example.path;
        results.push({ message: `${operationLabel(entry)} ${entry.status}, example ${example.name}: ${problem}`, path });
      }
    }
    return results;
  },
);

/**
 * The media-level `example` and `examples` of a response, with their values.
 * @param {unknown} document
 * @param {{ response: JsonObject, responsePath: Path }} entry
 */
function* responseExamples(document, { response, responsePath }) {
  if (!isObject(response.content)) return;
  for (const [mediaType, media] of Object.entries(response.content)) {
    if (!isObject(media)) continue;
    const mediaPath = [...responsePath, 'content', mediaType];
    if ('example' in media) yield { name: 'example', value: media.example, path: [...mediaPath, 'example'] };
    if (!isObject(media.examples)) continue;
    for (const [name, listed] of Object.entries(media.examples)) {
      const listedPath = [...mediaPath, 'examples', name];
      const followed = follow(document, listed, listedPath);
      if (followed === null || !isObject(followed.node)) continue;
      yield { name, value: followed.node.value, path: listedPath };
    }
  }
}

/**
 * What is wrong with an error example under a status, or null.
 * @param {unknown} value
 * @param {string} status a status key: `404`, or a range such as `4XX`
 * @param {ReturnType<typeof readErrorCodeTables>} tables
 */
function statusProblem(value, status, tables) {
  const code = isObject(value) && isObject(value.error) ? value.error.code : undefined;
  if (typeof code !== 'string') return 'has no error.code.';
  if (!tables.codes.includes(code)) return `error.code ${code} is not in the ErrorCode enum.`;
  const expected = tables.statusOf(code);
  if (expected === undefined) return `${code} has neither a stated nor a reference status.`;
  const matches = /XX$/i.test(status) ? String(expected)[0] === status[0] : String(expected) === status;
  return matches ? null : `${code} is answered with ${expected}, not ${status}.`;
}

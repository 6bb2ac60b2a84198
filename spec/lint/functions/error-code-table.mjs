// Seed 7 lists the codes, with a status for some and "Name only" for the rest. The ErrorCode
// enum and its x-codes table must list the same codes; a stated status is an integer, a
// name-only code has status null and a reference status in the name-only-statuses open point,
// and that open point lists no other code. Servers and suites look statuses up in these tables.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { readErrorCodeTables } from '../openapi/error-codes.mjs';
import { isObject } from '../openapi/pointer.mjs';
/** @import { LintResult } from '../openapi/pointer.mjs' */

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
  function errorCodeTable(document, options) {
    const { schemaPath, codes, statedTable, referenceStatuses, referenceStatusesPath } = readErrorCodeTables(document, options);
    if (codes.length === 0) return [{ message: `${options.errorCodeSchema} has no enum of error codes.`, path: schemaPath }];
    /** @type {LintResult[]} */
    const results = [];
    const tablePath = [...schemaPath, 'x-codes'];
    for (const code of codes) {
      if (!(code in statedTable))
        results.push({ message: `${code} is in the enum but has no x-codes entry.`, path: [...schemaPath, 'enum', codes.indexOf(code)] });
    }
    for (const [code, entry] of Object.entries(statedTable)) {
      const at = [...tablePath, code];
      if (!codes.includes(code)) results.push({ message: `x-codes lists ${code}, which the enum does not.`, path: at });
      const status = isObject(entry) ? entry.status : undefined;
      if (status === null) {
        if (!isValidStatus(referenceStatuses[code])) {
          results.push({
            message: `Name-only code ${code} has no reference status in open point ${options.nameOnlyOpenPoint}.`,
            path: referenceStatusesPath ?? at,
          });
        }
      } else if (!isValidStatus(status)) {
        results.push({ message: `x-codes ${code} status must be an HTTP status or null (name only); got ${JSON.stringify(status)}.`, path: at });
      }
    }
    // Reference statuses are read from the open point, so they exist only where its path does.
    if (referenceStatusesPath !== null) {
      for (const code of Object.keys(referenceStatuses)) {
        const stated = statedTable[code];
        if (!isObject(stated) || stated.status !== null) {
          results.push({
            message: `Open point ${options.nameOnlyOpenPoint} gives a reference status to ${code}, which is not a name-only code.`,
            path: [...referenceStatusesPath, code],
          });
        }
      }
    }
    return results;
  },
);

function isValidStatus(/** @type {unknown} */ status) {
  return typeof status === 'number' && Number.isInteger(status) && status >= 100 && status <= 599;
}

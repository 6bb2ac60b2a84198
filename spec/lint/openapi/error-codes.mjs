// The error-code tables of the document being linted: the ErrorCode enum, its `x-codes`
// (status stated by the seed, null for name-only codes) and the reference statuses of the
// name-only codes, recorded in an open point. Rules read them from the document so that the
// spec stays the single source of truth.
import { isObject, refToPath, valueAt } from './pointer.mjs';

/**
 * @param {any} document the unresolved document
 * @param {{ errorCodeSchema: string, nameOnlyOpenPoint: string }} options
 */
export function readErrorCodeTables(document, { errorCodeSchema, nameOnlyOpenPoint }) {
  const schemaPath = refToPath(errorCodeSchema) ?? [];
  const schema = valueAt(document, schemaPath);
  const codes = isObject(schema) && Array.isArray(schema.enum) ? schema.enum.filter((code) => typeof code === 'string') : [];
  const statedTable = isObject(schema) && isObject(schema['x-codes']) ? schema['x-codes'] : {};
  const openPoints = Array.isArray(document?.['x-open-points']) ? document['x-open-points'] : [];
  const openPointIndex = openPoints.findIndex((point) => isObject(point) && point.id === nameOnlyOpenPoint);
  const choice = openPointIndex >= 0 ? openPoints[openPointIndex]['x-reference-choice'] : undefined;
  const referenceStatuses = isObject(choice) && isObject(choice.statuses) ? choice.statuses : {};
  return {
    schemaPath,
    codes,
    statedTable,
    referenceStatuses,
    referenceStatusesPath: openPointIndex >= 0 ? ['x-open-points', openPointIndex, 'x-reference-choice', 'statuses'] : null,
    /** The status a code must be answered with: the stated one, else the reference one; undefined if neither. */
    statusOf(/** @type {string} */ code) {
      const stated = isObject(statedTable[code]) ? statedTable[code].status : undefined;
      if (Number.isInteger(stated)) return stated;
      const reference = referenceStatuses[code];
      return Number.isInteger(reference) ? reference : undefined;
    },
  };
}

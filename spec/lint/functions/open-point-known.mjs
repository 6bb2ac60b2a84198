// A node marked `x-open-point: <id>` exists only because of a reference choice; suites never
// fail a server on it. The id must name an entry of the top-level `x-open-points`, or the
// marker would exempt a node without saying which open point justifies it.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { isObject } from '../openapi/pointer.mjs';
/** @import { LintResult, Path } from '../openapi/pointer.mjs' */

export default createRulesetFunction({ input: null, options: null }, function openPointKnown(document) {
  const points = Array.isArray(document['x-open-points']) ? document['x-open-points'] : [];
  const known = new Set(points.filter(isObject).map((point) => point.id));
  /** @type {LintResult[]} */
  const results = [];
  eachMarker(document, [], (id, path) => {
    if (!known.has(id)) results.push({ message: `x-open-point ${JSON.stringify(id)} is not an id of x-open-points.`, path });
  });
  return results;
});

/**
 * Calls `visit` with the value and path of every `x-open-point` marker in the document.
 * @param {unknown} node @param {Path} path @param {(id: unknown, path: Path) => void} visit
 */
function eachMarker(node, path, visit) {
  if (Array.isArray(node)) {
    node.forEach((child, index) => eachMarker(child, [...path, index], visit));
    return;
  }
  if (!isObject(node)) return;
  for (const [key, child] of Object.entries(node)) {
    if (key === 'x-open-point') visit(child, [...path, key]);
    else eachMarker(child, [...path, key], visit);
  }
}

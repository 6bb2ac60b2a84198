// A node marked `x-open-point: <id>` exists only because of a reference choice; suites never
// fail a server on it. The id must name an entry of the top-level `x-open-points`, or the
// marker would exempt a node without saying which open point justifies it. A parameter's
// `x-invalid-value` (whose invalid values' answer is open) names its open point the same way, and
// says whether a success stays ruled out (`success: never`) or not (`allowed`).
import { createRulesetFunction } from '@stoplight/spectral-core';
import { isObject } from '../openapi/pointer.mjs';
/** @import { LintResult, Path } from '../openapi/pointer.mjs' */

export default createRulesetFunction({ input: null, options: null }, function openPointKnown(document) {
  const points = Array.isArray(document['x-open-points']) ? document['x-open-points'] : [];
  const known = new Set(points.filter(isObject).map((point) => point.id));
  /** @type {LintResult[]} */
  const results = [];
  eachValueOf('x-open-point', document, [], (id, path) => {
    if (!known.has(id)) results.push({ message: `x-open-point ${JSON.stringify(id)} is not an id of x-open-points.`, path });
  });
  eachValueOf('x-invalid-value', document, [], (rule, path) => {
    if (!isObject(rule) || !known.has(rule.open_point)) results.push({ message: `x-invalid-value names no id of x-open-points in open_point.`, path });
    else if (rule.success !== 'never' && rule.success !== 'allowed')
      results.push({ message: `x-invalid-value success is "never" or "allowed", not ${JSON.stringify(rule.success)}.`, path });
  });
  return results;
});

/**
 * Calls `visit` with the value and path of every member named `name` in the document.
 * @param {string} name @param {unknown} node @param {Path} path @param {(value: unknown, path: Path) => void} visit
 */
function eachValueOf(name, node, path, visit) {
  if (Array.isArray(node)) {
    node.forEach((child, index) => eachValueOf(name, child, [...path, index], visit));
    return;
  }
  if (!isObject(node)) return;
  for (const [key, child] of Object.entries(node)) {
    if (key === name) visit(child, [...path, key]);
    else eachValueOf(name, child, [...path, key], visit);
  }
}

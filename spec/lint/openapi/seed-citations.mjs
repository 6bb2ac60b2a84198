// The `x-seed-section` citations of a document, wherever they sit.
import { isObject } from './pointer.mjs';

/**
 * Calls `visit` with the value and path of every `x-seed-section` in the document.
 * @param {unknown} node
 * @param {Array<string | number>} path
 * @param {(cited: unknown, path: Array<string | number>) => void} visit
 */
export function eachCitation(node, path, visit) {
  if (Array.isArray(node)) {
    node.forEach((child, position) => eachCitation(child, [...path, position], visit));
    return;
  }
  if (!isObject(node)) return;
  for (const [key, child] of Object.entries(node)) {
    if (key === 'x-seed-section') visit(child, [...path, key]);
    else eachCitation(child, [...path, key], visit);
  }
}

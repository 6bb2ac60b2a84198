// Local JSON references ("#/components/...") of the document being linted.
// Lint functions read the unresolved document so they can tell a $ref from an inline object
// and report the place a fix belongs; this module follows a $ref when they need the target.

/**
 * @typedef {Array<string | number>} Path  Where a node lives in the document.
 * @typedef {Record<string, any>} JsonObject  An object of the parsed document (see isObject).
 * @typedef {import('@stoplight/spectral-core').IFunctionResult} LintResult  One finding of a lint function.
 */

/**
 * A JSON object (not an array, not null). Its members are `any`: the document is parsed YAML of
 * no declared type, and every lint function checks what it reads before relying on it.
 * @param {unknown} value
 * @returns {value is Record<string, any>}
 */
export function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The path segments of a local reference, or null for anything that is not "#/...".
 * @param {unknown} ref
 * @returns {string[] | null}
 */
export function refToPath(ref) {
  if (typeof ref !== 'string' || !(ref === '#' || ref.startsWith('#/'))) return null;
  return ref
    .slice(2)
    .split('/')
    .filter((segment, index) => !(index === 0 && segment === ''))
    .map((segment) => decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * The value at a path of the document, or undefined.
 * @param {unknown} document
 * @param {ReadonlyArray<string | number>} path
 */
export function valueAt(document, path) {
  let node = document;
  for (const segment of path) {
    if (node === null || typeof node !== 'object' || !(segment in node)) return undefined;
    node = /** @type {Record<string, unknown>} */ (node)[segment];
  }
  return node;
}

/**
 * Follows the $ref chain of an OpenAPI object (response, parameter, header, example).
 * Returns the target and where it lives; `viaRef` tells whether any reference was followed.
 * Returns null when a reference does not resolve or loops.
 * @param {unknown} document
 * @param {unknown} node
 * @param {Array<string | number>} path where `node` itself lives
 * @returns {{ node: unknown, path: Array<string | number>, viaRef: boolean } | null}
 */
export function follow(document, node, path) {
  let current = node;
  let currentPath = path;
  const seen = new Set();
  while (isObject(current) && typeof current.$ref === 'string') {
    if (seen.has(current.$ref)) return null;
    seen.add(current.$ref);
    const targetPath = refToPath(current.$ref);
    if (targetPath === null) return null;
    const target = valueAt(document, targetPath);
    if (target === undefined) return null;
    current = target;
    currentPath = targetPath;
  }
  return { node: current, path: currentPath, viaRef: currentPath !== path };
}

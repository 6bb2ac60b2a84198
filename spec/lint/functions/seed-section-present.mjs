// Traceability: every path item, operation, component schema, response (component or inline),
// component example, parameter and header names the seed section(s) it comes from in
// `x-seed-section`, a non-empty array of section ids. $ref objects are skipped: the target
// carries the citation where it is defined.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { HTTP_METHODS } from '../openapi/operations.mjs';
import { isObject } from '../openapi/pointer.mjs';
/** @import { JsonObject, LintResult, Path } from '../openapi/pointer.mjs' */

export default createRulesetFunction({ input: null, options: null }, function seedSectionPresent(document) {
  /** @type {LintResult[]} */
  const results = [];
  for (const { node, path, kind } of citingNodes(document)) {
    const cited = node['x-seed-section'];
    const valid = Array.isArray(cited) && cited.length > 0 && cited.every((id) => typeof id === 'string' && id.length > 0);
    if (!valid) {
      results.push({
        message: `This ${kind} needs \`x-seed-section\`: a non-empty array of seed section ids; found ${cited === undefined ? 'none' : JSON.stringify(cited)}.`,
        path: cited === undefined ? path : [...path, 'x-seed-section'],
      });
    }
  }
  return results;
});

/**
 * @typedef {{ node: JsonObject, path: Path, kind: string }} CitingNode
 */

/**
 * The nodes that must cite the seed, each with what kind of node it is.
 * @param {JsonObject} document
 * @returns {Generator<CitingNode>}
 */
function* citingNodes(document) {
  const components = isObject(document.components) ? document.components : {};
  yield* entries(components.schemas, ['components', 'schemas'], 'component schema');
  yield* entries(components.examples, ['components', 'examples'], 'component example');
  yield* entries(components.parameters, ['components', 'parameters'], 'parameter');
  yield* entries(components.headers, ['components', 'headers'], 'header');
  for (const response of entries(components.responses, ['components', 'responses'], 'component response')) {
    yield response;
    yield* entries(response.node.headers, [...response.path, 'headers'], 'header');
  }
  for (const pathItem of entries(document.paths, ['paths'], 'path item')) {
    yield pathItem;
    yield* items(pathItem.node.parameters, [...pathItem.path, 'parameters'], 'parameter');
    for (const method of HTTP_METHODS) {
      const operation = pathItem.node[method];
      if (!isObject(operation)) continue;
      const at = [...pathItem.path, method];
      yield { node: operation, path: at, kind: 'operation' };
      yield* items(operation.parameters, [...at, 'parameters'], 'parameter');
      for (const response of entries(operation.responses, [...at, 'responses'], 'response')) {
        yield response;
        yield* entries(response.node.headers, [...response.path, 'headers'], 'header');
      }
    }
  }
}

/**
 * The inline (not $ref) object members of `map`, extensions (x-...) left out.
 * @param {unknown} map @param {Path} path @param {string} kind
 * @returns {Generator<CitingNode>}
 */
function* entries(map, path, kind) {
  if (!isObject(map)) return;
  for (const [key, node] of Object.entries(map)) {
    if (!key.startsWith('x-') && isObject(node) && !('$ref' in node)) yield { node, path: [...path, key], kind };
  }
}

/**
 * The inline (not $ref) objects of `list`.
 * @param {unknown} list @param {Path} path @param {string} kind
 * @returns {Generator<CitingNode>}
 */
function* items(list, path, kind) {
  if (!Array.isArray(list)) return;
  for (const [index, node] of list.entries()) {
    if (isObject(node) && !('$ref' in node)) yield { node, path: [...path, index], kind };
  }
}

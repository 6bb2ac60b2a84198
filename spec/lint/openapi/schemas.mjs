// Every JSON Schema of an OpenAPI 3.1 document, found where the OpenAPI structure puts them
// (components, parameters, headers, request and response bodies) and then through the
// subschema keywords of JSON Schema 2020-12. A $ref is not followed: the target is visited
// where it is defined, so each schema is reported once, at its own location.
import { HTTP_METHODS } from './operations.mjs';
import { isObject, refToPath, valueAt } from './pointer.mjs';

/**
 * @import { JsonObject, Path } from './pointer.mjs'
 * @typedef {(schema: JsonObject, path: Path) => void} SchemaVisitor
 */

const SINGLE_SUBSCHEMA = [
  'items',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'contentSchema',
];
const LIST_OF_SUBSCHEMAS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const MAP_OF_SUBSCHEMAS = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions'];

/**
 * Visits `schema` and every subschema inside it (boolean schemas excluded).
 * @param {unknown} schema
 * @param {Path} path
 * @param {SchemaVisitor} visit
 */
export function walkSchema(schema, path, visit) {
  if (!isObject(schema)) return;
  visit(schema, path);
  for (const keyword of SINGLE_SUBSCHEMA) {
    if (isObject(schema[keyword])) walkSchema(schema[keyword], [...path, keyword], visit);
  }
  for (const keyword of LIST_OF_SUBSCHEMAS) {
    const list = schema[keyword];
    if (Array.isArray(list)) list.forEach((child, index) => walkSchema(child, [...path, keyword, index], visit));
  }
  for (const keyword of MAP_OF_SUBSCHEMAS) {
    const map = schema[keyword];
    if (isObject(map)) for (const [name, child] of Object.entries(map)) walkSchema(child, [...path, keyword, name], visit);
  }
}

/**
 * Visits every schema of the document with its path.
 * @param {any} document the unresolved document
 * @param {SchemaVisitor} visit
 */
export function eachSchema(document, visit) {
  const components = isObject(document?.components) ? document.components : {};
  eachEntry(components.schemas, ['components', 'schemas'], (schema, path) => walkSchema(schema, path, visit));
  eachEntry(components.parameters, ['components', 'parameters'], (parameter, path) => parameterSchemas(parameter, path, visit));
  eachEntry(components.headers, ['components', 'headers'], (header, path) => parameterSchemas(header, path, visit));
  eachEntry(components.requestBodies, ['components', 'requestBodies'], (body, path) => contentSchemas(body, path, visit));
  eachEntry(components.responses, ['components', 'responses'], (response, path) => responseSchemas(response, path, visit));
  eachEntry(document?.paths, ['paths'], (pathItem, path) => pathItemSchemas(pathItem, path, visit));
  eachEntry(document?.webhooks, ['webhooks'], (pathItem, path) => pathItemSchemas(pathItem, path, visit));
}

/** @param {JsonObject} pathItem @param {Path} path @param {SchemaVisitor} visit */
function pathItemSchemas(pathItem, path, visit) {
  eachItem(pathItem.parameters, [...path, 'parameters'], (parameter, at) => parameterSchemas(parameter, at, visit));
  for (const method of HTTP_METHODS) {
    const operation = pathItem[method];
    if (!isObject(operation)) continue;
    const at = [...path, method];
    eachItem(operation.parameters, [...at, 'parameters'], (parameter, p) => parameterSchemas(parameter, p, visit));
    if (isObject(operation.requestBody)) contentSchemas(operation.requestBody, [...at, 'requestBody'], visit);
    eachEntry(operation.responses, [...at, 'responses'], (response, p) => responseSchemas(response, p, visit));
  }
}

/**
 * Parameters and headers carry a schema, or a content map with one.
 * @param {unknown} node @param {Path} path @param {SchemaVisitor} visit
 */
function parameterSchemas(node, path, visit) {
  if (!isObject(node) || '$ref' in node) return;
  walkSchema(node.schema, [...path, 'schema'], visit);
  contentSchemas(node, path, visit);
}

/** @param {unknown} response @param {Path} path @param {SchemaVisitor} visit */
function responseSchemas(response, path, visit) {
  if (!isObject(response) || '$ref' in response) return;
  contentSchemas(response, path, visit);
  eachEntry(response.headers, [...path, 'headers'], (header, at) => parameterSchemas(header, at, visit));
}

/** @param {unknown} node @param {Path} path @param {SchemaVisitor} visit */
function contentSchemas(node, path, visit) {
  if (!isObject(node) || '$ref' in node) return;
  eachEntry(node.content, [...path, 'content'], (mediaType, at) => walkSchema(mediaType.schema, [...at, 'schema'], visit));
}

/**
 * Each object member of `map` but extensions (x-...), with its path.
 * @param {unknown} map @param {Path} path @param {(value: JsonObject, path: Path) => void} fn
 */
function eachEntry(map, path, fn) {
  if (!isObject(map)) return;
  for (const [key, value] of Object.entries(map)) {
    if (isObject(value) && !key.startsWith('x-')) fn(value, [...path, key]);
  }
}

/** @param {unknown} list @param {Path} path @param {(item: unknown, path: Path) => void} fn */
function eachItem(list, path, fn) {
  if (Array.isArray(list)) list.forEach((item, index) => fn(item, [...path, index]));
}

/**
 * Visits `schema`, every subschema inside it, and every schema its `$ref`s reach, transitively;
 * each schema once, reported where it is defined (a component for a $ref target).
 * @param {any} document the unresolved document
 * @param {unknown} schema
 * @param {Array<string | number>} path where `schema` lives
 * @param {(schema: Record<string, any>, path: Array<string | number>) => void} visit
 */
export function walkReachableSchema(document, schema, path, visit) {
  const followed = new Set();
  const pending = [{ schema, path }];
  while (pending.length > 0) {
    const next = /** @type {{ schema: unknown, path: Array<string | number> }} */ (pending.pop());
    walkSchema(next.schema, next.path, (node, at) => {
      visit(node, at);
      const targetPath = refToPath(node.$ref);
      if (targetPath === null || followed.has(node.$ref)) return;
      followed.add(node.$ref);
      const target = valueAt(document, targetPath);
      if (isObject(target)) pending.push({ schema: target, path: targetPath });
    });
  }
}

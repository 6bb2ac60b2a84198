// Seed 2.2 and 4.1: unknown request fields are rejected with 400 INVALID_REQUEST. So every
// object schema a JSON request body can reach is closed (`additionalProperties: false`), unless
// it is a map whose `additionalProperties` is the schema of its values (questions, options), or
// a union (`oneOf`/`anyOf`) that only states `type: object` and leaves closing to its branches,
// which are walked and checked in turn (Question, ContentPart).
// Runs on the resolved document, so schemas reached through $ref are checked too.
// `not`, `if`, `then` and `else` only refine an instance's shape and are not walked.
import { createRulesetFunction } from '@stoplight/spectral-core';
import { isObject } from '../openapi/pointer.mjs';
/** @import { LintResult } from '../openapi/pointer.mjs' */

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json(?:\s*;.*)?$/i;
const SHAPE_KEYWORDS = {
  single: ['items', 'additionalProperties'],
  list: ['allOf', 'anyOf', 'oneOf', 'prefixItems'],
  map: ['properties', 'patternProperties', 'dependentSchemas'],
};

export default createRulesetFunction({ input: null, options: null }, function closedRequestBodies(requestBody, _options, context) {
  if (!isObject(requestBody) || !isObject(requestBody.content)) return [];
  /** @type {LintResult[]} */
  const results = [];
  const seen = new Set();
  for (const [mediaType, media] of Object.entries(requestBody.content)) {
    if (!JSON_MEDIA_TYPE.test(mediaType) || !isObject(media)) continue;
    walkShapes(media.schema, [...context.path, 'content', mediaType, 'schema'], seen, (schema, path) => {
      if (!isObjectSchema(schema) || isClosedByBranches(schema)) return;
      const additional = schema.additionalProperties;
      if (additional === false || isObject(additional)) return;
      results.push({
        message: `This object schema, reachable from the ${mediaType} request body, accepts unknown fields; set \`additionalProperties: false\` (found ${JSON.stringify(additional) ?? 'none'}).`,
        path,
      });
    });
  }
  return results;
});

/** @import { JsonObject, Path } from '../openapi/pointer.mjs' */

function isObjectSchema(/** @type {JsonObject} */ schema) {
  const type = schema.type;
  if (type === 'object' || (Array.isArray(type) && type.includes('object'))) return true;
  return type === undefined && (isObject(schema.properties) || isObject(schema.patternProperties) || 'additionalProperties' in schema);
}

function isClosedByBranches(/** @type {JsonObject} */ schema) {
  const branches = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  return branches !== undefined && branches.length > 0 && !isObject(schema.properties) && !isObject(schema.patternProperties);
}

/**
 * @param {unknown} schema @param {Path} path @param {Set<unknown>} seen schemas visited already
 * @param {(schema: JsonObject, path: Path) => void} visit
 */
function walkShapes(schema, path, seen, visit) {
  if (!isObject(schema) || seen.has(schema)) return;
  seen.add(schema);
  visit(schema, path);
  for (const keyword of SHAPE_KEYWORDS.single) walkShapes(schema[keyword], [...path, keyword], seen, visit);
  for (const keyword of SHAPE_KEYWORDS.list) {
    if (Array.isArray(schema[keyword])) schema[keyword].forEach((child, index) => walkShapes(child, [...path, keyword, index], seen, visit));
  }
  for (const keyword of SHAPE_KEYWORDS.map) {
    if (isObject(schema[keyword])) for (const [name, child] of Object.entries(schema[keyword])) walkShapes(child, [...path, keyword, name], seen, visit);
  }
}

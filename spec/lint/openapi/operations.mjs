// Operations and responses of an OpenAPI 3.1 document, as the lint functions walk them.
import { follow, isObject } from './pointer.mjs';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * Every operation under `paths`, with the path item it belongs to.
 * @param {any} document the unresolved document
 */
export function* eachOperation(document) {
  const paths = isObject(document?.paths) ? document.paths : {};
  for (const [pathKey, pathItem] of Object.entries(paths)) {
    if (!isObject(pathItem)) continue;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!isObject(operation)) continue;
      yield { pathKey, method, pathItem, operation, path: ['paths', pathKey, method] };
    }
  }
}

/**
 * Every response of every operation. `response` is the object after following a $ref,
 * `responsePath` where it lives (the component for a $ref), `usagePath` where the operation
 * lists it under its status. Unresolvable references are skipped: other rules report them.
 * @param {any} document the unresolved document
 */
export function* eachOperationResponse(document) {
  for (const entry of eachOperation(document)) {
    const responses = entry.operation.responses;
    if (!isObject(responses)) continue;
    for (const [status, listed] of Object.entries(responses)) {
      if (status.startsWith('x-')) continue;
      const usagePath = [...entry.path, 'responses', status];
      const followed = follow(document, listed, usagePath);
      if (followed === null || !isObject(followed.node)) continue;
      yield { ...entry, status, usagePath, response: followed.node, responsePath: followed.path, viaRef: followed.viaRef };
    }
  }
}

/** True for a 4xx or 5xx status key, including the ranges 4XX and 5XX. */
export function isErrorStatus(/** @type {string | number} */ status) {
  return /^[45]([0-9]{2}|XX)$/i.test(String(status));
}

/** A readable operation name for messages, e.g. "POST /v1/decide". */
export function operationLabel(/** @type {{ method: string, pathKey: string }} */ { method, pathKey }) {
  return `${method.toUpperCase()} ${pathKey}`;
}

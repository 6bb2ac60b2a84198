// How Prism 5.14 picks what it answers, as far as the mock tests predict it. Each rule was read in
// Prism's source (named below) and is pinned by a test in mock.test.ts, so an upgrade that changes
// one fails there rather than silently.
import { deref, isObject, resolvePointer, type Json, type JsonObject, type Operation } from '../../spec/index.ts';
import { namedExamples } from './spec-requests.ts';

/**
 * A request that breaks the request schema is answered with the first of these statuses the
 * operation documents (prism-http mocker/index.js, getExpectedCodesForViolations); Prefer: code
 * cannot change it. Without either, Prism sends its own 422 problem+json.
 */
export const INVALID_REQUEST_STATUSES = [422, 400] as const;

export function invalidRequestStatus(op: Operation): number {
  return INVALID_REQUEST_STATUSES.find((status) => op.statuses.includes(status)) ?? 422;
}

/**
 * Request bodies are read with micri's 10mb limit (prism-http-server server.js, parseRequestBody;
 * bytes' "mb" is 1024 * 1024). One byte more is answered by micri itself, outside the spec.
 */
export const BODY_LIMIT_BYTES = 10 * 1024 * 1024;

/**
 * The body Prism sends when the caller names no example: the media type's `example`, else the
 * first entry of its schema's `examples`, else the first named example (http-spec
 * oas3/transformers/content.js puts that "default" example first; the negotiator takes the first).
 */
export function defaultExampleValue(mediaObject: JsonObject): Json | undefined {
  if ('example' in mediaObject) return mediaObject.example as Json;
  const schemaExamples = schemaOf(mediaObject)?.examples;
  if (Array.isArray(schemaExamples) && schemaExamples.length > 0) return schemaExamples[0] as Json;
  return namedExamples(mediaObject)[0]?.value;
}

function schemaOf(mediaObject: JsonObject): JsonObject | undefined {
  const schema = mediaObject.schema;
  if (!isObject(schema)) return undefined;
  return typeof schema.$ref === 'string' ? (resolvePointer(schema.$ref) as JsonObject) : deref(schema);
}

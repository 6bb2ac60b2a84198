// Requests to the mock built from the spec alone: concrete paths, the key, and request-body examples.
import { deref, isObject, openapiDocument, type Json, type JsonObject, type Operation } from '../../spec/index.ts';
import { exampleAuthorization } from '../example-key.ts';

export interface MockRequest {
  method: string;
  /** Path and query, e.g. /v1/assets/asset_9c1d2e3f4a5b6c7d. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

export interface NamedExample {
  name: string;
  value: Json;
}

export interface BodyExample extends NamedExample {
  mediaType: string;
}

/** The named examples of a media type object, $refs followed, in document order. */
export function namedExamples(mediaObject: JsonObject): NamedExample[] {
  if (!isObject(mediaObject.examples)) return [];
  return Object.entries(mediaObject.examples).map(([name, example]) => ({ name, value: deref(example as JsonObject).value as Json }));
}

/** Every named example of the operation's request body, over all its media types. */
export function requestBodyExamples(op: Operation): BodyExample[] {
  if (!op.definition.requestBody) return [];
  const content = deref(op.definition.requestBody as JsonObject).content as JsonObject;
  return Object.entries(content).flatMap(([mediaType, mediaObject]) => namedExamples(mediaObject as JsonObject).map((example) => ({ mediaType, ...example })));
}

/** Parameters of the path item and of the operation, $refs followed. */
export function parametersOf(op: Operation): JsonObject[] {
  const pathItem = (openapiDocument.paths as JsonObject)[op.path] as JsonObject;
  const declared = [...((pathItem.parameters as Json[] | undefined) ?? []), ...((op.definition.parameters as Json[] | undefined) ?? [])];
  return declared.map((parameter) => deref(parameter as JsonObject));
}

/** The documented example of one parameter, e.g. parameterExample(op, 'header', 'X-Request-ID'). */
export function parameterExample(op: Operation, location: string, name: string): string {
  const parameter = parametersOf(op).find((candidate) => candidate.in === location && String(candidate.name).toLowerCase() === name.toLowerCase());
  if (parameter?.example === undefined) throw new Error(`${op.operationId} documents no example for ${location} parameter ${name}`);
  return String(parameter.example);
}

/** The operation's path with every path parameter replaced by its documented example. */
export function concretePath(op: Operation): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(parameterExample(op, 'path', name)));
}

export function isJsonMediaType(mediaType: string): boolean {
  return /^application\/(?:[\w.+-]+\+)?json$/.test(mediaType);
}

/** The bytes sent for an example: JSON for JSON media types, the string itself for the raw uploads. */
export function encodeBody(mediaType: string, value: Json): string {
  if (isJsonMediaType(mediaType)) return JSON.stringify(value);
  if (typeof value !== 'string') throw new Error(`A ${mediaType} example must be a string, got ${JSON.stringify(value)}`);
  return value;
}

/** A request the spec documents as valid: an example body (the first by default), example path parameters, a key when needed. */
export function validRequest(op: Operation, example: BodyExample | undefined = requestBodyExamples(op)[0]): MockRequest {
  const headers: Record<string, string> = op.requiresKey ? { authorization: exampleAuthorization() } : {};
  const request: MockRequest = { method: op.method.toUpperCase(), path: concretePath(op), headers };
  if (op.requestMediaTypes.length === 0) return request;
  if (!example) throw new Error(`${op.operationId} takes a body but documents no example of it`);
  return { ...request, headers: { ...headers, 'content-type': example.mediaType }, body: encodeBody(example.mediaType, example.value) };
}

/** The same request with some headers replaced (undefined removes one); header names are lower-case. */
export function withHeaders(request: MockRequest, changes: Record<string, string | undefined>): MockRequest {
  const headers = { ...request.headers };
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete headers[name];
    else headers[name] = value;
  }
  return { ...request, headers };
}

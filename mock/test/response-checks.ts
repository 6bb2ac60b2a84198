// Checks of one mock response against what the spec documents for its operation and status.
// Each returns the problems found as sentences ("expected ..., got ..."); empty means it passed.
import { deref, documentedResponse, isObject, schemaValidator, validateResponseBody, type JsonObject, type Operation } from '../../spec/index.ts';
import { jsonBody, type MockResponse } from './http.ts';

const SCHEMA_PREFIX = '#/components/schemas/';

/** The documented response headers of an operation and status, $refs followed, keyed by their documented name. */
export function documentedHeaders(op: Operation, status: number): Record<string, JsonObject> {
  const headers = documentedResponse(op.operationId, status)?.headers;
  if (!isObject(headers)) return {};
  return Object.fromEntries(Object.entries(headers).map(([name, header]) => [name, deref(header as JsonObject)]));
}

/** Required documented headers are present; headers whose schema is a component schema match it (reference mode). */
export function headerProblems(op: Operation, response: MockResponse): string[] {
  const problems: string[] = [];
  for (const [name, header] of Object.entries(documentedHeaders(op, response.status))) {
    const value = response.headers[name.toLowerCase()];
    if (value === undefined) {
      if (header.required === true) problems.push(`${name}: required on ${op.operationId} ${response.status}, absent`);
      continue;
    }
    const ref = isObject(header.schema) ? header.schema.$ref : undefined;
    if (typeof ref !== 'string' || !ref.startsWith(SCHEMA_PREFIX)) continue;
    const result = schemaValidator(ref.slice(SCHEMA_PREFIX.length), 'reference')(value);
    if (!result.valid) problems.push(`${name}: ${JSON.stringify(value)} breaks ${ref}: ${result.issues.map((issue) => issue.message).join('; ')}`);
  }
  return problems;
}

/** The body is JSON and meets the spec's schema for this operation and status, as written (reference mode). */
export function bodyProblems(op: Operation, response: MockResponse): string[] {
  if (response.mediaType !== 'application/json') return [`Content-Type: expected application/json, got ${JSON.stringify(response.headers['content-type'])}`];
  const result = validateResponseBody(op.operationId, response.status, jsonBody(response), 'reference');
  if (!result) return [`${op.operationId} documents no schema for status ${response.status}`];
  return result.issues.map((issue) => `body breaks ${result.schemaName} (${result.source}): ${issue.message}`);
}

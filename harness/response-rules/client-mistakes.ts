// Requests the seed says how to answer because the client got them wrong: a /v1 request without
// a valid key (5.5), a method or path the API does not have (7), a JSON body the seed rules out
// (2.1, 4.1, 8), an upload without a file (4.5). Such a request never gets a 5xx, and one the
// seed makes invalid never succeeds (Schemathesis's not_a_server_error and
// negative_data_rejection, restricted to what the seed states: the contract form of the request
// schemas relaxes every open point).
import { openPoint, operation, requestBodyLimitBytes, requestBodySchemaName, schemaValidator, type Validator } from '../../spec/index.ts';
import type { JudgedExchange } from './exchange.ts';
import { isSuccess, isVersionedPath, type ResponseRule } from './rule.ts';

const contractRequestValidators = new Map<string, Validator | undefined>();

/** The contract-form validator of an operation's JSON request body, or undefined when it takes none. */
function requestValidator(operationId: string): Validator | undefined {
  if (!contractRequestValidators.has(operationId)) {
    const name = operation(operationId).requestMediaTypes.includes('application/json') ? requestBodySchemaName(operationId) : undefined;
    contractRequestValidators.set(operationId, name ? schemaValidator(name, 'contract') : undefined);
  }
  return contractRequestValidators.get(operationId);
}

/**
 * Request fields whose very existence is an open point: the request schema has no such field
 * (the reference choice), and a server may accept one. They are taken out before a body is
 * judged, so that neither choice counts as a client's mistake.
 */
const OPEN_FIELDS: Record<string, ReadonlyArray<{ field: string; openPoint: string }>> = {
  decide: [{ field: 'model', openPoint: openPoint('model-selection').id }],
};

function withoutOpenFields(operationId: string, json: unknown): unknown {
  const open = OPEN_FIELDS[operationId];
  if (!open || typeof json !== 'object' || json === null || Array.isArray(json)) return json;
  const rest: Record<string, unknown> = { ...(json as Record<string, unknown>) };
  for (const { field } of open) delete rest[field];
  return rest;
}

const bodyBytes = (body: string | Uint8Array | undefined) => (body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);

/** A UTF-8 byte-order mark: RFC 8259 lets a parser ignore it, so a body after one is judged as the JSON it carries. */
function jsonAfterMark(body: string | Uint8Array): unknown {
  const text = typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  if (!text.startsWith('\uFEFF')) return undefined;
  try {
    return JSON.parse(text.slice(1));
  } catch {
    return undefined;
  }
}

/** Why the request of an exchange with a valid key is one the seed makes invalid, or undefined when it is not. */
export function invalidRequest(exchange: JudgedExchange): string | undefined {
  if (exchange.credential !== 'valid' || exchange.operationId === undefined) return undefined;
  if (exchange.operationId === 'uploadAsset') return bodyBytes(exchange.requestBody) === 0 ? 'an upload without a file (4.5)' : undefined;
  const validate = requestValidator(exchange.operationId);
  if (!validate) return undefined;
  if (bodyBytes(exchange.requestBody) > requestBodyLimitBytes) return `a body over ${requestBodyLimitBytes} bytes (4.1, 8)`;
  const json = exchange.requestJson ?? (exchange.requestBody === undefined ? undefined : jsonAfterMark(exchange.requestBody));
  if (json === undefined) return exchange.requestBody === undefined || bodyBytes(exchange.requestBody) === 0 ? 'no body (4.1)' : 'a body that is not JSON (4)';
  const result = validate(withoutOpenFields(exchange.operationId, json));
  return result.valid ? undefined : `a body the seed rules out (${result.issues[0]?.message ?? 'invalid'})`;
}

/** Why the request is a client's mistake the seed says how to answer, or undefined when it is not one. */
export function clientMistake(exchange: JudgedExchange): string | undefined {
  if (exchange.credential !== 'valid' && isVersionedPath(exchange.path)) return 'a /v1 request without a valid key (5.5: 401)';
  if (exchange.operationId === undefined) return 'a method and path the API does not have (7)';
  return invalidRequest(exchange);
}

export const clientMistakeRules: ResponseRule[] = [
  {
    id: 'not-a-server-error',
    level: 'MUST',
    seedSections: ['4', '5', '7'],
    title: "no 5xx for a client's mistake: a /v1 request without a valid key, an unknown method or path, an invalid body, an upload without a file",
    appliesTo: "every request that is a client's mistake the seed says how to answer",
    applies: (exchange) => clientMistake(exchange) !== undefined,
    judge: (exchange) =>
      exchange.status >= 500
        ? { expected: `a 4xx for ${clientMistake(exchange)}, ${exchange.method} ${exchange.path}`, observed: `status ${exchange.status}` }
        : undefined,
  },
  {
    id: 'invalid-rejected',
    level: 'MUST',
    seedSections: ['2.1', '4.1', '4.5', '8'],
    title: 'a request the seed makes invalid never succeeds',
    appliesTo:
      'every request with a valid key to an operation of the spec whose body the seed rules out (contract form of its request schema, 256 KiB, an upload without a file)',
    applies: (exchange) => invalidRequest(exchange) !== undefined,
    judge: (exchange) =>
      isSuccess(exchange)
        ? { expected: `a refusal of ${invalidRequest(exchange)}, ${exchange.method} ${exchange.path}`, observed: `status ${exchange.status}` }
        : undefined,
  },
];

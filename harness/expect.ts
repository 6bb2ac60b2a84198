// Expectations shared by the checks. Each throws CheckFailure stating what the seed requires
// and what the server did; none hides a check of its own.
import { errorCodes, schemaValidator, validateResponseBody } from '../spec/index.ts';
import { CheckFailure } from './check.ts';
import type { Reply } from './http.ts';
import { isSuccess } from './status.ts';

const statedStatus = new Map(errorCodes.map((entry) => [entry.code, entry.statedStatus]));
const requestIdShape = schemaValidator('RequestId', 'contract');

export function describeReply(reply: Reply): string {
  const code = reply.json?.error?.code;
  const body = reply.text.length > 160 ? `${reply.text.slice(0, 160)}…` : reply.text;
  return `status ${reply.status}${typeof code === 'string' ? ` with code ${code}` : ''}${code ? '' : ` and body ${JSON.stringify(body)}`}`;
}

export { isSuccess } from './status.ts';

export function expectStatus(reply: Reply, expected: number | number[] | '2xx', what = ''): void {
  const ok = expected === '2xx' ? isSuccess(reply) : Array.isArray(expected) ? expected.includes(reply.status) : reply.status === expected;
  if (!ok) {
    const wanted = expected === '2xx' ? 'a 2xx status' : `status ${Array.isArray(expected) ? expected.join(' or ') : expected}`;
    throw new CheckFailure(`${wanted}${what ? ` ${what}` : ''}`, describeReply(reply));
  }
}

export function expectSuccess(reply: Reply, what = ''): void {
  expectStatus(reply, '2xx', what);
}

/** Any status but a success: where the seed requires a refusal and leaves its status open. */
export function expectNotSuccess(reply: Reply, what: string): void {
  if (isSuccess(reply)) throw new CheckFailure(`an error status for ${what}`, describeReply(reply));
}

/** The X-Request-ID header is present and well-formed (seed 2.7). */
export function expectRequestIdHeader(reply: Reply): string {
  const id = reply.headers['x-request-id'];
  if (id === undefined) throw new CheckFailure('an X-Request-ID header on the response', `none on a ${reply.status} response`);
  if (!requestIdShape(id).valid) throw new CheckFailure('an X-Request-ID of 1 to 128 letters, digits, . _ : -', JSON.stringify(id));
  return id;
}

/**
 * The seed's error body (section 7): validated against the Error schema, the code (if given)
 * and its stated status (when the seed states one), and request_id equal to X-Request-ID.
 */
export function expectErrorBody(reply: Reply, code?: string | string[], operationId = 'decide'): void {
  if (reply.status < 400) throw new CheckFailure(`an error status${code ? ` with ${[code].flat().join(' or ')}` : ''}`, describeReply(reply));
  if (reply.json === undefined) throw new CheckFailure('a JSON error body', `a ${reply.status} with body ${JSON.stringify(reply.text.slice(0, 160))}`);
  const result = validateResponseBody(operationId, reply.status, reply.json, 'contract');
  if (result && !result.valid) throw new CheckFailure('the error body of seed section 7', result.issues.map((issue) => issue.message).join('; '));
  const actual = reply.json.error.code as string;
  const codes = code === undefined ? undefined : [code].flat();
  if (codes && !codes.includes(actual)) throw new CheckFailure(`error code ${codes.join(' or ')}`, describeReply(reply));
  const stated = statedStatus.get(actual);
  if (stated !== null && stated !== undefined && stated !== reply.status) {
    throw new CheckFailure(`status ${stated} for ${actual} (seed 7)`, `status ${reply.status}`);
  }
  const header = reply.headers['x-request-id'];
  if (reply.json.error.request_id !== header && reply.json.error.request_id !== null) {
    throw new CheckFailure(
      'error.request_id equal to the X-Request-ID header',
      `${JSON.stringify(reply.json.error.request_id)} vs header ${JSON.stringify(header)}`,
    );
  }
}

/** A failure with the stated status and code, e.g. expectError(reply, 401, 'UNAUTHORIZED'). */
export function expectError(reply: Reply, status: number, code: string | string[], operationId = 'decide'): void {
  expectStatus(reply, status, `with ${[code].flat().join(' or ')}`);
  expectErrorBody(reply, code, operationId);
}

/** The body validates against the spec for this operation and status, in contract mode. */
export function expectValidBody(reply: Reply, operationId: string): void {
  if (reply.json === undefined) throw new CheckFailure(`a JSON body for ${operationId}`, `${JSON.stringify(reply.text.slice(0, 160))}`);
  const result = validateResponseBody(operationId, reply.status, reply.json, 'contract');
  if (result && !result.valid) {
    throw new CheckFailure(
      `a body that meets the ${result.schemaName} schema`,
      result.issues
        .slice(0, 5)
        .map((issue) => issue.message)
        .join('; '),
    );
  }
}

import { randomBytes, randomUUID } from 'node:crypto';
import { describe } from 'vitest';
import { isOperation, rewriteJson, type ProxiedRequest, type ProxiedResponse } from '../../harness/testing/mutating-proxy.ts';
import { proveChecks } from './support/proof.ts';

const withoutRequestId = (received: ProxiedResponse): ProxiedResponse => {
  const { 'x-request-id': _dropped, ...headers } = received.headers;
  return { ...received, headers };
};
const withRequestId = (received: ProxiedResponse, id: string): ProxiedResponse => ({ ...received, headers: { ...received.headers, 'x-request-id': id } });
/** Sets the id in the header and, on errors, in error.request_id, so only the id's form is wrong. */
const withIdEverywhere = (received: ProxiedResponse, id: string): ProxiedResponse =>
  withRequestId(received.status >= 400 ? rewriteJson(received, (body) => ({ error: { ...body.error, request_id: id } })) : received, id);
const callerSent = (sent: ProxiedRequest) => sent.headers['x-request-id'] !== undefined;
const isDecide = (sent: ProxiedRequest) => isOperation(sent, 'POST', '/v1/decide');
/** 2.7's form of a caller id, written out here so that the proofs do not share the checks' reading of it. */
const isWellFormedCallerId = (id: string) => /^[A-Za-z0-9._:-]{1,128}$/.test(id);
const invalidCallerId = (sent: ProxiedRequest) => callerSent(sent) && !isWellFormedCallerId(sent.headers['x-request-id']!);

describe('request-ids checks', () => {
  proveChecks('request-ids', {
    'REQID-ON-SUCCESS': [
      {
        fault: 'drops X-Request-ID on every 2xx response',
        mutation: () => ({ response: (received) => (received.status < 300 ? withoutRequestId(received) : received) }),
      },
      {
        fault: 'drops X-Request-ID on GET /health only',
        mutation: () => ({ response: (received, sent) => (isOperation(sent, 'GET', '/health') ? withoutRequestId(received) : received) }),
      },
      {
        fault: 'sends an X-Request-ID with a slash on GET /openapi.json',
        mutation: () => ({ response: (received, sent) => (isOperation(sent, 'GET', '/openapi.json') ? withRequestId(received, 'req/1') : received) }),
      },
    ],
    'REQID-ON-ERRORS': [
      {
        fault: 'drops X-Request-ID on every error response',
        mutation: () => ({ response: (received) => (received.status >= 400 ? withoutRequestId(received) : received) }),
      },
      {
        fault: 'drops X-Request-ID on 404s of unknown routes',
        mutation: () => ({ response: (received, sent) => (sent.path.startsWith('/v1/no-such-route') ? withoutRequestId(received) : received) }),
      },
      { fault: 'drops X-Request-ID on 401s', mutation: () => ({ response: (received) => (received.status === 401 ? withoutRequestId(received) : received) }) },
    ],
    'REQID-CALLER-KEPT': [
      {
        fault: 'replaces caller ids with generated ones',
        mutation: () => ({ response: (received, sent) => (callerSent(sent) ? withIdEverywhere(received, `req_${randomBytes(8).toString('hex')}`) : received) }),
      },
      {
        fault: 'keeps caller ids on successes only',
        mutation: () => ({
          response: (received, sent) =>
            callerSent(sent) && received.status >= 400 ? withIdEverywhere(received, `req_${randomBytes(8).toString('hex')}`) : received,
        }),
      },
      {
        fault: 'rewrites ":" in caller ids to "_"',
        mutation: () => ({
          response: (received, sent) => (callerSent(sent) ? withIdEverywhere(received, sent.headers['x-request-id']!.replace(/:/g, '_')) : received),
        }),
      },
    ],
    'REQID-CALLER-KEPT-128': [
      {
        fault: 'truncates caller ids to 64 characters',
        mutation: () => ({
          response: (received, sent) => (callerSent(sent) ? withIdEverywhere(received, sent.headers['x-request-id']!.slice(0, 64)) : received),
        }),
      },
    ],
    'REQID-CALLER-CASE-KEPT': [
      {
        fault: 'lower-cases caller ids',
        mutation: () => ({
          response: (received, sent) => (callerSent(sent) ? withIdEverywhere(received, sent.headers['x-request-id']!.toLowerCase()) : received),
        }),
      },
      {
        fault: 'upper-cases caller ids on decide',
        mutation: () => ({
          response: (received, sent) =>
            callerSent(sent) && isDecide(sent) ? withIdEverywhere(received, sent.headers['x-request-id']!.toUpperCase()) : received,
        }),
      },
    ],
    'REQID-INVALID-CALLER-NOT-ECHOED': [
      {
        fault: 'echoes invalid caller ids (too long, bad characters) back',
        mutation: () => ({ response: (received, sent) => (invalidCallerId(sent) ? withIdEverywhere(received, sent.headers['x-request-id']!) : received) }),
      },
      {
        fault: 'echoes an empty caller id as an empty X-Request-ID',
        mutation: () => ({ response: (received, sent) => (sent.headers['x-request-id'] === '' ? withIdEverywhere(received, '') : received) }),
      },
      {
        fault: 'sends no X-Request-ID when the caller id is empty',
        mutation: () => ({ response: (received, sent) => (sent.headers['x-request-id'] === '' ? withoutRequestId(received) : received) }),
      },
      {
        fault: 'echoes a caller id of 129 characters only',
        mutation: () => ({
          response: (received, sent) =>
            invalidCallerId(sent) && sent.headers['x-request-id']!.length > 128 ? withIdEverywhere(received, sent.headers['x-request-id']!) : received,
        }),
      },
      {
        fault: 'truncates a too-long caller id to 128 characters',
        mutation: () => ({
          response: (received, sent) =>
            invalidCallerId(sent) && sent.headers['x-request-id']!.length > 128
              ? withIdEverywhere(received, sent.headers['x-request-id']!.slice(0, 128))
              : received,
        }),
      },
      {
        fault: 'replaces bad characters of a caller id with "_"',
        mutation: () => ({
          response: (received, sent) =>
            invalidCallerId(sent) ? withIdEverywhere(received, sent.headers['x-request-id']!.replace(/[^A-Za-z0-9._:-]/g, '_').slice(0, 128)) : received,
        }),
      },
      {
        fault: 'refuses an invalid caller id with a 400 that has no error body',
        mutation: () => ({
          response: (received, sent) =>
            invalidCallerId(sent)
              ? { ...received, status: 400, headers: { ...received.headers, 'content-type': 'text/plain' }, body: Buffer.from('Bad Request') }
              : received,
        }),
      },
      {
        fault: 'crashes (500) on an invalid caller id',
        mutation: () => ({
          response: (received, sent) =>
            invalidCallerId(sent)
              ? {
                  ...received,
                  status: 500,
                  body: Buffer.from(
                    JSON.stringify({ error: { code: 'INTERNAL_ERROR', message: 'Internal error.', request_id: received.headers['x-request-id'] } }),
                  ),
                }
              : received,
        }),
      },
    ],
    'REQID-GENERATED-FORM': [
      {
        fault: 'generates UUIDs',
        mutation: () => ({ response: (received, sent) => (callerSent(sent) ? received : withIdEverywhere(received, randomUUID())) }),
      },
      {
        fault: 'generates req_ ids with non-hex characters on errors',
        mutation: () => ({
          response: (received, sent) =>
            !callerSent(sent) && received.status >= 400 ? withIdEverywhere(received, `req_${Date.now().toString(36)}zz`) : received,
        }),
      },
    ],
    'REQID-GENERATED-UNIQUE': [
      {
        fault: 'generates the same id for every decide',
        mutation: () => ({ response: (received, sent) => (!callerSent(sent) && isDecide(sent) ? withIdEverywhere(received, 'req_0000') : received) }),
      },
    ],
    'REQID-ERROR-BODY-MATCHES': [
      {
        fault: 'puts another id than the header in error bodies',
        mutation: () => ({
          response: (received) =>
            received.status >= 400
              ? rewriteJson(received, (body) => ({ error: { ...body.error, request_id: `req_${randomBytes(8).toString('hex')}` } }))
              : received,
        }),
      },
      {
        fault: "puts a generated id, not the caller's, in error bodies",
        mutation: () => ({
          response: (received, sent) =>
            callerSent(sent) && received.status >= 400 ? rewriteJson(received, (body) => ({ error: { ...body.error, request_id: 'req_feed' } })) : received,
        }),
      },
      {
        fault: 'leaves request_id out of 404 error bodies',
        mutation: () => ({
          response: (received) =>
            received.status === 404 ? rewriteJson(received, (body) => ({ error: { code: body.error.code, message: body.error.message } })) : received,
        }),
      },
    ],
    'REQID-NOT-IN-DECIDE-BODY': [
      {
        fault: 'adds request_id to decide bodies',
        mutation: () => ({
          response: (received, sent) =>
            isDecide(sent) && received.status === 200 ? rewriteJson(received, (body) => ({ ...body, request_id: received.headers['x-request-id'] })) : received,
        }),
      },
      {
        fault: 'tucks the request id into usage',
        mutation: () => ({
          response: (received, sent) =>
            isDecide(sent) && received.status === 200
              ? rewriteJson(received, (body) => ({ ...body, usage: { ...body.usage, trace: received.headers['x-request-id'] } }))
              : received,
        }),
      },
      {
        fault: 'echoes only caller ids into decide bodies',
        mutation: () => ({
          response: (received, sent) =>
            isDecide(sent) && callerSent(sent) && received.status === 200
              ? rewriteJson(received, (body) => ({ ...body, trace: sent.headers['x-request-id'] }))
              : received,
        }),
      },
    ],
  });
});

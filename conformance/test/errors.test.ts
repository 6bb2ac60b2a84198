import { describe } from 'vitest';
import { isOperation, rewriteJson, type Mutation, type ProxiedRequest, type ProxiedResponse } from '../../harness/testing/mutating-proxy.ts';
import { proveChecks } from './support/proof.ts';

/** Rewrites the error bodies a server sends for requests that `applies` to. */
const onErrors = (
  applies: (sent: ProxiedRequest, received: ProxiedResponse) => boolean,
  edit: (body: any, received: ProxiedResponse) => unknown,
): Mutation => ({
  response: (received, sent) => (received.status >= 400 && applies(sent, received) ? rewriteJson(received, (body) => edit(body, received)) : received),
});
const anyRequest = () => true;
const isDecide = (sent: ProxiedRequest) => isOperation(sent, 'POST', '/v1/decide');

describe('errors checks', () => {
  proveChecks('errors', {
    'ERRORS-BODY-UNKNOWN-ROUTE': [
      {
        fault: "answers unknown routes with the framework's plain-text 404",
        mutation: () => ({
          response: (received) =>
            received.status === 404 && received.body.includes('NOT_FOUND')
              ? { ...received, headers: { ...received.headers, 'content-type': 'text/plain' }, body: Buffer.from('Not Found') }
              : received,
        }),
      },
    ],
    'ERRORS-BODY-MALFORMED-JSON': [
      {
        fault: "answers malformed JSON in the framework's own error shape",
        mutation: () => onErrors(isDecide, () => ({ statusCode: 400, error: 'Bad Request', message: 'Unexpected end of JSON input' })),
      },
    ],
    'ERRORS-BODY-UNKNOWN-FIELD': [
      {
        fault: 'leaves request_id out of the error body',
        mutation: () => onErrors(isDecide, (body) => ({ error: { code: body.error.code, message: body.error.message } })),
      },
      {
        fault: 'sends the message as a list of issues',
        mutation: () => onErrors(isDecide, (body) => ({ error: { ...body.error, message: [body.error.message] } })),
      },
    ],
    'ERRORS-BODY-MISSING-KEY': [
      {
        fault: 'sends an error.request_id other than the X-Request-ID header',
        mutation: () =>
          onErrors(
            (_sent, received) => received.status === 401,
            (body) => ({ error: { ...body.error, request_id: 'req_0000other' } }),
          ),
      },
    ],
    'ERRORS-BODY-UNKNOWN-ASSET': [
      {
        fault: 'uses a code that is not in the list',
        mutation: () =>
          onErrors(
            (sent) => isOperation(sent, 'GET', '/v1/assets/'),
            (body) => ({ error: { ...body.error, code: 'ASSET_MISSING' } }),
          ),
      },
      {
        fault: 'puts the fields at the top level',
        mutation: () =>
          onErrors(
            (sent) => isOperation(sent, 'GET', '/v1/assets/'),
            (body) => body.error,
          ),
      },
    ],
    'ERRORS-OPEN-REFUSALS-BOUNDED': [
      {
        fault: 'crashes (500) on a JSON body sent as text/plain',
        mutation: () => ({
          response: (received, sent) => (isDecide(sent) && /^text\/plain/.test(sent.headers['content-type'] ?? '') ? { ...received, status: 500 } : received),
        }),
      },
      {
        fault: 'crashes (500) on a decide whose Content-Type is empty',
        mutation: () => ({ response: (received, sent) => (isDecide(sent) && sent.headers['content-type'] === '' ? { ...received, status: 500 } : received) }),
      },
      {
        fault: 'refuses a decide whose Content-Type is empty in its own error shape',
        mutation: () =>
          onErrors(
            (sent) => isDecide(sent) && sent.headers['content-type'] === '',
            () => ({ statusCode: 415, error: 'Unsupported Media Type', message: 'Unsupported Media Type: ' }),
          ),
      },
      {
        fault: 'refuses a malformed asset id in the path with a plain-text 400',
        mutation: () => ({
          response: (received, sent) =>
            isOperation(sent, 'GET', '/v1/assets/not-an-asset')
              ? { ...received, status: 400, headers: { ...received.headers, 'content-type': 'text/plain' }, body: Buffer.from('bad id') }
              : received,
        }),
      },
      {
        fault: 'answers an unknown route 200 with an empty object',
        mutation: () => ({
          response: (received, sent) =>
            sent.path.startsWith('/v1/conformance-no-such-route') ? { ...received, status: 200, body: Buffer.from('{}') } : received,
        }),
      },
      {
        fault: 'refuses empty options with an error.request_id other than the header',
        mutation: () =>
          onErrors(
            (sent) => isDecide(sent) && sent.body.includes('"options":{}'),
            (body) => ({ error: { ...body.error, request_id: 'req_0000other' } }),
          ),
      },
      {
        fault: 'refuses a noul question without instructions with a code not in the list',
        mutation: () =>
          onErrors(
            (sent) => isDecide(sent) && sent.body.includes('"type":"noul"}'),
            (body) => ({ error: { ...body.error, code: 'MISSING_INSTRUCTIONS' } }),
          ),
      },
    ],
    'ERRORS-AFTER-DELETE-BOUNDED': [
      {
        fault: 'still answers decisions that reference a deleted asset',
        mutation: () => ({
          response: (received, sent) =>
            isDecide(sent) && received.status >= 400 && /"image"/.test(sent.body.toString())
              ? { ...received, status: 200, body: Buffer.from(JSON.stringify({ model: 'svc-one-v1', answers: {}, usage: { input_tokens: 1 } })) }
              : received,
        }),
      },
      {
        fault: 'answers a read of a deleted asset 410 in the framework shape',
        mutation: () =>
          onErrors(
            (sent) => isOperation(sent, 'GET', '/v1/assets/asset_'),
            () => ({ statusCode: 404, message: 'gone' }),
          ),
      },
    ],
    'ERRORS-REQUEST-ID-NOT-NULL': [
      {
        fault: 'sends error.request_id null on every error, with the X-Request-ID header',
        mutation: () => onErrors(anyRequest, (body) => ({ error: { ...body.error, request_id: null } })),
      },
      {
        fault: 'sends error.request_id null on 401s only',
        mutation: () =>
          onErrors(
            (_sent, received) => received.status === 401,
            (body) => ({ error: { ...body.error, request_id: null } }),
          ),
      },
    ],
    'ERRORS-JSON-MEDIA-TYPE': [
      {
        fault: 'labels error bodies text/plain',
        mutation: () => ({
          response: (received) =>
            received.status >= 400 ? { ...received, headers: { ...received.headers, 'content-type': 'text/plain; charset=utf-8' } } : received,
        }),
      },
    ],
    'ERRORS-NO-INTERNALS': [
      {
        fault: 'appends the stack trace to the message of parser errors',
        mutation: () =>
          onErrors(isDecide, (body) => ({
            error: {
              ...body.error,
              message: `${body.error.message}\n    at JSON.parse (<anonymous>)\n    at parseBody (/srv/decision/src/http/body.js:42:17)`,
            },
          })),
      },
      {
        fault: 'names the source file that failed',
        mutation: () =>
          onErrors(anyRequest, (body) => ({
            error: { ...body.error, message: `${body.error.message} (raised in C:\\services\\decision\\handlers\\validate.py)` },
          })),
      },
    ],
  });
});

// The coverage phase's checks pass against the reference server, and each MUST check fails against
// a server with one bug that no hand-written list of cases had: an empty text/plain upload
// accepted; null taken for an optional string; `Context` or `QUESTIONS` read as `context` and
// `questions`; the body limit enforced through Content-Length only, so a chunked body over it is
// read; errors answered as an HTML page to a request that accepts text/html; and, for the
// operations that have none of those, Accept q-values misread into a 406.
import { randomBytes } from 'node:crypto';
import { describe } from 'vitest';
import { proveChecks, type BrokenServer } from '../../conformance/test/support/proof.ts';
import { emptyFileAsset, rewriteJsonRequest, type ProxiedRequest, type ProxiedResponse } from '../../harness/testing/mutating-proxy.ts';
import { checks } from '../checks.ts';

const bare = (sent: ProxiedRequest) => sent.path.split('?')[0]!;
const isPost = (sent: ProxiedRequest, path: string) => sent.method === 'POST' && bare(sent) === path;
const newId = () => `req_${randomBytes(8).toString('hex')}`;
const header = (sent: ProxiedRequest, name: string) => sent.headers[name] ?? '';

const created = (body: unknown): ProxiedResponse => ({
  status: 201,
  headers: { 'content-type': 'application/json', 'x-request-id': newId() },
  body: Buffer.from(JSON.stringify(body)),
});
const notAcceptable = (): ProxiedResponse => {
  const id = newId();
  return {
    status: 406,
    headers: { 'content-type': 'application/json', 'x-request-id': id },
    body: Buffer.from(JSON.stringify({ error: { code: 'INVALID_REQUEST', message: 'Not acceptable.', request_id: id } })),
  };
};

/** Drops `id` and `instructions` members that are null, as a decoder that reads null as absent does. */
function dropNullStrings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNullStrings);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([name, member]) => !(member === null && (name === 'id' || name === 'instructions')))
      .map(([name, member]) => [name, dropNullStrings(member)]),
  );
}

const BUGS = {
  emptyTextUpload: {
    fault: 'accepts an empty upload when its type is text/plain',
    mutation: () => ({
      answer: (sent: ProxiedRequest) =>
        isPost(sent, '/v1/assets') && sent.body.length === 0 && header(sent, 'content-type') === 'text/plain'
          ? created({ ...emptyFileAsset(), mime_type: 'text/plain' })
          : undefined,
    }),
  },
  nullOptionalString: {
    fault: 'takes null for an optional string of the decide body (a part id, instructions) as if it were absent',
    mutation: () => ({ request: (sent: ProxiedRequest) => (isPost(sent, '/v1/decide') ? rewriteJsonRequest(sent, dropNullStrings) : sent) }),
  },
  caseInsensitiveNames: {
    fault: 'matches the decide body’s names without regard to letter case (Context, QUESTIONS)',
    mutation: () => ({
      request: (sent: ProxiedRequest) =>
        isPost(sent, '/v1/decide')
          ? rewriteJsonRequest(sent, (body) =>
              typeof body === 'object' && body !== null && !Array.isArray(body)
                ? Object.fromEntries(
                    Object.entries(body).map(([name, value]) => [['context', 'questions'].includes(name.toLowerCase()) ? name.toLowerCase() : name, value]),
                  )
                : body,
            )
          : sent,
    }),
  },
  chunkedOverLimit: {
    fault: 'enforces the 256 KiB body limit through Content-Length only, so a chunked body over it is read',
    mutation: () => ({
      request: (sent: ProxiedRequest) =>
        (isPost(sent, '/v1/decide') || isPost(sent, '/v1/feedback')) && sent.chunked
          ? { ...sent, body: Buffer.from(sent.body.toString('utf8').trimEnd()) }
          : sent,
    }),
  },
  htmlErrors: {
    fault: 'answers errors as an HTML page when the request accepts text/html',
    mutation: () => ({
      response: (received: ProxiedResponse, sent: ProxiedRequest) =>
        received.status >= 400 && header(sent, 'accept').startsWith('text/html')
          ? { ...received, headers: { ...received.headers, 'content-type': 'text/html' }, body: Buffer.from('<html><body><h1>Unauthorized</h1></body></html>') }
          : received,
    }),
  },
  qValues406: {
    fault: 'misreads Accept q-values and answers 406 to application/json;q=0.9, */*;q=0.1',
    mutation: () => ({ answer: (sent: ProxiedRequest) => (header(sent, 'accept').includes('q=0.1') ? notAcceptable() : undefined) }),
  },
} satisfies Record<string, BrokenServer>;

describe('coverage checks', () => {
  proveChecks(
    'coverage',
    {
      'COVERAGE-DECIDE': [BUGS.nullOptionalString, BUGS.caseInsensitiveNames, BUGS.chunkedOverLimit, BUGS.htmlErrors],
      'COVERAGE-SUBMIT-FEEDBACK': [BUGS.chunkedOverLimit, BUGS.htmlErrors],
      'COVERAGE-UPLOAD-ASSET': [BUGS.emptyTextUpload, BUGS.htmlErrors],
      'COVERAGE-LIST-MODELS': [BUGS.htmlErrors],
      'COVERAGE-GET-ASSET': [BUGS.htmlErrors],
      'COVERAGE-DELETE-ASSET': [BUGS.htmlErrors],
      'COVERAGE-GET-HEALTH': [BUGS.qValues406],
      'COVERAGE-GET-OPEN-API-DOCUMENT': [BUGS.qValues406],
    },
    checks,
    30_000,
  );
});

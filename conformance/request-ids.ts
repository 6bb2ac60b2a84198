// Request ids (seed 2.7, 7): every response carries X-Request-ID; a valid caller id is kept,
// otherwise the service generates `req_<hex>`; error bodies repeat it, decide bodies do not.
import { generatedRequestIdPattern, schemaValidator } from '../spec/index.ts';
import { area, type Check } from '../harness/check.ts';
import type { CheckContext } from '../harness/context.ts';
import { describeReply, expectErrorBody, expectSuccess, isSuccess } from '../harness/expect.ts';
import type { Reply, SentRequest } from '../harness/http.ts';
import { decideBody, replyOutcome } from '../harness/requests.ts';

/** The spec's form of a generated id: `req_<hex>`. */
const GENERATED_ID = generatedRequestIdPattern;
const isValidRequestId = schemaValidator('RequestId', 'contract');

/** Every allowed punctuation mark (seed 2.7: letters, digits, `.`, `_`, `:` and `-`). */
const CALLER_ID = 'a.b_c:d-9';
/** 128 characters, the longest caller id (seed 8). */
const LONGEST_CALLER_ID = 'trace.128_chars:Aa9-'.repeat(7).slice(0, 128);
/** Letters of both cases and every punctuation mark: kept exactly, never case-folded (seed 2.7). */
const MIXED_CASE_CALLER_ID = 'Trace.ID_Mixed:Case-aBc';
/**
 * Caller ids that break 2.7's form, each a near miss of a valid one: one character too long, none
 * at all (the header sent empty), a space, a slash, a non-ASCII letter. What the server does
 * instead is open; echoing them is not.
 */
const INVALID_CALLER_IDS: ReadonlyArray<readonly [string, string]> = [
  ['129 characters', `${LONGEST_CALLER_ID}x`],
  ['no characters (the header sent empty)', ''],
  ['a space', 'trace id'],
  ['a slash', 'trace/42'],
  ['a non-ASCII letter', 'trace.\u00e9t\u00e9'],
];
/** A well-formed asset id nobody uploaded. */
const UNKNOWN_ASSET = 'asset_conformance0000';

interface Labelled {
  label: string;
  send(t: CheckContext, headers?: Record<string, string>): Promise<Reply>;
}

type Request = Omit<SentRequest, 'key' | 'headers'>;

/** A request sent with the first project's key, or with none. */
function labelled(label: string, as: 'a' | 'anonymous', request: Request): Labelled {
  return { label, send: (t, headers) => t[as].send({ ...request, ...(headers ? { headers } : {}) }) };
}

const decide = (json: unknown): Request => ({ method: 'POST', path: '/v1/decide', json });

/** Requests a conforming server answers with a 2xx. */
const successes: Labelled[] = [
  labelled('POST /v1/decide (valid)', 'a', decide(decideBody())),
  labelled('GET /v1/models', 'a', { method: 'GET', path: '/v1/models' }),
  labelled('GET /health', 'anonymous', { method: 'GET', path: '/health' }),
  labelled('GET /openapi.json', 'anonymous', { method: 'GET', path: '/openapi.json' }),
];

/** Requests a conforming server answers with an error: one or more per operation, and an unknown route. */
const errors: Labelled[] = [
  labelled('POST /v1/decide with an unknown field', 'a', decide({ ...decideBody(), unknown_field: 1 })),
  labelled('POST /v1/decide with malformed JSON', 'a', { method: 'POST', path: '/v1/decide', raw: '{"context":', contentType: 'application/json' }),
  labelled('POST /v1/decide without a key', 'anonymous', decide(decideBody())),
  labelled('GET /v1/models without a key', 'anonymous', { method: 'GET', path: '/v1/models' }),
  labelled('POST /v1/feedback with an empty object', 'a', { method: 'POST', path: '/v1/feedback', json: {} }),
  labelled('POST /v1/assets with an empty body', 'a', { method: 'POST', path: '/v1/assets', raw: '', contentType: 'image/png' }),
  labelled(`GET /v1/assets/${UNKNOWN_ASSET}`, 'a', { method: 'GET', path: `/v1/assets/${UNKNOWN_ASSET}` }),
  labelled(`DELETE /v1/assets/${UNKNOWN_ASSET}`, 'a', { method: 'DELETE', path: `/v1/assets/${UNKNOWN_ASSET}` }),
  labelled('GET /v1/no-such-route', 'a', { method: 'GET', path: '/v1/no-such-route' }),
];

/** The response's X-Request-ID, failing when it is missing or not 1 to 128 allowed characters. */
function requestIdOn(t: CheckContext, label: string, reply: Reply): string {
  const id = reply.headers['x-request-id'];
  if (id === undefined) t.fail(`an X-Request-ID header on the response to ${label}`, `none on a ${reply.status} response`);
  if (!isValidRequestId(id).valid) t.fail(`an X-Request-ID of 1 to 128 letters, digits, . _ : - on the response to ${label}`, JSON.stringify(id));
  return id;
}

/** Every object key anywhere in a JSON value. */
function keysIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => [key, ...keysIn(child)]);
}

function describeInvalidIdOutcome(sent: string, reply: Reply): { summary: string; asReference: boolean } {
  const header = reply.headers['x-request-id'];
  const served = isSuccess(reply);
  const replaced = header !== undefined && header !== sent && GENERATED_ID.test(header);
  const echo =
    header === undefined
      ? 'no X-Request-ID'
      : header === sent
        ? 'the sent id echoed'
        : replaced
          ? 'a generated req_<hex> id'
          : `X-Request-ID ${JSON.stringify(header)}`;
  return { summary: `${replyOutcome(reply)}, ${echo}`, asReference: served && replaced };
}

export const requestIdChecks: Check[] = area('request-ids', [
  {
    id: 'REQID-ON-SUCCESS',
    level: 'MUST',
    seedSections: ['2.7', '4.1', '4.4'],
    title: 'The responses to a valid decide, GET /v1/models, GET /health and GET /openapi.json carry a well-formed X-Request-ID',
    async run(t) {
      for (const request of successes) requestIdOn(t, request.label, await request.send(t));
    },
  },
  {
    id: 'REQID-ON-ERRORS',
    level: 'MUST',
    seedSections: ['2.7', '7'],
    title: 'Error responses of every operation, and of an unknown route, carry a well-formed X-Request-ID',
    async run(t) {
      for (const request of errors) requestIdOn(t, request.label, await request.send(t));
    },
  },
  {
    id: 'REQID-CALLER-KEPT',
    level: 'MUST',
    seedSections: ['2.7'],
    title: `A caller id with every allowed punctuation mark (${CALLER_ID}) is returned unchanged, on success and on error`,
    async run(t) {
      for (const request of [successes[0]!, errors[0]!]) {
        const header = (await request.send(t, { 'x-request-id': CALLER_ID })).headers['x-request-id'];
        if (header !== CALLER_ID) t.fail(`X-Request-ID ${JSON.stringify(CALLER_ID)} on the response to ${request.label}`, `${JSON.stringify(header)}`);
      }
    },
  },
  {
    id: 'REQID-CALLER-KEPT-128',
    level: 'MUST',
    seedSections: ['2.7', '8'],
    title: 'A caller id of 128 characters, the longest allowed, is returned unchanged',
    async run(t) {
      const header = (await t.a.decide(decideBody(), { 'x-request-id': LONGEST_CALLER_ID })).headers['x-request-id'];
      if (header !== LONGEST_CALLER_ID)
        t.fail(
          `the 128-character caller id returned unchanged`,
          header === undefined ? 'no X-Request-ID' : `${JSON.stringify(header)} (${header.length} characters)`,
        );
    },
  },
  {
    id: 'REQID-CALLER-CASE-KEPT',
    level: 'MUST',
    seedSections: ['2.7'],
    title: `A caller id mixing upper and lower case (${MIXED_CASE_CALLER_ID}) is returned exactly, not case-folded`,
    async run(t) {
      const header = (await t.a.decide(decideBody(), { 'x-request-id': MIXED_CASE_CALLER_ID })).headers['x-request-id'];
      if (header !== MIXED_CASE_CALLER_ID) t.fail(`X-Request-ID ${JSON.stringify(MIXED_CASE_CALLER_ID)} exactly`, JSON.stringify(header));
    },
  },
  {
    id: 'REQID-INVALID-CALLER-NOT-ECHOED',
    level: 'MUST',
    seedSections: ['2.7', '7', '8'],
    bounds: ['invalid-caller-request-id'],
    title:
      'An invalid caller id (129 characters, an empty value, a space, a slash, a non-ASCII letter) is never returned: the request is served or refused in the error body, under a generated req_<hex> id',
    async run(t) {
      for (const [label, sent] of INVALID_CALLER_IDS) {
        const reply = await t.a.decide(decideBody(), { 'x-request-id': sent });
        const what = `a caller id with ${label}`;
        if (reply.headers['x-request-id'] === sent) t.fail(`the invalid caller id not returned as X-Request-ID (${what})`, 'the sent id echoed');
        const id = requestIdOn(t, `a decide with ${what}`, reply);
        // Seed 2.7: a caller id is kept only if valid; otherwise the service generates req_<hex>.
        if (!GENERATED_ID.test(id)) t.fail(`a generated req_<hex> id in place of ${what}`, JSON.stringify(id));
        if (reply.status >= 500 || (reply.status >= 300 && reply.status < 400))
          t.fail(`the decide served (2xx) or refused (4xx) for ${what}`, describeReply(reply));
        if (reply.status >= 400) expectErrorBody(reply);
      }
    },
  },
  {
    id: 'REQID-GENERATED-FORM',
    level: 'MUST',
    seedSections: ['2.7'],
    title: 'Without a caller id, the generated X-Request-ID has the form req_<hex>, on success and on error',
    async run(t) {
      for (const request of [successes[0]!, successes[2]!, errors[0]!, errors[2]!]) {
        const id = requestIdOn(t, request.label, await request.send(t));
        if (!GENERATED_ID.test(id)) t.fail(`a generated id of the form req_<hex> on the response to ${request.label}`, JSON.stringify(id));
      }
    },
  },
  {
    id: 'REQID-GENERATED-UNIQUE',
    level: 'MUST',
    seedSections: ['2.7', '4.2'],
    title: 'Two identical requests without a caller id get different generated ids (feedback links to a decision by its id)',
    async run(t) {
      const first = requestIdOn(t, 'the first decide', await t.a.decide(decideBody()));
      const second = requestIdOn(t, 'the second decide', await t.a.decide(decideBody()));
      if (first === second) t.fail('two different generated request ids', `${JSON.stringify(first)} twice`);
    },
  },
  {
    id: 'REQID-ERROR-BODY-MATCHES',
    level: 'MUST',
    seedSections: ['7', '2.7'],
    title: 'error.request_id equals the X-Request-ID header, for several error kinds, generated or sent by the caller',
    async run(t) {
      const cases = [...errors.map((request) => ({ request, headers: undefined })), { request: errors[0]!, headers: { 'x-request-id': CALLER_ID } }];
      for (const { request, headers } of cases) {
        const reply = await request.send(t, headers);
        if (reply.status < 400) {
          t.note(`${request.label} answered ${reply.status}: no error body to compare`);
          continue;
        }
        const bodyId = reply.json?.error?.request_id;
        if (bodyId === null) {
          t.note(`error.request_id is null on the response to ${request.label} (allowed by seed 7; open point error-request-id-null)`);
          continue;
        }
        const header = reply.headers['x-request-id'];
        const label = `${request.label}${headers ? ` with caller id ${CALLER_ID}` : ''}`;
        if (bodyId !== header)
          t.fail(
            `error.request_id equal to X-Request-ID on the response to ${label}`,
            `error.request_id ${JSON.stringify(bodyId)}, header ${JSON.stringify(header)}`,
          );
      }
    },
  },
  {
    id: 'REQID-NOT-IN-DECIDE-BODY',
    level: 'MUST',
    seedSections: ['2.4', '2.7'],
    title: 'A decide success body has no request_id field and does not contain the request id, generated or sent',
    async run(t) {
      for (const headers of [undefined, { 'x-request-id': `body-probe.${Date.now().toString(36)}` }]) {
        const reply = await t.a.decide(decideBody(), headers);
        expectSuccess(reply, 'for a valid decide');
        if (keysIn(reply.json).includes('request_id')) t.fail('no request_id field in the decide body (seed 2.4)', 'a request_id field');
        // The header is judged by REQID-ON-SUCCESS; here any id known for the request is looked for.
        for (const id of new Set([headers?.['x-request-id'], reply.headers['x-request-id']])) {
          if (id !== undefined && reply.text.includes(id))
            t.fail(`a decide body that does not contain the request id ${JSON.stringify(id)}`, 'the id inside the body');
        }
      }
    },
  },
  {
    id: 'REQID-INVALID-CALLER-ID',
    level: 'OBSERVE',
    seedSections: ['2.7'],
    openPoint: 'invalid-caller-request-id',
    title: 'What a caller id of 129 characters, an empty one, or one with a space, a slash or a non-ASCII letter, leads to: served or refused',
    async run(t) {
      const outcomes = [];
      for (const [label, sent] of INVALID_CALLER_IDS) {
        outcomes.push({ label, ...describeInvalidIdOutcome(sent, await t.a.decide(decideBody(), { 'x-request-id': sent })) });
      }
      t.observe({
        summary: outcomes.map((outcome) => `${outcome.label}: ${outcome.summary}`).join('; '),
        matchesReference: outcomes.every((outcome) => outcome.asReference),
      });
    },
  },
]);

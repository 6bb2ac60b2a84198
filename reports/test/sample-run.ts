// A realistic run, hand-made: the checks a run against a half-conforming server would produce,
// with hostile strings and keys planted where a careless check or server could put them.
import type { CheckResult } from '../../harness/check.ts';
import type { CoverageReport } from '../../harness/coverage.ts';
import type { Exchange } from '../../harness/http.ts';
import { buildRunReport, type ConformanceRunReport } from '../run-report.ts';

export const KEY_A = 'svc_live_Qx7f3kZ9pLm2xR8tW4vY6nB1';
export const KEY_B = 'svc_live_projB+0a9s/8d7f6g5h4j3';
export const SECRETS = [KEY_A, KEY_B];

/** Markup that closes the script and style blocks, opens a tag, and carries every character that needs escaping. */
export const HOSTILE = `</script><b>&"'`;
/** NUL, BEL, an ANSI escape, a vertical tab and an unpaired surrogate: none of them belongs in XML. */
export const CONTROLS = '\u0000\u0007\u001b[31m\u000b\ud800';

const BASE = 'http://127.0.0.1:47123';
/** When every sample request was sent (2026-05-29T08:26:40Z). */
const SENT_AT_MS = 1_780_043_200_000;

function exchange(parts: {
  method: string;
  path: string;
  status?: number;
  requestBody?: string;
  responseBody?: string;
  responseHeaders?: Record<string, string>;
  requestHeaders?: Record<string, string>;
  durationMs: number;
  operationId?: string;
  transportError?: string;
}): Exchange {
  const url = `${BASE}${parts.path}`;
  const headers = {
    authorization: 'Bearer svc_live_***',
    ...(parts.requestBody !== undefined ? { 'content-type': 'application/json' } : {}),
    ...parts.requestHeaders,
  };
  return {
    request: {
      method: parts.method,
      url,
      headers,
      ...(parts.requestBody !== undefined ? { body: parts.requestBody } : {}),
      bodyBytes: parts.requestBody?.length ?? 0,
    },
    ...(parts.status !== undefined
      ? {
          response: {
            status: parts.status,
            headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'req_01HZX3K9Q2', ...parts.responseHeaders },
            body: parts.responseBody ?? '',
            bodyBytes: parts.responseBody?.length ?? 0,
          },
        }
      : {}),
    ...(parts.transportError !== undefined ? { transportError: parts.transportError } : {}),
    startedAtMs: SENT_AT_MS,
    durationMs: parts.durationMs,
    ...(parts.operationId !== undefined ? { operationId: parts.operationId } : {}),
    curl: `curl -sS -i -X ${parts.method} '${url}' -H "Authorization: Bearer $DECISION_API_KEY"${parts.requestBody !== undefined ? ` -H 'content-type: application/json' --data-binary '${parts.requestBody}'` : ''}`,
  };
}

const decideBody = JSON.stringify({ context: 'The parcel arrived damaged.', questions: { refund: { type: 'choice', options: { yes: {}, no: {} } } } });
const decideAnswer = JSON.stringify({
  answers: { refund: { type: 'choice', choice: 'yes', probabilities: { yes: 0.81, no: 0.19 } } },
  usage: { input_tokens: 23 },
});

/** Twelve decide calls with known durations, for the latency figures (nearest rank: p50 = 40, p90 = 110, p99 = max = 250). */
export const DECIDE_DURATIONS = [12, 18, 25, 31, 38, 40, 44, 52, 67, 90, 110, 250];

export function sampleResults(): CheckResult[] {
  return [
    {
      id: 'AUTH-MISSING-KEY',
      level: 'MUST',
      area: 'auth',
      seedSections: ['4', '5', '7'],
      title: 'Every /v1 operation without an Authorization header answers 401 UNAUTHORIZED in the error body',
      status: 'pass',
      durationMs: 23.456,
      notes: [],
      exchanges: [
        exchange({
          method: 'GET',
          path: '/v1/models',
          status: 401,
          responseBody: '{"error":{"code":"UNAUTHORIZED","message":"Missing API key."}}',
          durationMs: 3.2,
          operationId: 'listModels',
        }),
        exchange({
          method: 'POST',
          path: '/v1/decide',
          requestBody: '{}',
          status: 401,
          responseBody: '{"error":{"code":"UNAUTHORIZED"}}',
          durationMs: 2.9,
          operationId: 'decide',
        }),
      ],
    },
    {
      id: 'AUTH-VALID-KEY',
      level: 'MUST',
      area: 'auth',
      seedSections: ['5'],
      title: 'The given key is accepted on GET /v1/models',
      status: 'pass',
      durationMs: 8.1,
      // A check that wrote the key in clear into a note: the report must still never show it.
      notes: [`accepted the key ${KEY_A} on the first try`],
      exchanges: [
        exchange({
          method: 'GET',
          path: '/v1/models',
          status: 200,
          responseBody: '{"data":[{"id":"svc-one-v1"}]}',
          durationMs: 5.4,
          operationId: 'listModels',
          // A header recorded without redaction, and the key URL-encoded in another.
          requestHeaders: { authorization: `Bearer ${KEY_A}`, 'x-forwarded-key': encodeURIComponent(KEY_B) },
        }),
      ],
    },
    {
      id: 'DECIDE-CHOICE-MARGIN',
      level: 'MUST',
      area: 'decide',
      seedSections: ['2.4', '4.1'],
      title: `Choice answers carry probabilities that sum to 1 ${HOSTILE}`,
      status: 'fail',
      durationMs: 1432.77,
      message: `Expected probabilities of question "refund" to sum to 1 ± 0.001; observed 1.37 (yes 0.81, no 0.56) ${HOSTILE}${CONTROLS}`,
      notes: [`server said: ${HOSTILE}`, `retried with key ${KEY_B}`],
      exchanges: DECIDE_DURATIONS.map((durationMs, i) =>
        exchange({
          method: 'POST',
          path: '/v1/decide',
          requestBody: decideBody,
          status: 200,
          responseBody:
            i === DECIDE_DURATIONS.length - 1
              ? `{"answers":{"refund":{"type":"choice","choice":"yes","probabilities":{"yes":0.81,"no":0.56}}},"debug":"${HOSTILE}${CONTROLS}]]>"}`
              : decideAnswer,
          responseHeaders: { 'x-echo': `${HOSTILE}${CONTROLS}` },
          durationMs,
          operationId: 'decide',
        }),
      ),
    },
    {
      id: 'DECIDE-COLD-START-TIMEOUT',
      level: 'MUST',
      area: 'decide',
      seedSections: ['1', '4.1'],
      title: 'A decision request completes within the 180 s client timeout',
      status: 'fail',
      durationMs: 180_004.2,
      message: 'No usable response: no complete response within 180000 ms.',
      notes: [],
      exchanges: [
        exchange({
          method: 'POST',
          path: '/v1/decide',
          requestBody: decideBody,
          durationMs: 180_001.5,
          operationId: 'decide',
          transportError: 'timeout: no complete response within 180000 ms',
        }),
      ],
    },
    {
      id: 'ERRORS-REQUEST-ID-HEADER',
      level: 'SHOULD',
      area: 'errors',
      seedSections: ['2.7', '7'],
      title: 'Error responses carry the X-Request-Id header',
      status: 'fail',
      durationMs: 6.3,
      message: 'Expected an X-Request-Id header on the 400 response; observed none.',
      notes: [],
      exchanges: [
        exchange({
          method: 'POST',
          path: '/v1/decide',
          requestBody: '{"context":""}',
          status: 400,
          responseBody: '{"error":{"code":"INVALID_REQUEST","message":"context must not be empty"}}',
          durationMs: 4.1,
          operationId: 'decide',
        }),
      ],
    },
    {
      id: 'ASSETS-ISOLATION',
      level: 'MUST',
      area: 'assets',
      seedSections: ['2.5', '5'],
      title: "Another project's key cannot read or delete an asset",
      status: 'skip',
      durationMs: 0.04,
      message: 'needs a key of a second project (--api-key-b or DECISION_API_KEY_B)',
      notes: [],
      exchanges: [],
    },
    {
      id: 'ASSETS-UPLOAD-PNG',
      level: 'MUST',
      area: 'assets',
      seedSections: ['2.5', '4.5'],
      title: 'A PNG upload answers 201 with an asset_ id, the media type and the sha256',
      status: 'pass',
      durationMs: 41.9,
      notes: [],
      exchanges: [
        exchange({
          method: 'POST',
          path: '/v1/assets',
          requestHeaders: { 'content-type': 'image/png' },
          status: 201,
          responseBody: '{"id":"asset_9c1d2e3f4a5b6c7d","media_type":"image/png","bytes":2048}',
          durationMs: 35.7,
          operationId: 'uploadAsset',
        }),
      ],
    },
    {
      id: 'OBSERVE-DECIDE-SUCCESS-STATUS',
      level: 'OBSERVE',
      area: 'decide',
      seedSections: ['4.1'],
      title: 'The success status of POST /v1/decide',
      openPoint: 'decide-success-status',
      status: 'observed',
      durationMs: 48.2,
      observation: { summary: 'status 200', reference: '200 OK.', matchesReference: true },
      notes: [],
      exchanges: [
        exchange({
          method: 'POST',
          path: '/v1/decide',
          requestBody: decideBody,
          status: 200,
          responseBody: decideAnswer,
          durationMs: 46.8,
          operationId: 'decide',
        }),
      ],
    },
    {
      id: 'OBSERVE-UNKNOWN-ROUTE',
      level: 'OBSERVE',
      area: 'service',
      seedSections: ['4'],
      title: 'What an unknown route under /v1 answers',
      openPoint: 'unknown-route',
      status: 'observed',
      durationMs: 3.9,
      observation: { summary: `status 404 with an HTML page ${HOSTILE}`, reference: '404 NOT_FOUND in the error body.', matchesReference: false },
      notes: [],
      exchanges: [
        exchange({
          method: 'GET',
          path: '/v1/no-such-route',
          status: 404,
          responseBody: '<html><body>Not Found</body></html>',
          responseHeaders: { 'content-type': 'text/html' },
          durationMs: 2.2,
        }),
      ],
    },
    {
      id: 'OBSERVE-ASSET-TTL',
      level: 'OBSERVE',
      area: 'assets',
      seedSections: ['2.5'],
      title: 'How long an uploaded asset lives',
      openPoint: 'asset-ttl',
      status: 'skip',
      durationMs: 0.02,
      message: 'the target does not claim the capability assets (--capabilities)',
      notes: [],
      exchanges: [],
    },
    {
      id: 'SERVICE-HEALTH',
      level: 'MUST',
      area: 'service',
      seedSections: ['4.4'],
      title: 'GET /health answers 200 without a key',
      status: 'pass',
      durationMs: 2.5,
      notes: [],
      exchanges: [exchange({ method: 'GET', path: '/health', status: 200, responseBody: '{"status":"ok"}', durationMs: 1.3, operationId: 'getHealth' })],
    },
  ];
}

export const STARTED_AT = new Date('2025-11-22T11:04:05.123Z');
export const FINISHED_AT = new Date('2025-11-22T11:07:12.456Z');

/**
 * What a coverage phase could record against that server: a keyword broken by no case (untried),
 * one excused as untestable, a status the spec does not document answered with a hostile error
 * code, and a key a careless phase wrote into a reason. Figures: 6 keywords of 3 operations, 4
 * with a negative case, 1 untestable, 1 untried; 3 HTTP dimensions; 12 + 4 = 16 cases.
 */
export function sampleCoverage(): CoverageReport {
  return {
    keywords: [
      { operation: 'decide', location: 'body', pointer: '/context', keyword: 'type', positive: 2, negative: 1 },
      { operation: 'decide', location: 'body', pointer: '/context', keyword: 'minLength', positive: 1, negative: 1 },
      { operation: 'decide', location: 'body', pointer: '/context<ContentParts>/*<TextPart>/text', keyword: 'maxLength', positive: 1, negative: 0 },
      { operation: 'decide', location: 'body', pointer: '/request_id', keyword: 'pattern', positive: 1, negative: 0 },
      { operation: 'uploadAsset', location: 'header', pointer: 'content-type', keyword: 'enum', positive: 1, negative: 2 },
      { operation: 'getAsset', location: 'path', pointer: 'asset_id', keyword: 'pattern', positive: 1, negative: 1 },
    ],
    dimensions: [
      { operation: 'decide', dimension: 'accept', count: 2, values: ['text/html', 'application/xml'] },
      { operation: 'decide', dimension: 'framing', count: 1, values: ['chunked, 262145 bytes'] },
      { operation: 'uploadAsset', dimension: 'upload-size', count: 1, values: ['20971521 bytes'] },
    ],
    responses: [
      {
        operation: 'decide',
        documented_statuses: [200, 400, 401, 413, 415, 422, 429, 500],
        observed: [
          { status: 200, count: 5 },
          { status: 400, code: 'INVALID_REQUEST', count: 6 },
          { status: 406, count: 2 },
          { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', count: 1 },
        ],
      },
      {
        operation: 'uploadAsset',
        documented_statuses: [201, 400, 401, 413, 415],
        observed: [
          { status: 201, count: 1 },
          { status: 500, code: `${HOSTILE}${CONTROLS}`, count: 1 },
        ],
      },
    ],
    untestable: [
      { operation: 'decide', what: '/request_id pattern', reason: 'every string the generator can build matches ^[ -~]{1,64}$' },
      { operation: 'uploadAsset', what: 'upload-size 5 GiB', reason: `too large to send in a run; the key ${KEY_A} would be sent 40 times` },
    ],
  };
}

/** The sample run, with the sample coverage unless `coverage` says otherwise (null: a run without the coverage phase). */
export function sampleRunReport(results: CheckResult[] = sampleResults(), coverage: CoverageReport | null = sampleCoverage()): ConformanceRunReport {
  return buildRunReport({
    results,
    target: { baseUrl: BASE, embedded: true, capabilities: new Set(['multimodal', 'noul', 'score', 'multi'] as const), hasSecondKey: false },
    seed: 20251122,
    suites: ['conformance'],
    startedAt: STARTED_AT,
    finishedAt: FINISHED_AT,
    warmup: { durationMs: 1834.6, ok: true, message: `GET /health answered 200 after one retry; key ${KEY_A} accepted` },
    workers: { limit: 16, mostInFlight: 12, pauses: 2, pausedMs: 2100 },
    secrets: SECRETS,
    ...(coverage !== null ? { coverage } : {}),
  });
}

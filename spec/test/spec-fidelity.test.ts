// Checks that spec/openapi.yaml says what the seed says. The seed facts below are restated from
// the seed on purpose: this file is the cross-check between the two documents.
import { describe, expect, test } from 'vitest';
import {
  currentModel,
  defaultAssetLifetimeMs,
  modelAliases,
  requestBodyLimitBytes,
  schemaKeywordLimits,
  coldStartAllowanceMs,
  clientTimeoutMs,
  deref,
  errorCodes,
  hardRuleSections,
  isObject,
  openapiDocument,
  openPoints,
  operations,
  schemaValidator,
  seedSectionIndex,
  type JsonObject,
} from '../index.ts';

const SEED_OPERATIONS = [
  'post /v1/decide',
  'post /v1/feedback',
  'get /v1/models',
  'post /v1/assets',
  'get /v1/assets/{asset_id}',
  'delete /v1/assets/{asset_id}',
  'get /health',
  'get /openapi.json',
];

// Seed section 7: codes with a stated status.
const SEED_STATED_STATUSES: Record<string, number> = {
  INVALID_REQUEST: 400,
  UNSUPPORTED_MODALITY: 400,
  UNAUTHORIZED: 401,
  ASSET_FORBIDDEN: 403,
  ASSET_NOT_FOUND: 404,
  ASSET_EXPIRED: 410,
  ASSET_TOO_LARGE: 413,
  UNSUPPORTED_MIME_TYPE: 415,
  RATE_LIMITED: 429,
};
const SEED_NAME_ONLY = [
  'INVALID_OPTIONS',
  'PAYLOAD_TOO_LARGE',
  'FORBIDDEN',
  'SIGNUP_RESTRICTED',
  'NOT_FOUND',
  'CONFLICT',
  'INSUFFICIENT_CREDITS',
  'QUOTA_EXCEEDED',
  'UPSTREAM_TIMEOUT',
  'UPSTREAM_UNAVAILABLE',
  'INFERENCE_FAILED',
  'INTERNAL_ERROR',
  'TOO_MANY_IMAGES',
  'TOO_MANY_DOCUMENTS',
  'TOO_MANY_AUDIO',
  'DOCUMENT_TOO_MANY_PAGES',
  'AUDIO_TOO_LONG',
  'DECODE_FAILED',
  'OCR_FAILED',
  'ASR_FAILED',
  'VISION_FAILED',
  'MULTIMODAL_INFERENCE_FAILED',
];

// Stated status/code pairs and the operations they apply to (seed 3, 4.1, 4.5, 5, 7).
const STATED_PAIRS_BY_OPERATION: Array<[string, number, string[]]> = [
  ['INVALID_REQUEST', 400, ['decide', 'uploadAsset']],
  ['UNSUPPORTED_MODALITY', 400, ['decide']],
  ['UNAUTHORIZED', 401, ['decide', 'submitFeedback', 'listModels', 'uploadAsset', 'getAsset', 'deleteAsset']],
  ['ASSET_FORBIDDEN', 403, ['decide', 'getAsset', 'deleteAsset']],
  ['ASSET_NOT_FOUND', 404, ['decide', 'getAsset', 'deleteAsset']],
  ['ASSET_EXPIRED', 410, ['decide']],
  ['ASSET_TOO_LARGE', 413, ['uploadAsset']],
  ['UNSUPPORTED_MIME_TYPE', 415, ['uploadAsset']],
  ['RATE_LIMITED', 429, ['decide', 'submitFeedback', 'listModels', 'uploadAsset', 'getAsset', 'deleteAsset']],
];

const REQUIRED_OPEN_POINTS = [
  'decide-success-status',
  'answer-shapes',
  'score-question-fields',
  'noul-instructions-required',
  'feedback-shape',
  'models-shape',
  'asset-read-delete-status',
  'asset-after-delete',
  'name-only-statuses',
  'rate-limits',
  'upload-body-limit',
  'availability',
  'model-selection',
];

function exampleCodes(operationId: string, status: number): string[] {
  const op = operations.find((o) => o.operationId === operationId)!;
  const response = deref((op.definition.responses as JsonObject)[String(status)] as JsonObject);
  const media = (response?.content as JsonObject | undefined)?.['application/json'] as JsonObject | undefined;
  return Object.values((media?.examples as JsonObject | undefined) ?? {}).map(
    (example) => ((deref(example as JsonObject).value as JsonObject).error as JsonObject).code as string,
  );
}

const decide = schemaValidator('DecideRequest');
const question = { type: 'choice', options: { a: 'A', b: '' } };
const questions = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`q${i}`, question]));
const textParts = (n: number) => Array.from({ length: n }, (_, i) => ({ type: 'text', text: `part ${i}` }));

describe('document basics', () => {
  test('OpenAPI 3.1.0 with the 2020-12 dialect, version 1.0.0-beta and a base_url server variable', () => {
    expect(openapiDocument.openapi).toBe('3.1.0');
    expect(openapiDocument.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
    expect((openapiDocument.info as JsonObject).version).toBe('1.0.0-beta');
    const server = (openapiDocument.servers as JsonObject[])[0]!;
    expect(server.url).toBe('{base_url}');
    expect(Object.keys(server.variables as JsonObject)).toEqual(['base_url']);
  });

  test('exactly the eight operations of the seed', () => {
    expect(operations.map((op) => `${op.method} ${op.path}`).sort()).toEqual([...SEED_OPERATIONS].sort());
  });

  test('every /v1 operation needs a bearer key; /health and /openapi.json need none', () => {
    for (const op of operations) expect(op.requiresKey, op.operationId).toBe(op.path.startsWith('/v1/'));
    const scheme = ((openapiDocument.components as JsonObject).securitySchemes as JsonObject).bearerAuth as JsonObject;
    expect(scheme).toMatchObject({ type: 'http', scheme: 'bearer', 'x-key-prefix': 'svc_live_' });
  });

  test('every response of every operation declares the X-Request-ID header', () => {
    for (const op of operations) {
      for (const status of op.statuses) {
        const response = deref((op.definition.responses as JsonObject)[String(status)] as JsonObject);
        expect((response.headers as JsonObject | undefined)?.['X-Request-ID'], `${op.operationId} ${status}`).toBeDefined();
      }
    }
  });
});

test('figures no schema keyword carries are in x-seed-limits (seed 1, 2.5, 2.6, 4.1, 8)', () => {
  expect(requestBodyLimitBytes).toBe(256 * 1024);
  expect(coldStartAllowanceMs).toBe(2 * 60 * 1000);
  expect(clientTimeoutMs).toBe(180 * 1000);
  expect(defaultAssetLifetimeMs).toBe(24 * 3600 * 1000);
  expect(currentModel).toBe('svc-one-v1');
  expect(modelAliases).toEqual(['svc-one-v0', 'svc-one-v0.3']);
});

test('every limit of seed 2.1, 2.2, 2.7 and 8 a schema keyword carries is recorded once in x-seed-limits, with the schema it applies to', () => {
  expect(schemaKeywordLimits).toEqual({
    questions_per_request: { schema: '#/components/schemas/Questions', keywords: { minProperties: 1, maxProperties: 16 } },
    parts_per_context: { schema: '#/components/schemas/ContentParts', keywords: { minItems: 1, maxItems: 16 } },
    string_context_length: { schema: '#/components/schemas/TextContext', keywords: { minLength: 1, maxLength: 8000 } },
    text_part_length: { schema: '#/components/schemas/TextPart/properties/text', keywords: { minLength: 1, maxLength: 8000 } },
    part_id_length: { schema: '#/components/schemas/PartId', keywords: { maxLength: 100 } },
    asset_id_form: { schema: '#/components/schemas/AssetId', keywords: { pattern: '^asset_[A-Za-z0-9_-]{8,64}$' } },
    request_id_form: { schema: '#/components/schemas/RequestId', keywords: { minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._:-]+$' } },
  });
});

describe('errors (seed 7)', () => {
  test('the ErrorCode enum holds exactly the 31 codes of the seed', () => {
    expect(errorCodes.map((e) => e.code).sort()).toEqual([...Object.keys(SEED_STATED_STATUSES), ...SEED_NAME_ONLY].sort());
  });

  test('stated statuses match the seed; name-only codes have no stated status but a reference one', () => {
    for (const entry of errorCodes) {
      expect(entry.statedStatus, entry.code).toBe(SEED_STATED_STATUSES[entry.code] ?? null);
      expect(entry.referenceStatus).toBeGreaterThanOrEqual(400);
    }
  });

  test.each(STATED_PAIRS_BY_OPERATION)('%s (%d) is documented with an example on the operations it applies to', (code, status, operationIds) => {
    for (const operationId of operationIds) expect(exampleCodes(operationId, status), operationId).toContain(code);
  });

  test('every code has at least one example somewhere in the document', () => {
    const text = JSON.stringify((openapiDocument.components as JsonObject).examples);
    for (const { code } of errorCodes) expect(text, code).toContain(`"code":"${code}"`);
  });

  test('every operation that takes parameters or a body documents a 400', () => {
    for (const op of operations) expect(op.statuses, op.operationId).toContain(400);
  });
});

describe('limits (seed 2.1, 2.2, 2.7, 8) are schema constraints', () => {
  test('1 to 16 questions', () => {
    expect(decide({ context: 'x', questions: questions(1) }).valid).toBe(true);
    expect(decide({ context: 'x', questions: questions(16) }).valid).toBe(true);
    expect(decide({ context: 'x', questions: questions(17) }).valid).toBe(false);
    expect(decide({ context: 'x', questions: {} }).valid).toBe(false);
  });

  test('string context of 1 to 8,000 characters, counted in code points', () => {
    expect(decide({ context: 'x'.repeat(8000), questions: questions(1) }).valid).toBe(true);
    expect(decide({ context: 'x'.repeat(8001), questions: questions(1) }).valid).toBe(false);
    expect(decide({ context: '😀'.repeat(8000), questions: questions(1) }).valid).toBe(true);
    expect(decide({ context: '', questions: questions(1) }).valid).toBe(false);
  });

  test('1 to 16 parts; text parts of 1 to 8,000 characters; part ids up to 100 characters', () => {
    expect(decide({ context: textParts(16), questions: questions(1) }).valid).toBe(true);
    expect(decide({ context: textParts(17), questions: questions(1) }).valid).toBe(false);
    expect(decide({ context: [], questions: questions(1) }).valid).toBe(false);
    expect(decide({ context: [{ type: 'text', text: 'y'.repeat(8000) }], questions: questions(1) }).valid).toBe(true);
    expect(decide({ context: [{ type: 'text', text: 'y'.repeat(8001) }], questions: questions(1) }).valid).toBe(false);
    expect(decide({ context: [{ type: 'text', text: '' }], questions: questions(1) }).valid).toBe(false);
    expect(decide({ context: [{ type: 'text', id: 'i'.repeat(100), text: 'y' }], questions: questions(1) }).valid).toBe(true);
    expect(decide({ context: [{ type: 'text', id: 'i'.repeat(101), text: 'y' }], questions: questions(1) }).valid).toBe(false);
  });

  test('asset ids match ^asset_[A-Za-z0-9_-]{8,64}$', () => {
    const part = (asset_id: string) => ({ context: [{ type: 'image', asset_id }], questions: questions(1) });
    expect(decide(part('asset_12345678')).valid).toBe(true);
    expect(decide(part(`asset_${'a'.repeat(64)}`)).valid).toBe(true);
    expect(decide(part('asset_1234567')).valid).toBe(false);
    expect(decide(part(`asset_${'a'.repeat(65)}`)).valid).toBe(false);
    expect(decide(part('asset_1234567.')).valid).toBe(false);
  });

  test('unknown fields are rejected at every level; there is no url field and no video part in the schema', () => {
    expect(decide({ context: 'x', questions: questions(1), model: 'svc-one-v1' }).valid).toBe(false);
    expect(decide({ context: 'x', questions: { q: { ...question, weight: 2 } } }).valid).toBe(false);
    expect(decide({ context: [{ type: 'image', asset_id: 'asset_12345678', url: 'https://x' }], questions: questions(1) }).valid).toBe(false);
    expect(decide({ context: [{ type: 'video', asset_id: 'asset_12345678' }], questions: questions(1) }).valid).toBe(false);
  });

  test('choice options map to strings (empty allowed), multi options to null', () => {
    expect(decide({ context: 'x', questions: { q: { type: 'choice', options: { a: '' } } } }).valid).toBe(true);
    expect(decide({ context: 'x', questions: { q: { type: 'choice', options: { a: null } } } }).valid).toBe(false);
    expect(decide({ context: 'x', questions: { q: { type: 'multi', options: { a: null } } } }).valid).toBe(true);
    expect(decide({ context: 'x', questions: { q: { type: 'multi', options: { a: 'A' } } } }).valid).toBe(false);
  });

  test('request ids are 1 to 128 characters of letters, digits, . _ : -', () => {
    const requestId = schemaValidator('RequestId');
    expect(requestId('a'.repeat(128)).valid).toBe(true);
    expect(requestId('a.b_c:d-E9').valid).toBe(true);
    expect(requestId('a'.repeat(129)).valid).toBe(false);
    expect(requestId('').valid).toBe(false);
    expect(requestId('a b').valid).toBe(false);
  });
});

describe('responses (seed 2.4, 2.5)', () => {
  const choiceAnswer = schemaValidator('ChoiceAnswer');
  const base = { type: 'choice', choice: 'a', confidence: 0.2, probabilities: { a: 0.6, b: 0.4 }, abstain: false, abstention_status: 'advisory' };

  test('an abstained choice answer must have choice null', () => {
    expect(choiceAnswer({ ...base, abstain: true }).valid).toBe(false);
    expect(choiceAnswer({ ...base, abstain: true, choice: null }).valid).toBe(true);
  });

  test('responses stay open to new optional fields', () => {
    expect(choiceAnswer({ ...base, calibration: 'v2' }).valid).toBe(true);
    expect(schemaValidator('DecideResponse')({ model: 'm', answers: {}, usage: { input_tokens: 1 }, latency_ms: 3 }).valid).toBe(true);
  });

  test('usage has an integer input_tokens and no output-token field; the body does not repeat the request id', () => {
    const response = schemaValidator('DecideResponse');
    expect(response({ model: 'm', answers: {}, usage: { input_tokens: 1.5 } }).valid).toBe(false);
    expect(response({ model: 'm', answers: {}, usage: { input_tokens: 1, output_tokens: 0 } }).valid).toBe(false);
    expect(response({ model: 'm', answers: {}, usage: { input_tokens: 1 }, request_id: 'req_1' }).valid).toBe(false);
  });

  test('contract mode enforces seed rules only; reference mode enforces the reference answer shapes', () => {
    const body = { model: 'm', answers: { q: { type: 'noul', answer: 'maybe' } }, usage: { input_tokens: 3 } };
    expect(schemaValidator('DecideResponse', 'contract')(body).valid).toBe(true);
    expect(schemaValidator('DecideResponse', 'reference')(body).valid).toBe(false);
    expect(schemaValidator('ChoiceAnswer', 'contract')({ ...base, abstain: true }).valid).toBe(false);
  });
});

describe('open points and traceability', () => {
  test('the open points the kit relies on are listed, each with a reference choice', () => {
    const ids = openPoints.map((p) => p.id);
    for (const id of REQUIRED_OPEN_POINTS) expect(ids).toContain(id);
    for (const point of openPoints) expect(point.referenceChoice.summary.length, point.id).toBeGreaterThan(0);
  });

  test('every x-open-point marker names a listed open point', () => {
    const ids = new Set(openPoints.map((p) => p.id));
    const visit = (node: unknown, path: string): void => {
      if (Array.isArray(node)) node.forEach((child, i) => visit(child, `${path}/${i}`));
      else if (isObject(node)) {
        if ('x-open-point' in node) expect(ids.has(String(node['x-open-point'])), path).toBe(true);
        for (const [key, child] of Object.entries(node)) visit(child, `${path}/${key}`);
      }
    };
    visit(openapiDocument, '');
  });

  test('every seed section with a hard rule is cited by some x-seed-section', () => {
    for (const section of hardRuleSections) expect(seedSectionIndex.get(section.id)?.length, section.id).toBeGreaterThan(0);
  });

  test('every JSON request and response has named examples', () => {
    for (const op of operations) {
      const bodies: JsonObject[] = [];
      if (op.definition.requestBody) bodies.push(deref(op.definition.requestBody as JsonObject));
      for (const status of op.statuses) bodies.push(deref((op.definition.responses as JsonObject)[String(status)] as JsonObject));
      for (const body of bodies) {
        const json = (body.content as JsonObject | undefined)?.['application/json'] as JsonObject | undefined;
        if (json) expect(Object.keys((json.examples as JsonObject | undefined) ?? {}).length, op.operationId).toBeGreaterThan(0);
      }
    }
  });
});

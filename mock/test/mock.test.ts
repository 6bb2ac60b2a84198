// The Prism mock of spec/openapi.yaml: it serves every documented example within its own schema,
// and the "limitations" block pins, one test each, what Prism verifiably cannot do like a real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  documentedResponse,
  errorCode,
  errorCodes,
  isObject,
  openapiDocument,
  operations,
  referenceChoice,
  requestBodySchemaName,
  schemaValidator,
  unsupportedPartTypes,
  uploadFamilies as families,
  type Json,
  type JsonObject,
  type Operation,
} from '../../spec/index.ts';
import { exampleAuthorization } from '../example-key.ts';
import { startPrismMock, type PrismMock } from '../prism.ts';
import { jsonBody, send, type MockResponse } from './http.ts';
import { BODY_LIMIT_BYTES, defaultExampleValue, invalidRequestStatus } from './prism-rules.ts';
import { bodyProblems, documentedHeaders, headerProblems } from './response-checks.ts';
import {
  isJsonMediaType,
  namedExamples,
  parameterExample,
  requestBodyExamples,
  validRequest,
  withHeaders,
  type BodyExample,
  type MockRequest,
} from './spec-requests.ts';

/** Seed 2.7: every response carries this header. */
const REQUEST_ID_HEADER = 'x-request-id';
/** Seed 8: the general request body limit (the spec states it only in prose). */
const SEED_BODY_LIMIT_BYTES = 256 * 1024;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const UNKNOWN_FIELD = 'field_no_schema_declares';

let mock: PrismMock;
beforeAll(async () => {
  mock = await startPrismMock({ errors: true });
});
afterAll(async () => {
  await mock?.stop();
});

const call = (request: MockRequest): Promise<MockResponse> => send(mock.baseUrl, request);
const schemas = (openapiDocument.components as JsonObject).schemas as JsonObject;
const isSuccess = (status: number) => status >= 200 && status < 300;

function jsonMediaObject(op: Operation, status: number): JsonObject {
  const media = (documentedResponse(op.operationId, status)?.content as JsonObject | undefined)?.['application/json'];
  if (!isObject(media)) throw new Error(`${op.operationId} documents no application/json body for ${status}`);
  return media;
}

/** What Prism sends for this status when no example is named (see prism-rules.ts). */
function prismDefaultBody(op: Operation, status: number): Json | undefined {
  return defaultExampleValue(jsonMediaObject(op, status));
}

function successStatus(op: Operation): number {
  const status = op.statuses.find(isSuccess);
  if (status === undefined) throw new Error(`${op.operationId} documents no 2xx`);
  return status;
}

function expectServedBySpec(op: Operation, response: MockResponse): void {
  expect(response.headers[REQUEST_ID_HEADER], `${REQUEST_ID_HEADER} on ${op.operationId} ${response.status}`).toBeDefined();
  expect(headerProblems(op, response)).toEqual([]);
  expect(bodyProblems(op, response)).toEqual([]);
}

const bodyOperations = operations.filter((op) => op.requestMediaTypes.length > 0);
const keyedOperations = operations.filter((op) => op.requiresKey);
const firstJsonExample = (op: Operation): BodyExample | undefined => requestBodyExamples(op).find((example) => isJsonMediaType(example.mediaType));
const jsonBodyOperations = bodyOperations.filter((op) => firstJsonExample(op) !== undefined);

describe('what the mock serves', () => {
  it('every operation that takes a body documents an example of it, and every documented response a named example', () => {
    expect(bodyOperations.filter((op) => requestBodyExamples(op).length === 0).map((op) => op.operationId)).toEqual([]);
    const withoutExamples = operations.flatMap((op) =>
      op.statuses.filter((status) => namedExamples(jsonMediaObject(op, status)).length === 0).map((status) => `${op.operationId} ${status}`),
    );
    expect(withoutExamples).toEqual([]);
  });

  it(`every documented response declares the ${REQUEST_ID_HEADER} header as required`, () => {
    const missing = operations.flatMap((op) =>
      op.statuses
        .filter(
          (status) =>
            !Object.entries(documentedHeaders(op, status)).some(([name, header]) => name.toLowerCase() === REQUEST_ID_HEADER && header.required === true),
        )
        .map((status) => `${op.operationId} ${status}`),
    );
    expect(missing).toEqual([]);
  });

  const requestExampleCases = operations.flatMap((op) =>
    op.requestMediaTypes.length === 0
      ? [{ label: `${op.operationId} (no body)`, op, request: validRequest(op) }]
      : requestBodyExamples(op).map((example) => ({ label: `${op.operationId} ${example.mediaType} ${example.name}`, op, request: validRequest(op, example) })),
  );

  it.each(requestExampleCases)('request example $label: 2xx with a body that meets the spec', async ({ op, request }) => {
    const response = await call(request);
    expect(isSuccess(response.status), `status ${response.status}: ${response.text}`).toBe(true);
    expect(op.statuses).toContain(response.status);
    expectServedBySpec(op, response);
  });

  const responseExampleCases = operations.flatMap((op) =>
    op.statuses.flatMap((status) =>
      namedExamples(jsonMediaObject(op, status)).map((example) => ({ label: `${op.operationId} ${status} ${example.name}`, op, status, example })),
    ),
  );

  it.each(responseExampleCases)('response example $label: served as documented', async ({ op, status, example }) => {
    const response = await call(withHeaders(validRequest(op), { prefer: `code=${status}, example=${example.name}`, accept: 'application/json' }));
    expect(response.status, response.text).toBe(status);
    expect(jsonBody(response)).toStrictEqual(example.value);
    expectServedBySpec(op, response);
  });

  const statusCases = operations.flatMap((op) => op.statuses.map((status) => ({ label: `${op.operationId} ${status}`, op, status })));

  it.each(statusCases)("Prefer: code alone, $label: the status with Prism's default example", async ({ op, status }) => {
    const response = await call(withHeaders(validRequest(op), { prefer: `code=${status}` }));
    expect(response.status, response.text).toBe(status);
    expect(jsonBody(response)).toStrictEqual(prismDefaultBody(op, status));
    expectServedBySpec(op, response);
  });

  it.each(keyedOperations.map((op) => ({ label: op.operationId, op })))(
    '$label without Authorization: 401 with the Error body, not problem+json',
    async ({ op }) => {
      const response = await call(withHeaders(validRequest(op), { authorization: undefined }));
      expect(response.status, response.text).toBe(401);
      expect(response.mediaType).toBe('application/json');
      expectServedBySpec(op, response);
    },
  );

  const unauthorizedExampleCases = keyedOperations.flatMap((op) =>
    namedExamples(jsonMediaObject(op, 401)).map((example) => ({ label: `${op.operationId} ${example.name}`, op, example })),
  );

  it.each(unauthorizedExampleCases)('without Authorization, Prefer: code=401 picks the named example: $label', async ({ op, example }) => {
    const response = await call(withHeaders(validRequest(op), { authorization: undefined, prefer: `code=401, example=${example.name}` }));
    expect(response.status).toBe(401);
    expect(jsonBody(response)).toStrictEqual(example.value);
  });

  const strictBodyCases = jsonBodyOperations
    .filter((op) => (schemas[requestBodySchemaName(op.operationId)!] as JsonObject).additionalProperties === false)
    .map((op) => ({ label: op.operationId, op, status: invalidRequestStatus(op) }));

  it.each(strictBodyCases)('$label with an unknown body field: $status with the Error body, not problem+json', async ({ op, status }) => {
    const example = firstJsonExample(op)!;
    expect(Object.keys((schemas[requestBodySchemaName(op.operationId)!] as JsonObject).properties as JsonObject)).not.toContain(UNKNOWN_FIELD);
    const body = JSON.stringify({ ...(example.value as JsonObject), [UNKNOWN_FIELD]: true });
    const response = await call({ ...validRequest(op, example), body });
    expect(response.status, response.text).toBe(status);
    expect(response.mediaType).toBe('application/json');
    expect(response.headers['sl-violations']).toContain('additionalProperties');
    expectServedBySpec(op, response);
  });
});

describe('limitations of the mock, as observed', () => {
  const anyOperation = operations[0]!;
  const uploadOperation = bodyOperations.find((op) => op.requestMediaTypes.some((type) => !isJsonMediaType(type)))!;
  const assetItemOperations = operations.filter((op) => op.path.includes('{'));
  const readOperation = assetItemOperations.find((op) => op.method === 'get')!;
  const deleteOperation = assetItemOperations.find((op) => op.method === 'delete')!;
  const unauthorizedCode = errorCodes.find((code) => code.statedStatus === 401)!.code;

  it("never echoes a caller X-Request-ID: every response carries the response header's documented example", async () => {
    const own = parameterExample(anyOperation, 'header', REQUEST_ID_HEADER);
    const documented = String(
      Object.entries(documentedHeaders(anyOperation, successStatus(anyOperation))).find(([name]) => name.toLowerCase() === REQUEST_ID_HEADER)![1].example,
    );
    expect(own).not.toBe(documented);
    const first = await call(withHeaders(validRequest(anyOperation), { [REQUEST_ID_HEADER]: own }));
    const second = await call(validRequest(anyOperation));
    expect(first.headers[REQUEST_ID_HEADER]).toBe(documented);
    expect(second.headers[REQUEST_ID_HEADER]).toBe(documented);
  });

  it.each(operations.map((op) => ({ label: op.operationId, op, status: invalidRequestStatus(op) })))(
    '$label rejects a malformed caller X-Request-ID with $status instead of ignoring it',
    async ({ op, status }) => {
      const malformed = 'not a request id!';
      expect(schemaValidator('RequestId')(malformed).valid).toBe(false);
      const response = await call(withHeaders(validRequest(op), { [REQUEST_ID_HEADER]: malformed }));
      expect(response.status).toBe(status);
      expectServedBySpec(op, response);
    },
  );

  it(`without an example name, an error status gets the first named example of its documented response: a missing key is ${unauthorizedCode}`, async () => {
    const op = keyedOperations[0]!;
    const response = await call(withHeaders(validRequest(op), { authorization: undefined }));
    expect(response.status).toBe(401);
    expect((jsonBody(response) as { error: { code: string } }).error.code).toBe(unauthorizedCode);
  });

  it('accepts any bearer token, but only the scheme spelled "Bearer", not the spec\'s own "bearer"', async () => {
    const op = keyedOperations[0]!;
    const schemes = Object.values((openapiDocument.components as JsonObject).securitySchemes as JsonObject) as JsonObject[];
    const specScheme = String(schemes.find((scheme) => scheme.type === 'http')!.scheme);
    const [, key] = exampleAuthorization().split(' ');
    const anyToken = await call(withHeaders(validRequest(op), { authorization: 'Bearer not-a-key-of-the-documented-form' }));
    const asTheSpecSpellsIt = await call(withHeaders(validRequest(op), { authorization: `${specScheme} ${key}` }));
    expect(isSuccess(anyToken.status)).toBe(true);
    expect(specScheme).not.toBe('Bearer');
    expect(asTheSpecSpellsIt.status).toBe(401);
  });

  it.each(jsonBodyOperations.map((op) => ({ label: op.operationId, op })))(
    '$label answers a schema violation with 400 and the first named example of its 400 response (INVALID_REQUEST)',
    async ({ op }) => {
      const response = await call({ ...validRequest(op), body: '{}' });
      expect(response.status).toBe(errorCode('INVALID_REQUEST').statedStatus);
      expect((jsonBody(response) as { error: { code: string } }).error.code).toBe('INVALID_REQUEST');
    },
  );

  it.each(bodyOperations.map((op) => ({ label: op.operationId, op, status: invalidRequestStatus(op) })))(
    '$label without its required body: $status',
    async ({ op, status }) => {
      const { body: _omitted, ...request } = validRequest(op);
      const response = await call(request);
      expect(response.status).toBe(status);
      expectServedBySpec(op, response);
    },
  );

  it('answers a video part with the schema-violation status and default body, not UNSUPPORTED_MODALITY', async () => {
    const unsupported = Object.entries(unsupportedPartTypes);
    const [type, expected] = unsupported[0]!;
    const op = jsonBodyOperations.find((candidate) => requestBodyExamples(candidate).some((example) => Array.isArray((example.value as JsonObject).context)))!;
    const example = requestBodyExamples(op).find((candidate) => Array.isArray((candidate.value as JsonObject).context))!;
    const assetId = ((schemas.AssetId as JsonObject).examples as Json[])[0];
    const body = { ...(example.value as JsonObject), context: [{ type, asset_id: assetId }] };
    const response = await call({ ...validRequest(op, example), body: JSON.stringify(body) });
    expect(response.status).toBe(invalidRequestStatus(op));
    expect((jsonBody(response) as { error: { code: string } }).error.code).not.toBe(expected.code);
    expectServedBySpec(op, response);
  });

  it('answers every request example of an operation with the same body: responses ignore the request', async () => {
    const op = jsonBodyOperations.find((candidate) => requestBodyExamples(candidate).length > 1)!;
    const bodies = [];
    for (const example of requestBodyExamples(op)) bodies.push(jsonBody(await call(validRequest(op, example))));
    for (const body of bodies) expect(body).toStrictEqual(prismDefaultBody(op, successStatus(op)));
  });

  it('keeps no state and no projects: uploads are not stored, any asset id reads as the example for any key, a deleted asset still reads', async () => {
    const upload = requestBodyExamples(uploadOperation)[0]!;
    const uploaded = jsonBody(await call(validRequest(uploadOperation, upload))) as { id: string; mime_type: string };
    expect(uploaded.mime_type).not.toBe(upload.mediaType);

    const otherId = `${parameterExample(readOperation, 'path', pathParameterName(readOperation))}x`;
    expect(schemaValidator('AssetId')(otherId).valid).toBe(true);
    const readOther = await call(withPath(validRequest(readOperation), readOperation, otherId));
    expect(readOther.status).toBe(successStatus(readOperation));
    expect((jsonBody(readOther) as { id: string }).id).not.toBe(otherId);
    const readByAnotherProject = await call(
      withHeaders(withPath(validRequest(readOperation), readOperation, otherId), { authorization: `${exampleAuthorization()}-other-project` }),
    );
    expect(readByAnotherProject.status).not.toBe(errorCode('ASSET_FORBIDDEN').statedStatus);
    expect(readByAnotherProject.status).toBe(successStatus(readOperation));

    const deleted = await call(withPath(validRequest(deleteOperation), deleteOperation, otherId));
    expect(deleted.status).toBe(successStatus(deleteOperation));
    const readAfterDelete = await call(withPath(validRequest(readOperation), readOperation, otherId));
    expect(readAfterDelete.status).not.toBe(referenceChoice<number>('asset-after-delete', 'status'));
    expect(readAfterDelete.status).toBe(successStatus(readOperation));
  });

  it('does not sniff upload bytes: a PNG declared as audio, or sent without Content-Type, is stored', async () => {
    const audioType = families.audio.types[0]!;
    const mislabelled = await call({
      ...validRequest(uploadOperation),
      headers: { ...validRequest(uploadOperation).headers, 'content-type': audioType },
      body: PNG_SIGNATURE,
    });
    expect(mislabelled.status).toBe(successStatus(uploadOperation));
    const unlabelled = await call({ ...withHeaders(validRequest(uploadOperation), { 'content-type': undefined }), body: PNG_SIGNATURE });
    expect(unlabelled.status).toBe(successStatus(uploadOperation));
  });

  it(`reads bodies up to ${BODY_LIMIT_BYTES} bytes whatever the family; beyond, its framework answers 413 outside the spec`, async () => {
    const imageType = families.image.types[0]!;
    const documentType = families.document.types[0]!;
    expect(BODY_LIMIT_BYTES).toBeGreaterThan(referenceChoice<number>('size-units', 'image_max_bytes'));
    expect(BODY_LIMIT_BYTES + 1).toBeLessThan(referenceChoice<number>('size-units', 'document_max_bytes'));
    const upload = (type: string, size: number) =>
      call({ ...withHeaders(validRequest(uploadOperation), { 'content-type': type }), body: Buffer.alloc(size, 0x61) });

    const imageOverItsLimit = await upload(imageType, BODY_LIMIT_BYTES);
    expect(imageOverItsLimit.status).toBe(successStatus(uploadOperation));

    const documentWithinItsLimit = await upload(documentType, BODY_LIMIT_BYTES + 1);
    expect(documentWithinItsLimit.status).toBe(413);
    expect(documentWithinItsLimit.headers[REQUEST_ID_HEADER]).toBeUndefined();
    expect(bodyProblems(uploadOperation, documentWithinItsLimit)).not.toEqual([]);
  });

  it.each(jsonBodyOperations.map((op) => ({ label: op.operationId, op })))(
    `$label accepts a JSON body over the seed's ${SEED_BODY_LIMIT_BYTES} bytes`,
    async ({ op }) => {
      const request = validRequest(op, firstJsonExample(op));
      const padded = `${String(request.body)}${' '.repeat(SEED_BODY_LIMIT_BYTES)}`;
      const response = await call({ ...request, body: padded });
      expect(response.status).toBe(successStatus(op));
    },
  );

  it.each(jsonBodyOperations.map((op) => ({ label: op.operationId, op })))(
    "$label: malformed JSON gets its framework's 400, outside the spec",
    async ({ op }) => {
      const request = validRequest(op, firstJsonExample(op));
      const response = await call({ ...request, body: String(request.body).slice(0, -1) });
      expect(response.status).toBe(400);
      expect(response.headers[REQUEST_ID_HEADER]).toBeUndefined();
      expect(bodyProblems(op, response)).not.toEqual([]);
    },
  );

  it('answers an unknown route or method with its own problem+json and no X-Request-ID', async () => {
    const unknownPath = '/v1/no-such-route';
    expect(Object.keys(openapiDocument.paths as JsonObject)).not.toContain(unknownPath);
    const route = await call({ method: 'GET', path: unknownPath, headers: {} });
    expect(route.status).toBe(404);
    expect(route.mediaType).toBe('application/problem+json');
    expect(route.headers[REQUEST_ID_HEADER]).toBeUndefined();

    const documentedMethods = new Set<string>(operations.filter((op) => op.path === anyOperation.path).map((op) => op.method));
    const otherMethod = ['put', 'patch', 'delete', 'post', 'get'].find((method) => !documentedMethods.has(method))!;
    const method = await call({ ...validRequest(anyOperation), method: otherMethod.toUpperCase() });
    expect(method.status).toBe(405);
    expect(method.mediaType).toBe('application/problem+json');
  });

  it('adds CORS headers to every answer', async () => {
    const response = await call(validRequest(anyOperation));
    expect(response.headers['access-control-allow-origin']).toBe('*');
  });

  it('matches any __server value: the {base_url} variable has no enum', async () => {
    const server = (openapiDocument.servers as JsonObject[])[0]!;
    expect(String(server.url)).toMatch(/^\{\w+\}$/);
    const request = validRequest(anyOperation);
    const response = await call({ ...request, path: `${request.path}?__server=${encodeURIComponent('http://unrelated.invalid:1/elsewhere')}` });
    expect(response.status).toBe(successStatus(anyOperation));
  });

  it('in dynamic mode generates bodies that break if/then; with errors on, Prism answers those 500 problem+json', async () => {
    const op = jsonBodyOperations[0]!;
    const outcomes: string[] = [];
    for (let seed = 1; seed <= 30; seed++) {
      const response = await call(withHeaders(validRequest(op), { prefer: `dynamic=true, seed=${seed}` }));
      if (response.status === 500) {
        expect(response.mediaType).toBe('application/problem+json');
        const keywords = (jsonBody(response) as { validation: { code: string }[] }).validation.map((violation) => violation.code);
        expect(keywords).toContain('if');
        outcomes.push('if/then violation');
      } else {
        expect(response.status).toBe(successStatus(op));
        expect(bodyProblems(op, response)).toEqual([]);
        outcomes.push('valid');
      }
    }
    expect(outcomes).toContain('if/then violation');
    expect(outcomes).toContain('valid');
  });
});

function pathParameterName(op: Operation): string {
  const match = /\{([^}]+)\}/.exec(op.path);
  if (!match) throw new Error(`${op.path} has no path parameter`);
  return match[1]!;
}

/** The request with the operation's one path parameter set to value. */
function withPath(request: MockRequest, op: Operation, value: string): MockRequest {
  return { ...request, path: op.path.replace(`{${pathParameterName(op)}}`, encodeURIComponent(value)) };
}

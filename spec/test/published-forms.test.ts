// The published forms of the spec (npm run spec:json): the JSON form, and the contract form that
// generic schema-driven tools are pointed at. They must be current, and the contract form must
// judge a response as the suites do: every open point relaxed, every seed rule kept.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { contractDocument, isObject, openapiDocument, schemaValidator, type JsonObject } from '../index.ts';
import { publishedForms, staleForms } from '../scripts/write-published-forms.ts';

const SCHEMAS = (document: JsonObject) => (document.components as JsonObject).schemas as JsonObject;

/**
 * Validates a component schema of a published document as a generic tool would: ajv, loose
 * mode, the OpenAPI document used as it is (discriminator, example and binary left unread).
 */
function genericValidator(document: JsonObject): (schemaName: string, value: unknown) => boolean {
  const ajv = new Ajv2020({ strict: false, logger: false });
  addFormats.default(ajv);
  ajv.addSchema({ ...structuredClone(document), $id: 'https://decision-service.example/published.json' } as object);
  return (schemaName, value) => ajv.validate({ $ref: `https://decision-service.example/published.json#/components/schemas/${schemaName}` }, value) as boolean;
}

const decideResponse = (answers: JsonObject, usage: JsonObject = { input_tokens: 12 }) => ({ model: 'svc-one-v1', answers, usage });

// Responses a server may give on open points, unlike the reference server's choices.
const OTHER_OPEN_POINT_CHOICES: Array<[string, string, unknown]> = [
  ['a noul answer in another shape (answer-shapes)', 'DecideResponse', decideResponse({ refund: { type: 'noul', answer: true, p_yes: 0.8 } })],
  ['a multi answer in another shape (answer-shapes)', 'DecideResponse', decideResponse({ issues: { type: 'multi', chosen: { refund: true } } })],
  ['a score answer in another shape (answer-shapes)', 'DecideResponse', decideResponse({ urgency: { type: 'score', value: 7, scale: '0-10' } })],
  ['a models list without object: list (models-shape)', 'ModelList', { models: [{ name: 'svc-one-v1', aliases: ['svc-one-v0', 'svc-one-v0.3'] }] }],
  ['a plain array of model names (models-shape)', 'ModelList', ['svc-one-v1', 'svc-one-v0', 'svc-one-v0.3']],
  ['a feedback record in another shape (feedback-shape)', 'Feedback', { recorded: 2 }],
  ['a health body in another shape (service-endpoint-bodies)', 'Health', { status: 'up', uptime_s: 12 }],
];

// Responses that break what the seed states; every form must reject them.
const SEED_VIOLATIONS: Array<[string, string, unknown]> = [
  ['usage with output tokens (seed 1, 2.4)', 'DecideResponse', decideResponse({}, { input_tokens: 3, output_tokens: 2 })],
  ['a decide body repeating the request id (seed 2.4)', 'DecideResponse', { ...decideResponse({}), request_id: 'req_1' }],
  [
    'an abstained choice answer that still names a choice (seed 3)',
    'ChoiceAnswer',
    { type: 'choice', choice: 'a', confidence: 0, probabilities: { a: 0.5, b: 0.5 }, abstain: true, abstention_status: 'advisory' },
  ],
  [
    'an asset id outside ^asset_[A-Za-z0-9_-]{8,64}$ (seed 2.5)',
    'Asset',
    {
      id: 'asset_1',
      object: 'asset',
      mime_type: 'image/png',
      size_bytes: 1,
      sha256: 'ab',
      created_at: '2026-11-22T09:30:00Z',
      expires_at: '2026-11-23T09:30:00Z',
    },
  ],
  ['an error body without request_id (seed 7)', 'Error', { error: { code: 'INVALID_REQUEST', message: 'bad' } }],
  ['a deleted-asset body with deleted false (seed 4.7)', 'DeletedAsset', { id: 'asset_9c1d2e3f4a5b6c7d', object: 'asset', deleted: false }],
];

describe('the published forms of the spec', () => {
  test('spec/openapi.json, spec/openapi.contract.json and spec/openapi.contract.yaml are what `npm run spec:json` writes', () => {
    expect(publishedForms().map(({ path }) => path.replace(/^.*\/spec\//, 'spec/'))).toEqual([
      'spec/openapi.json',
      'spec/openapi.contract.json',
      'spec/openapi.contract.yaml',
    ]);
    expect(staleForms(), 'stale: run `npm run spec:json`').toEqual([]);
  });

  test('the JSON form is the document as written; the contract YAML is the contract JSON', () => {
    const [json, contractJson, contractYaml] = publishedForms().map(({ path }) => readFileSync(path, 'utf8'));
    expect(JSON.parse(json!)).toEqual(openapiDocument);
    expect(JSON.parse(contractJson!)).toEqual(contractDocument());
    expect(parse(contractYaml!)).toEqual(contractDocument());
  });
});

describe('the contract form', () => {
  const contract = contractDocument();

  test('tells the reader to point Schemathesis, Prism or any schema-driven tool at it', () => {
    expect(String((contract.info as JsonObject).description)).toMatch(
      /^\*\*Contract form\.\*\*[\s\S]*Schemathesis, Prism's validation proxy or any schema-driven tool/,
    );
  });

  test('differs from the spec only in the open-point schemas, the open success statuses and info.description', () => {
    const relaxed: string[] = [];
    for (const [name, schema] of Object.entries(SCHEMAS(openapiDocument))) {
      if (JSON.stringify(schema) !== JSON.stringify(SCHEMAS(contract)[name])) relaxed.push(name);
    }
    const openPointSchemas = Object.entries(SCHEMAS(openapiDocument))
      .filter(([, schema]) => JSON.stringify(schema).includes('"x-open-point"'))
      .map(([name]) => name);
    expect(relaxed).toEqual(openPointSchemas);
    const strip = (document: JsonObject) => ({
      ...document,
      info: { ...(document.info as JsonObject), description: '' },
      components: { ...(document.components as JsonObject), schemas: {} },
      paths: {},
    });
    expect(strip(contract)).toEqual(strip(openapiDocument));
  });

  test('lists a success response whose status is open under 2XX, and keeps the stated 201 of upload', () => {
    const statuses = (document: JsonObject, path: string, method: string) =>
      Object.keys((((document.paths as JsonObject)[path] as JsonObject)[method] as JsonObject).responses as JsonObject).filter((status) =>
        status.startsWith('2'),
      );
    expect(statuses(contract, '/v1/decide', 'post')).toEqual(['2XX']);
    expect(statuses(contract, '/v1/feedback', 'post')).toEqual(['2XX']);
    expect(statuses(contract, '/v1/models', 'get')).toEqual(['2XX']);
    expect(statuses(contract, '/v1/assets/{asset_id}', 'get')).toEqual(['2XX']);
    expect(statuses(contract, '/v1/assets/{asset_id}', 'delete')).toEqual(['2XX']);
    expect(statuses(contract, '/v1/assets', 'post')).toEqual(['201']);
    expect(statuses(openapiDocument, '/v1/decide', 'post')).toEqual(['200']);
  });

  test('a relaxed schema keeps only annotations and the discriminator tag it is selected by', () => {
    for (const [name, schema] of Object.entries(SCHEMAS(contract))) {
      if (!isObject(schema) || typeof schema['x-open-point'] !== 'string') continue;
      const constraining = Object.keys(schema).filter(
        (key) => !key.startsWith('x-') && !['title', 'description', 'examples', 'properties', 'required'].includes(key),
      );
      expect(constraining, name).toEqual([]);
      expect(
        Object.keys((schema.properties as JsonObject | undefined) ?? {}).filter((property) => property !== 'type'),
        name,
      ).toEqual([]);
    }
  });

  const generic = { contract: genericValidator(contract), reference: genericValidator(openapiDocument) };

  test.each(OTHER_OPEN_POINT_CHOICES)('a generic validator of the contract form accepts %s, which the spec as written rejects', (_label, schemaName, body) => {
    expect(generic.contract(schemaName, body)).toBe(true);
    expect(generic.reference(schemaName, body)).toBe(false);
    expect(schemaValidator(schemaName, 'contract')(body).valid).toBe(true);
  });

  test.each(SEED_VIOLATIONS)('a generic validator of the contract form rejects %s, as the suites do', (_label, schemaName, body) => {
    expect(generic.contract(schemaName, body)).toBe(false);
    expect(schemaValidator(schemaName, 'contract')(body).valid).toBe(false);
  });

  test('a generic validator accepts every example of the spec in both forms', () => {
    for (const [name, schema] of Object.entries(SCHEMAS(openapiDocument))) {
      for (const example of ((schema as JsonObject).examples as unknown[] | undefined) ?? []) {
        expect(generic.reference(name, example), name).toBe(true);
        expect(generic.contract(name, example), name).toBe(true);
      }
    }
  });
});

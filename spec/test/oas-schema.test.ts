// Validates spec/openapi.yaml against the official OpenAPI 3.1 JSON Schema, independently of
// Spectral (whose oas3-schema rule uses its own copy of the schema).
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, test } from 'vitest';
import { contractDocument, openapiDocument } from '../index.ts';
import { schemaBundles } from '../validators.ts';

type Spec = Record<string, any>;

async function validate(spec: Spec): Promise<{ valid: boolean; errors?: unknown; version: string }> {
  const validator = new Validator();
  const result = await validator.validate(spec);
  return { ...result, version: validator.version };
}

function copyOfSpec(): Spec {
  return structuredClone(openapiDocument) as Spec;
}

describe('spec/openapi.yaml against the official OpenAPI 3.1 schema', () => {
  test('is a valid OpenAPI 3.1 document', async () => {
    const result = await validate(copyOfSpec());
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(result.version).toBe('3.1');
  });

  test('its contract form (spec/openapi.contract.json) is a valid OpenAPI 3.1 document too', async () => {
    const result = await validate(structuredClone(contractDocument()) as Spec);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  const brokenCopies: Array<{ breakage: string; breakSpec: (spec: Spec) => void }> = [
    { breakage: 'info has no version', breakSpec: (spec) => void delete spec.info.version },
    { breakage: 'a parameter is `in: body`, which 3.1 does not have', breakSpec: (spec) => void (spec.components.parameters.AssetIdPath.in = 'body') },
    {
      breakage: 'a response status key is not a status',
      breakSpec: (spec) => void (spec.paths['/health'].get.responses.ok = spec.paths['/health'].get.responses['200']),
    },
  ];

  test.each(brokenCopies)('rejects a copy where $breakage', async ({ breakSpec }) => {
    const spec = copyOfSpec();
    breakSpec(spec);
    const result = await validate(spec);
    expect(result.valid).toBe(false);
  });
});

describe('the schema bundles the validators compile', () => {
  // The validators skip meta-schema validation at run time (spec/validators.ts): it is done here.
  test('are valid JSON Schema 2020-12, and a broken keyword value is caught', async () => {
    const { Ajv2020 } = await import('ajv/dist/2020.js');
    const ajv = new Ajv2020({ strict: false });
    for (const bundle of schemaBundles()) expect(ajv.validateSchema(bundle), JSON.stringify(ajv.errors)).toBe(true);
    const broken = structuredClone(schemaBundles()[0]!) as Spec;
    broken.$defs.DecideRequest.type = 'objekt';
    expect(ajv.validateSchema(broken)).toBe(false);
  });
});

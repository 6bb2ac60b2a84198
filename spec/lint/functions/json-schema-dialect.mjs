// The spec's schemas are JSON Schema 2020-12 (OpenAPI 3.1's default dialect). Stating it in
// `jsonSchemaDialect` keeps every tool, validator and generator of the kit on the same dialect.
import { createRulesetFunction } from '@stoplight/spectral-core';

export default createRulesetFunction(
  {
    input: null,
    options: { type: 'object', properties: { dialect: { type: 'string' } }, required: ['dialect'], additionalProperties: false },
  },
  function jsonSchemaDialect(document, { dialect }) {
    const declared = document?.jsonSchemaDialect;
    if (declared === dialect) return [];
    return [
      {
        message: `jsonSchemaDialect must be ${dialect}; found ${declared === undefined ? 'none' : JSON.stringify(declared)}.`,
        path: declared === undefined ? [] : ['jsonSchemaDialect'],
      },
    ];
  },
);

// The contract-form validators of the schemas load responses are judged by, in the shape of
// ajv's standalone functions (true when valid, `errors` otherwise). In Node they come from
// spec/validators.ts at first use; load/definitions/response-rules.js replaces this module with
// ajv's standalone code of the same schemas (no `new Function` in k6 at run time).
import { schemaValidator } from '../../spec/index.ts';
import type { SchemaValidator } from './judge.ts';
import { responseSchemas, tableSchemaNames } from './response-schemas.ts';

function adapted(name: string): SchemaValidator {
  const validator = schemaValidator(name, 'contract');
  const validate: SchemaValidator = (value) => {
    const result = validator(value);
    validate.errors = result.valid
      ? null
      : result.issues.map((issue) => ({ instancePath: issue.pointer, message: issue.message.slice(issue.message.indexOf(' ') + 1) }));
    return result.valid;
  };
  return validate;
}

export const contractValidators: Readonly<Record<string, SchemaValidator>> = Object.fromEntries(
  tableSchemaNames(responseSchemas).map((name) => [name, adapted(name)]),
);

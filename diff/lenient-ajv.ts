// The ajv the gate judges values with: documents under comparison carry keywords JSON Schema does
// not know (discriminator, example, vendor extensions) and may be imperfect, so unknown keywords
// are ignored and schemas are not checked against the meta-schema; formats are assertions, as the
// kit's own validators have them.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export function lenientAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, validateSchema: false, logger: false, allErrors: false });
  addFormats(ajv);
  return ajv;
}

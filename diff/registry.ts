// The catalogue of every rule, printable on its own (decision-conformance diff --list-rules).
import type { Rule } from './model.ts';
import { errorCodeRules } from './rules/error-codes.ts';
import { hardRuleRules } from './rules/hard-rules.ts';
import { mediaLimitRules } from './rules/media-limits.ts';
import { openPointRules } from './rules/open-points.ts';
import { operationRules } from './rules/operations.ts';
import { parameterRules } from './rules/parameters.ts';
import { requestBodyRules } from './rules/request-body.ts';
import { responseRules } from './rules/responses.ts';
import { schemaCompositionRules } from './rules/schema-composition.ts';
import { schemaConstraintRules } from './rules/schema-constraints.ts';
import { schemaPropertyRules } from './rules/schema-properties.ts';
import { schemaValueRules } from './rules/schema-values.ts';
import { seedLimitRules } from './rules/seed-limits.ts';
import { versioningRules } from './rules/versioning.ts';

/** Rule families in the order the catalogue lists them. */
export const ruleFamilies: ReadonlyArray<{ family: string; rules: readonly Rule[] }> = [
  { family: 'operations', rules: operationRules },
  { family: 'parameters', rules: parameterRules },
  { family: 'request body', rules: requestBodyRules },
  { family: 'responses', rules: responseRules },
  { family: 'schema values', rules: schemaValueRules },
  { family: 'schema constraints', rules: schemaConstraintRules },
  { family: 'schema properties', rules: schemaPropertyRules },
  { family: 'schema composition', rules: schemaCompositionRules },
  { family: 'seed limits', rules: seedLimitRules },
  { family: 'open points', rules: openPointRules },
  { family: 'error codes', rules: errorCodeRules },
  { family: 'media limits', rules: mediaLimitRules },
  { family: 'hard rules', rules: hardRuleRules },
  { family: 'versioning', rules: versioningRules },
];

export const rules: readonly Rule[] = ruleFamilies.flatMap((entry) => entry.rules);

const duplicates = rules.map((r) => r.id).filter((id, index, ids) => ids.indexOf(id) !== index);
if (duplicates.length > 0) throw new Error(`duplicate diff rule ids: ${duplicates.join(', ')}`);

// The registry: every rule family with its rules and the function that judges them. The
// catalogue (decision-conformance diff --list-rules) and the comparison (diff.ts) both read
// this one list.
import type { RuleFamily } from './family.ts';
import type { Rule } from './model.ts';
import { errorCodeFamily } from './rules/error-codes.ts';
import { hardRuleFamily } from './rules/hard-rules.ts';
import { mediaLimitFamily } from './rules/media-limits.ts';
import { openPointFamily } from './rules/open-points.ts';
import { operationFamily, pathFamily, securitySchemeFamily } from './rules/operations.ts';
import { parameterFamily } from './rules/parameters.ts';
import { requestBodyFamily } from './rules/request-body.ts';
import { schemaApplicatorFamily } from './rules/schema-applicators.ts';
import { responseFamily } from './rules/responses.ts';
import { schemaCompositionFamily } from './rules/schema-composition.ts';
import { schemaConstraintFamily } from './rules/schema-constraints.ts';
import { schemaKeywordFamily } from './rules/schema-keywords.ts';
import { schemaPropertyFamily } from './rules/schema-properties.ts';
import { schemaValueFamily } from './rules/schema-values.ts';
import { seedLimitFamily } from './rules/seed-limits.ts';
import { versioningFamily } from './rules/versioning.ts';

/**
 * Rule families in the order the catalogue lists them. Within a stage they also run in this
 * order (the schema families at each node: values, constraints, properties, composition,
 * applicators, then the fallback for keywords no family judges).
 */
export const ruleFamilies: readonly RuleFamily[] = [
  pathFamily,
  operationFamily,
  securitySchemeFamily,
  parameterFamily,
  requestBodyFamily,
  responseFamily,
  schemaValueFamily,
  schemaConstraintFamily,
  schemaPropertyFamily,
  schemaCompositionFamily,
  schemaApplicatorFamily,
  schemaKeywordFamily,
  seedLimitFamily,
  openPointFamily,
  errorCodeFamily,
  mediaLimitFamily,
  hardRuleFamily,
  versioningFamily,
];

export const rules: readonly Rule[] = ruleFamilies.flatMap((family) => family.rules);

const duplicates = rules.map((r) => r.id).filter((id, index, ids) => ids.indexOf(id) !== index);
if (duplicates.length > 0) throw new Error(`duplicate diff rule ids: ${duplicates.join(', ')}`);

// Spectral ruleset of the Decision Service conformance kit.
//
// Run it with `npm run lint:spec`; spec/test/lint.test.ts proves that every custom rule fires on
// a document broken in exactly one way. It extends every rule of `spectral:oas` (not only the
// recommended ones) and adds rules that encode the seed specification and the conventions of
// spec/openapi.yaml. Each rule's logic is a small pure function in ./functions/.
//
//   decision-snake-case-properties         Seed 2.1: field names are snake_case (schema `properties` keys).
//   decision-v1-bearer-security            Seed 5.1-5.2: every /v1 operation requires an http bearer key with prefix svc_live_.
//   decision-public-endpoints-unauthenticated  Seed 4.4, 5.4: /health and /openapi.json opt out with `security: []`.
//   decision-request-id-header             Seed 2.7: every response declares X-Request-ID via #/components/headers/RequestId.
//   decision-error-response-body           Seed 7: every 4xx/5xx response has an application/json body of #/components/schemas/Error.
//   decision-error-example-status          Seed 7: every error example's code is in the enum and its status is the code's status.
//   decision-error-code-table              Seed 7: ErrorCode enum = x-codes keys; every name-only code has a reference status.
//   decision-seed-section-present          Traceability: path items, operations, schemas, responses, examples, parameters
//                                          and headers cite the seed in x-seed-section.
//   decision-seed-section-known            Traceability: every cited section id exists in x-seed-sections.
//   decision-hard-rule-sections-cited      Coverage: every seed section with hard rules is cited somewhere.
//   decision-closed-request-bodies         Seed 2.2, 4.1: unknown request fields are rejected, so request objects are closed.
//   decision-json-schema-dialect           All tools read the schemas as JSON Schema 2020-12.
//   decision-schema-examples-valid         Schema `examples` arrays validate (spectral:oas only checks `example`).
//   decision-discriminator-mapping         Seed 2.2-2.4: discriminator mappings agree with the branches' `type` const and oneOf.
//   decision-open-point-known              Every x-open-point marker names an open point of x-open-points.
//   decision-open-point-complete           Every open point has id, seed_section, open, x-reference-choice, x-alternate-choice and x-seed-bounds.
//   decision-bad-request-documented        Seed 4.5, 7: an operation with parameters or a body documents 400.
//   decision-choice-answer-arithmetic      Seed 2.4, 3: choice examples have confidence = top-1 - top-2 and choice = argmax or null.
//   decision-seed-limits-in-schemas        Seed 2.1, 2.2, 2.7, 8: every limit in x-seed-limits.schema_keywords is stated by its schema.
//   decision-open-response-schemas         Seed 2.4, 9.3: no schema reachable from a response closes with additionalProperties/unevaluatedProperties: false.
//
// Every rule reads the tables it needs (error codes, open points, seed sections) from the
// document being linted, never from this file, so the spec stays the single source of truth.
import { oas } from '@stoplight/spectral-rulesets';
import badRequestDocumented from './functions/bad-request-documented.mjs';
import choiceAnswerArithmetic from './functions/choice-answer-arithmetic.mjs';
import closedRequestBodies from './functions/closed-request-bodies.mjs';
import discriminatorMapping from './functions/discriminator-mapping.mjs';
import errorCodeTable from './functions/error-code-table.mjs';
import errorExampleStatus from './functions/error-example-status.mjs';
import errorResponseBody from './functions/error-response-body.mjs';
import hardRuleSectionsCited from './functions/hard-rule-sections-cited.mjs';
import jsonSchemaDialect from './functions/json-schema-dialect.mjs';
import openPointComplete from './functions/open-point-complete.mjs';
import openPointKnown from './functions/open-point-known.mjs';
import openResponseSchemas from './functions/open-response-schemas.mjs';
import publicEndpointsUnauthenticated from './functions/public-endpoints-unauthenticated.mjs';
import requestIdHeader from './functions/request-id-header.mjs';
import schemaExamplesValid from './functions/schema-examples-valid.mjs';
import seedSectionKnown from './functions/seed-section-known.mjs';
import seedLimitsInSchemas from './functions/seed-limits-in-schemas.mjs';
import seedSectionPresent from './functions/seed-section-present.mjs';
import snakeCaseProperties from './functions/snake-case-properties.mjs';
import v1BearerSecurity from './functions/v1-bearer-security.mjs';

const OPERATIONS = '$.paths[*][get,put,post,delete,options,head,patch,trace]';

// Where the document keeps its error-code tables; the tables themselves are read at lint time.
const ERROR_CODE_TABLES = {
  errorCodeSchema: '#/components/schemas/ErrorCode',
  nameOnlyOpenPoint: 'name-only-statuses',
};

/**
 * A rule of this ruleset: always an error, reported with the function's own message.
 * Rules default to the unresolved document, so findings point at the node to fix.
 */
/**
 * @typedef {import('@stoplight/spectral-core').RuleDefinition} RuleDefinition
 * @param {string} description
 * @param {RuleDefinition['given']} given
 * @param {RuleDefinition['then']} then
 * @param {{ resolved?: boolean }} [how]
 * @returns {RuleDefinition}
 */
function rule(description, given, then, { resolved = false } = {}) {
  return { description, message: '{{error}}', severity: 'error', given, resolved, then };
}

export default {
  extends: [[oas, 'all']],
  rules: {
    'decision-snake-case-properties': rule(
      'Schema property names are snake_case (seed 2.1). Header names are not schema properties and are not checked.',
      '$',
      { function: snakeCaseProperties },
    ),
    'decision-v1-bearer-security': rule('Every /v1 operation requires an http bearer key whose scheme declares x-key-prefix svc_live_ (seed 5).', '$', {
      function: v1BearerSecurity,
      functionOptions: { pathPrefix: '/v1', keyPrefix: 'svc_live_' },
    }),
    'decision-public-endpoints-unauthenticated': rule(
      'GET /health and GET /openapi.json need no key: they declare `security: []` (seed 4.4, 5.4).',
      '$.paths',
      { function: publicEndpointsUnauthenticated, functionOptions: { paths: ['/health', '/openapi.json'] } },
    ),
    'decision-request-id-header': rule('Every response declares the X-Request-ID header by referencing #/components/headers/RequestId (seed 2.7).', '$', {
      function: requestIdHeader,
      functionOptions: { header: 'X-Request-ID', ref: '#/components/headers/RequestId' },
    }),
    'decision-error-response-body': rule('Every 4xx/5xx response has an application/json body whose schema is #/components/schemas/Error (seed 7).', '$', {
      function: errorResponseBody,
      functionOptions: { mediaType: 'application/json', schemaRef: '#/components/schemas/Error' },
    }),
    'decision-error-example-status': rule(
      "Every error example's error.code is in the ErrorCode enum and sits under the code's status: stated in x-codes, or the reference status of a name-only code (seed 7).",
      '$',
      { function: errorExampleStatus, functionOptions: ERROR_CODE_TABLES },
    ),
    'decision-error-code-table': rule(
      'The ErrorCode enum and x-codes list the same codes, and every name-only code has a reference status in open point name-only-statuses (seed 7).',
      '$',
      { function: errorCodeTable, functionOptions: ERROR_CODE_TABLES },
    ),
    'decision-seed-section-present': rule(
      'Every path item, operation, component schema, response, component example, parameter and header cites the seed in a non-empty x-seed-section.',
      '$',
      { function: seedSectionPresent },
    ),
    'decision-seed-section-known': rule('Every seed section id cited in x-seed-section is listed in x-seed-sections.', '$', { function: seedSectionKnown }),
    'decision-hard-rule-sections-cited': rule('Every seed section with hard_rules: true is cited by at least one x-seed-section.', '$', {
      function: hardRuleSectionsCited,
    }),
    'decision-closed-request-bodies': rule(
      'Every object schema reachable from a JSON request body sets additionalProperties: false, unless it is a map (seed 2.2, 4.1: unknown fields are rejected).',
      `${OPERATIONS}.requestBody`,
      { function: closedRequestBodies },
      { resolved: true },
    ),
    'decision-json-schema-dialect': rule('jsonSchemaDialect is https://json-schema.org/draft/2020-12/schema.', '$', {
      function: jsonSchemaDialect,
      functionOptions: { dialect: 'https://json-schema.org/draft/2020-12/schema' },
    }),
    'decision-schema-examples-valid': rule('Every entry of a schema-level `examples` array validates against its schema (JSON Schema 2020-12).', '$', {
      function: schemaExamplesValid,
    }),
    'decision-discriminator-mapping': rule(
      "Discriminator mapping keys equal the mapped schema's const, every oneOf branch is mapped, every mapping target is a oneOf branch.",
      '$',
      { function: discriminatorMapping },
    ),
    'decision-open-point-known': rule('Every x-open-point marker names an id of x-open-points.', '$', { function: openPointKnown }),
    'decision-open-point-complete': rule(
      'Every open point has an id, a seed_section, what is open, an x-reference-choice and an x-alternate-choice with a summary, and its x-seed-bounds.',
      '$',
      { function: openPointComplete },
    ),
    'decision-bad-request-documented': rule(
      "Every operation that takes parameters (its own or its path item's) or a request body documents a 400 response.",
      '$.paths[*]',
      { function: badRequestDocumented },
    ),
    'decision-choice-answer-arithmetic': rule(
      'Choice-answer examples have confidence = top-1 minus top-2 probability (within 1e-9) and choice = the most probable option, or null when abstaining (seed 2.4, 3).',
      '$',
      { function: choiceAnswerArithmetic },
    ),
    'decision-seed-limits-in-schemas': rule(
      'Every limit recorded in x-seed-limits.schema_keywords (questions 1..16, parts 1..16, lengths 1..8000, part id <= 100, asset id and request id forms) is stated, with the same value, by the schema it applies to (seed 2.1, 2.2, 2.7, 8).',
      '$',
      { function: seedLimitsInSchemas },
    ),
    'decision-open-response-schemas': rule(
      'No schema reachable from a response body, through $refs, sets additionalProperties: false or unevaluatedProperties: false (seed 2.4, 9.3: servers may add response fields).',
      '$',
      { function: openResponseSchemas },
    ),
  },
};

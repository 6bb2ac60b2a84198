// ajv validators compiled from the spec's schemas (JSON Schema 2020-12, with ajv-formats).
//
// Two modes:
// - 'reference': the spec as written, reference choices included. What the bundled reference
//   server and the Prism mock must meet.
// - 'contract': what the seed states, and nothing more. Every schema marked `x-open-point`
//   (a reference choice, not a seed rule) is relaxed to accept anything, keeping only the
//   `const` tags a discriminator needs to pick a branch (contract-form.ts, which also publishes
//   the relaxed document for generic tools). The suites judge servers in this mode.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { precompiledReference } from './precompiled-validators.ts';
import { deref, isObject, openapiDocument, type Json, type JsonObject } from './document.ts';
import { isOpenSuccessResponse, relaxOpenPointSchemas } from './contract-form.ts';
import { documentedResponse, operation } from './operations.ts';

export type ValidationMode = 'contract' | 'reference';

export interface ValidationIssue {
  /** JSON pointer into the validated value ("" for the value itself). */
  pointer: string;
  message: string;
  keyword: string;
}

export interface ValidationResult {
  valid: boolean;
  issues: ValidationIssue[];
}

export type Validator = (value: unknown) => ValidationResult;

const SCHEMA_PREFIX = '#/components/schemas/';
const BUNDLE_ID: Record<ValidationMode, string> = {
  reference: 'urn:decision-service:schemas:reference',
  contract: 'urn:decision-service:schemas:contract',
};

const componentSchemas = (openapiDocument.components as JsonObject).schemas as JsonObject;

/**
 * Rewrites the spec's component schemas into one self-contained JSON Schema bundle for ajv;
 * in contract mode, after relaxing every open-point schema (contract-form.ts).
 */
function bundleFor(mode: ValidationMode): JsonObject {
  const rewrite = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!isObject(node)) return node;
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMA_PREFIX)) {
        out.$ref = `#/$defs/${value.slice(SCHEMA_PREFIX.length)}`;
      } else if (key === 'discriminator' && isObject(value)) {
        // ajv selects the oneOf branch by the tag's const; it rejects `mapping`, which the
        // Spectral ruleset checks against those consts instead.
        out.discriminator = { propertyName: value.propertyName as string };
      } else {
        out[key] = rewrite(value);
      }
    }
    return out;
  };
  return { $id: BUNDLE_ID[mode], $defs: rewrite(mode === 'contract' ? relaxOpenPointSchemas(componentSchemas) : componentSchemas) };
}

function extensionKeywords(node: Json, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((child) => extensionKeywords(child, found));
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('x-')) found.add(key);
      extensionKeywords(value, found);
    }
  }
  return found;
}

/** Both bundles, as ajv receives them: spec/test checks them against the JSON Schema 2020-12 meta-schema. */
export function schemaBundles(): JsonObject[] {
  return [bundleFor('reference'), bundleFor('contract')];
}

function createAjv(keepSource = false): Ajv2020 {
  // validateSchema off: checking the bundles against the meta-schema meant compiling the
  // meta-schema itself at every start, a tenth of the reference server's; the spec's tests do it
  // once instead (spec/test/oas-schema.test.ts). Strict mode still rejects unknown keywords.
  const ajv = new Ajv2020({
    allErrors: true,
    discriminator: true,
    strict: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    validateSchema: false,
    code: { source: keepSource },
  });
  addFormats.default(ajv);
  ajv.addFormat('binary', true);
  ajv.addKeyword({ keyword: 'example' });
  for (const keyword of extensionKeywords(componentSchemas)) ajv.addKeyword({ keyword });
  for (const bundle of schemaBundles()) ajv.addSchema(bundle);
  return ajv;
}

/**
 * Every component schema's validator in one mode, as the source of a CommonJS module exporting
 * them by schema name (ajv's standalone code; `names` limits it to some schemas and what they
 * reference). reference-impl/start.mjs puts the reference-mode
 * module into the server's bundle, so a bundled start compiles no schema: compiling
 * DecideRequest alone was a sixth of a start.
 */
export function standaloneValidatorsCode(mode: ValidationMode, names: readonly string[] = Object.keys(componentSchemas)): string {
  const ajv = createAjv(true);
  const refs = Object.fromEntries(names.map((name) => [name, `${BUNDLE_ID[mode]}#/$defs/${name}`]));
  return standaloneCode(ajv, refs);
}

let sharedAjv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

function compiledSchema(name: string, mode: ValidationMode): ValidateFunction {
  if (!(name in componentSchemas)) throw new Error(`No component schema ${name} in the spec`);
  const key = `${mode}:${name}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = mode === 'reference' ? precompiledReference?.[name] : undefined;
    if (!validate) {
      sharedAjv ??= createAjv();
      validate = sharedAjv.getSchema(`${BUNDLE_ID[mode]}#/$defs/${name}`);
      if (!validate) throw new Error(`ajv could not compile ${name}`);
    }
    compiled.set(key, validate);
  }
  return validate;
}

function toIssues(errors: ErrorObject[] | null | undefined): ValidationIssue[] {
  return (errors ?? []).map((error) => ({
    pointer: error.instancePath,
    keyword: error.keyword,
    message: `${error.instancePath || '(root)'} ${error.message ?? 'is invalid'}${describeParams(error)}`,
  }));
}

function describeParams(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') return `: ${String(params.additionalProperty)}`;
  if (error.keyword === 'enum' || error.keyword === 'const') {
    return `: ${JSON.stringify(params.allowedValues ?? params.allowedValue)}`;
  }
  return '';
}

/** A validator for one component schema, e.g. schemaValidator('DecideRequest'). */
export function schemaValidator(name: string, mode: ValidationMode = 'reference'): Validator {
  return (value) => {
    const validate = compiledSchema(name, mode);
    const valid = validate(value) as boolean;
    return { valid, issues: valid ? [] : toIssues(validate.errors) };
  };
}

function schemaNameOf(mediaObject: Json | undefined): string | undefined {
  if (!isObject(mediaObject) || !isObject(mediaObject.schema)) return undefined;
  const ref = mediaObject.schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith(SCHEMA_PREFIX)) {
    throw new Error('Every body schema in the spec is a $ref to a component schema');
  }
  return ref.slice(SCHEMA_PREFIX.length);
}

/** The component schema name of an operation's JSON request body. */
export function requestBodySchemaName(operationId: string, mediaType = 'application/json'): string | undefined {
  const body = operation(operationId).definition.requestBody;
  if (!body) return undefined;
  const content = deref(body as JsonObject).content as JsonObject;
  return schemaNameOf(content[mediaType]);
}

export function requestBodyValidator(operationId: string, mediaType = 'application/json'): Validator {
  const name = requestBodySchemaName(operationId, mediaType);
  if (!name) throw new Error(`${operationId} takes no ${mediaType} body`);
  return schemaValidator(name, 'reference');
}

export interface ResponseSchemaChoice {
  schemaName: string;
  /**
   * How the schema was chosen: the response documented for that status; the documented success
   * response for another 2xx when the success status is an open point; or the seed's one error
   * body for an error status the spec does not document on this operation.
   */
  source: 'documented' | 'open-success-status' | 'error-body';
}

/** Which schema a response of this operation and status must meet, or undefined when none applies. */
export function responseSchemaFor(operationId: string, status: number, mode: ValidationMode = 'contract'): ResponseSchemaChoice | undefined {
  const documented = documentedResponse(operationId, status);
  if (documented) {
    const name = schemaNameOf((documented.content as JsonObject | undefined)?.['application/json']);
    return name ? { schemaName: name, source: 'documented' } : undefined;
  }
  if (mode === 'contract' && status >= 200 && status < 300) {
    for (const candidate of operation(operationId).statuses.filter((s) => s >= 200 && s < 300)) {
      const success = documentedResponse(operationId, candidate);
      if (success && isOpenSuccessResponse(String(candidate), success)) {
        const name = schemaNameOf((success.content as JsonObject | undefined)?.['application/json']);
        if (name) return { schemaName: name, source: 'open-success-status' };
      }
    }
  }
  if (status >= 400) return { schemaName: 'Error', source: 'error-body' };
  return undefined;
}

/** Validates a response body of an operation for a status; undefined when the spec sets no schema for it. */
export function validateResponseBody(
  operationId: string,
  status: number,
  body: unknown,
  mode: ValidationMode = 'contract',
): (ValidationResult & ResponseSchemaChoice) | undefined {
  const choice = responseSchemaFor(operationId, status, mode);
  if (!choice) return undefined;
  return { ...choice, ...schemaValidator(choice.schemaName, mode)(body) };
}

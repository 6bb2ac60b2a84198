// What a request may carry, node by node: the JSON body's schema walked through `$ref`, `allOf`,
// `oneOf` and `anyOf`, and the parameters (path, query, header) of each operation. The coverage
// phase derives its cases from these nodes, and counts them against the constraint keywords each
// node has, so that a keyword the spec gains is a keyword the kit tries.
import { deref, isObject, openapiDocument, type Json, type JsonObject } from './document.ts';
import { operation } from './operations.ts';

/** One step from a node to a child: a named property, a value of a map, an item, or a union branch. */
export type SchemaStep =
  | { kind: 'property'; name: string }
  | { kind: 'additional' }
  | { kind: 'item' }
  | { kind: 'branch'; index: number; name: string; tag?: { property: string; value: string } };

export interface SchemaNode {
  /** The steps from the body's root; empty for the root. */
  steps: readonly SchemaStep[];
  /** The steps written out: `/context<ContentParts>/*<TextPart>/text`. */
  pointer: string;
  /** The node's schema, `$ref` followed and `allOf` members merged. */
  schema: JsonObject;
  /** The component the node's schema is, when reached by `$ref`. */
  name?: string;
  /** Whether the parent object lists the node as required (always false for the root, items and branches). */
  required: boolean;
  /** The innermost open point (x-open-point) of the node or of a schema around it. */
  openPoint?: string;
}

/** The keywords that constrain an instance, in the order a report lists them. */
export const CONSTRAINT_KEYWORDS = [
  'type',
  'const',
  'enum',
  'oneOf',
  'anyOf',
  'required',
  'additionalProperties',
  'minProperties',
  'maxProperties',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'uniqueItems',
  // Not in the spec today: listed so that a spec that gains one shows it untried until the coverage phase tries it.
  'propertyNames',
  'patternProperties',
  'dependentRequired',
  'dependentSchemas',
  'prefixItems',
  'contains',
  'minContains',
  'maxContains',
  'not',
  'if',
] as const;
export type ConstraintKeyword = (typeof CONSTRAINT_KEYWORDS)[number];

const REF_PREFIX = '#/components/schemas/';

/** The schema with `$ref` followed and `allOf` members merged into it (later members win on scalars). */
export function resolvedSchema(node: Json): { schema: JsonObject; name?: string } {
  if (!isObject(node)) throw new Error('A request schema node is an object');
  const ref = typeof node.$ref === 'string' ? node.$ref : undefined;
  const schema = deref<JsonObject>(node);
  const name = ref?.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : undefined;
  if (!Array.isArray(schema.allOf)) return { schema, ...(name ? { name } : {}) };
  const merged: JsonObject = { ...schema };
  delete merged.allOf;
  for (const member of schema.allOf) {
    const part = resolvedSchema(member).schema;
    for (const [key, value] of Object.entries(part)) {
      if (key === 'properties' && isObject(merged.properties) && isObject(value)) merged.properties = { ...merged.properties, ...value };
      else if (key === 'required' && Array.isArray(merged.required) && Array.isArray(value)) merged.required = [...merged.required, ...value];
      else merged[key] = value;
    }
  }
  return { schema: merged, ...(name ? { name } : {}) };
}

/** `/context<ContentParts>/*<TextPart>/text`: properties by name, items as `*`, map values as `{}`, branches in angle brackets. */
export function pointerOf(steps: readonly SchemaStep[]): string {
  let pointer = '';
  for (const step of steps) {
    if (step.kind === 'property') pointer += `/${step.name}`;
    else if (step.kind === 'additional') pointer += '/{}';
    else if (step.kind === 'item') pointer += '/*';
    else pointer += `<${step.name}>`;
  }
  return pointer === '' ? '/' : pointer;
}

/** The discriminator tag a branch selects by: `{property: 'type', value: 'text'}` for TextPart. */
function tagOf(union: JsonObject, branch: JsonObject): { property: string; value: string } | undefined {
  const discriminator = union.discriminator;
  if (!isObject(discriminator) || typeof discriminator.propertyName !== 'string') return undefined;
  const property = discriminator.propertyName;
  const tag = isObject(branch.properties) ? branch.properties[property] : undefined;
  return isObject(tag) && typeof tag.const === 'string' ? { property, value: tag.const } : undefined;
}

/** Every node of a schema, depth first, the node before its children. */
export function schemaNodes(root: Json): SchemaNode[] {
  const nodes: SchemaNode[] = [];
  const visit = (node: Json, steps: SchemaStep[], required: boolean, openPoint: string | undefined, seen: readonly string[]) => {
    const { schema, name } = resolvedSchema(node);
    if (name && seen.includes(name)) return; // a recursive schema is walked once
    const open = typeof schema['x-open-point'] === 'string' ? schema['x-open-point'] : openPoint;
    nodes.push({ steps, pointer: pointerOf(steps), schema, ...(name ? { name } : {}), required, ...(open ? { openPoint: open } : {}) });
    const within = name ? [...seen, name] : seen;
    for (const union of ['oneOf', 'anyOf'] as const) {
      const branches = schema[union];
      if (!Array.isArray(branches)) continue;
      branches.forEach((branch, index) => {
        const { schema: branchSchema, name: branchName } = resolvedSchema(branch);
        const tag = tagOf(schema, branchSchema);
        visit(branch, [...steps, { kind: 'branch', index, name: branchName ?? `${union}[${index}]`, ...(tag ? { tag } : {}) }], false, open, within);
      });
    }
    if (isObject(schema.properties)) {
      const requiredNames = Array.isArray(schema.required) ? schema.required : [];
      for (const [property, child] of Object.entries(schema.properties))
        visit(child, [...steps, { kind: 'property', name: property }], requiredNames.includes(property), open, within);
    }
    if (isObject(schema.additionalProperties)) visit(schema.additionalProperties, [...steps, { kind: 'additional' }], false, open, within);
    if (isObject(schema.items)) visit(schema.items, [...steps, { kind: 'item' }], false, open, within);
  };
  visit(root, [], false, undefined, []);
  return nodes;
}

/** The constraint keywords a node has (`additionalProperties` only when it closes the object). */
export function constraintKeywords(schema: JsonObject): ConstraintKeyword[] {
  return CONSTRAINT_KEYWORDS.filter((keyword) => {
    if (!(keyword in schema)) return false;
    if (keyword === 'required') return Array.isArray(schema.required) && schema.required.length > 0;
    if (keyword === 'additionalProperties') return schema.additionalProperties === false;
    return true;
  });
}

/** The schema of an operation's JSON request body as a `$ref`, or undefined when it takes none. */
export function jsonRequestSchema(operationId: string): Json | undefined {
  const body = operation(operationId).definition.requestBody;
  if (!body) return undefined;
  const content = deref(body as JsonObject).content;
  const json = isObject(content) ? content['application/json'] : undefined;
  return isObject(json) && isObject(json.schema) ? json.schema : undefined;
}

/**
 * What the spec says of a parameter's invalid values (x-invalid-value): the open point that leaves
 * their answer open, and whether a success is still ruled out inside it.
 */
export interface InvalidValueRule {
  openPoint: string;
  /** True when the seed still rules out a success for an invalid value (a MUST refusal). */
  neverSuccess: boolean;
}

export interface RequestParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: Json;
  /** The parameter's `example`, a value that passes. */
  example?: Json;
  invalidValue?: InvalidValueRule;
}

/** The parameters of an operation, those of its path first, `$ref`s followed. */
export function requestParameters(operationId: string): RequestParameter[] {
  const op = operation(operationId);
  const pathItem = (openapiDocument.paths as JsonObject)[op.path] as JsonObject;
  const all = [...((pathItem.parameters as Json[] | undefined) ?? []), ...((op.definition.parameters as Json[] | undefined) ?? [])];
  return all.map((entry) => {
    const parameter = deref<JsonObject>(entry as JsonObject);
    const invalid = parameter['x-invalid-value'];
    return {
      name: String(parameter.name),
      in: parameter.in as RequestParameter['in'],
      required: parameter.required === true,
      schema: parameter.schema as Json,
      ...(parameter.example !== undefined ? { example: parameter.example } : {}),
      ...(isObject(invalid) ? { invalidValue: { openPoint: String(invalid.open_point), neverSuccess: invalid.success === 'never' } } : {}),
    };
  });
}

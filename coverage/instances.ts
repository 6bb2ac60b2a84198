// Request bodies that hold a given schema node: a request that passes is followed along the
// node's steps, keeping what it has where it already takes the node's branch and building the
// rest from the schema (its examples, its required properties, its bounds). Where a value cannot
// come from the schema alone (an asset id must name a real asset), a hook supplies it.
import { isObject, resolvedSchema, type Json, type JsonObject, type SchemaStep } from '../spec/index.ts';
import { fitsString, hasAdmittedType } from './values.ts';

/** Where a node's value is in a body: property names and item indexes from the root. */
export type Location = ReadonlyArray<string | number>;

/**
 * Supplies a value the schema cannot (a real asset id), given the component's name and the steps
 * that led to it; undefined to build from the schema. Throws Unbuildable when no value can be had.
 */
export type LeafHook = (name: string | undefined, steps: readonly SchemaStep[]) => unknown;

/** A node no valid body can hold on this target, and why (e.g. no asset of its family). */
export class Unbuildable extends Error {}

const copy = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

/**
 * A valid value of a schema, built from it: what a body takes where it had nothing. Objects take
 * their required properties and those of their example (a noul question its instructions), each
 * built the same way; a scalar of the example (or `preferred`) is kept where it fits.
 */
function minimalValue(node: Json, steps: readonly SchemaStep[], hook: LeafHook, preferred?: unknown): unknown {
  const { schema, name } = resolvedSchema(node);
  const hooked = hook(name, steps);
  if (hooked !== undefined) return hooked;
  if ('const' in schema) return copy(schema.const);
  if (Array.isArray(schema.enum)) return copy(schema.enum[0]);
  const branches = (schema.oneOf ?? schema.anyOf) as Json[] | undefined;
  if (Array.isArray(branches)) {
    const { name: branchName } = resolvedSchema(branches[0]!);
    return minimalValue(branches[0]!, [...steps, { kind: 'branch', index: 0, name: branchName ?? 'oneOf[0]' }], hook);
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const example = preferred !== undefined && hasAdmittedType(node, preferred) ? preferred : Array.isArray(schema.examples) ? schema.examples[0] : undefined;
  switch (type) {
    case 'object':
      return minimalObject(schema, example, steps, hook);
    case 'array': {
      const count = Math.max(typeof schema.minItems === 'number' ? schema.minItems : 1, 1);
      return Array.from({ length: count }, () => minimalValue(schema.items as Json, [...steps, { kind: 'item' }], hook));
    }
    case 'string': {
      if (typeof example === 'string' && fitsString(schema, example)) return example;
      if (Array.isArray(schema.examples) && typeof schema.examples[0] === 'string' && fitsString(schema, schema.examples[0])) return schema.examples[0];
      const value = 'a'.repeat(Math.max(typeof schema.minLength === 'number' ? schema.minLength : 1, 1));
      if (!fitsString(schema, value)) throw new Unbuildable(`no value of ${name ?? 'a string'} can be built from its schema`);
      return value;
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    default:
      return copy(example ?? null);
  }
}

/** An object: its required properties and its example's; a map takes the keys of its example (or one key), each with a value of its own schema. */
function minimalObject(schema: JsonObject, example: unknown, steps: readonly SchemaStep[], hook: LeafHook): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  const properties = isObject(schema.properties) ? schema.properties : {};
  const fromExample = isObject(example) ? Object.keys(example).filter((property) => property in properties) : [];
  for (const property of new Set([...((schema.required as string[] | undefined) ?? []), ...fromExample]))
    value[property] = minimalValue(
      properties[property] as Json,
      [...steps, { kind: 'property', name: property }],
      hook,
      isObject(example) ? example[property] : undefined,
    );
  if (isObject(schema.additionalProperties)) {
    const entries = isObject(example) ? Object.entries(example) : [];
    const keys = entries.length > 0 ? entries : [['k1', undefined] as const];
    for (const [key, exampleValue] of keys) {
      // An example's value of the map's own type is kept (a description, a null); others are built.
      const builtValue = () => minimalValue(schema.additionalProperties as Json, [...steps, { kind: 'additional' }], hook);
      value[key] =
        exampleValue !== undefined && !isObject(exampleValue) && hasAdmittedType(schema.additionalProperties, exampleValue) ? exampleValue : builtValue();
    }
  }
  return value;
}

/** Whether a value already takes the branch (its tag, or for an untagged branch its JSON type). */
function takesBranch(value: unknown, branch: Json, step: Extract<SchemaStep, { kind: 'branch' }>): boolean {
  if (step.tag) return isObject(value) && value[step.tag.property] === step.tag.value;
  return value !== undefined && hasAdmittedType(branch, value);
}

/**
 * A body that holds the node at `steps`, built on `base` (a request that passes), and where in it
 * the node's value is. The first value of a map or an array is the one followed.
 */
export function instantiate(root: Json, steps: readonly SchemaStep[], base: unknown, hook: LeafHook): { body: unknown; at: Location } {
  const follow = (node: Json, rest: readonly SchemaStep[], current: unknown, trail: readonly SchemaStep[]): { value: unknown; at: Location } => {
    if (rest.length === 0) return { value: current === undefined ? minimalValue(node, trail, hook) : current, at: [] };
    const { schema } = resolvedSchema(node);
    const [step, ...after] = rest as [SchemaStep, ...SchemaStep[]];
    const next = [...trail, step];
    switch (step.kind) {
      case 'branch': {
        const branch = ((schema.oneOf ?? schema.anyOf) as Json[])[step.index]!;
        return follow(branch, after, takesBranch(current, branch, step) ? current : undefined, next);
      }
      case 'property': {
        const object = { ...((isObject(current) ? current : minimalValue(node, trail, hook)) as Record<string, unknown>) };
        const child = follow((schema.properties as JsonObject)[step.name] as Json, after, object[step.name], next);
        object[step.name] = child.value;
        return { value: object, at: [step.name, ...child.at] };
      }
      case 'additional': {
        const object = { ...((isObject(current) ? current : minimalValue(node, trail, hook)) as Record<string, unknown>) };
        const key = Object.keys(object)[0] ?? 'k1';
        const child = follow(schema.additionalProperties as Json, after, object[key], next);
        object[key] = child.value;
        return { value: object, at: [key, ...child.at] };
      }
      case 'item': {
        const items = [...((Array.isArray(current) && current.length > 0 ? current : minimalValue(node, trail, hook)) as unknown[])];
        const child = follow(schema.items as Json, after, items[0], next);
        items[0] = child.value;
        return { value: items, at: [0, ...child.at] };
      }
    }
  };
  const { value, at } = follow(root, steps, copy(base), []);
  return { body: value, at };
}

/** The value at a location. */
export function valueAt(body: unknown, at: Location): unknown {
  return at.reduce<unknown>((value, key) => (value as Record<string | number, unknown>)[key], body);
}

/** A copy of `body` with `edit` applied to the value at `at` (the root when `at` is empty). */
export function editAt(body: unknown, at: Location, edit: (value: unknown) => unknown): unknown {
  if (at.length === 0) return edit(copy(body));
  const result = copy(body);
  const parent = valueAt(result, at.slice(0, -1)) as Record<string | number, unknown>;
  parent[at.at(-1)!] = edit(parent[at.at(-1)!]);
  return result;
}

/** A copy of `body` with the value at `at` replaced. */
export const setAt = (body: unknown, at: Location, value: unknown) => editAt(body, at, () => copy(value));

/** A copy of an object with one property removed, or renamed in place (the other names keep their order). */
export function withoutProperty(object: unknown, name: string): Record<string, unknown> {
  const { [name]: _gone, ...rest } = object as Record<string, unknown>;
  return rest;
}

export function withRenamedProperty(object: unknown, from: string, to: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object as Record<string, unknown>).map(([key, value]) => [key === from ? to : key, value]));
}

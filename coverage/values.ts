// The values the coverage phase puts in place of a node's value: one of each JSON type, strings
// of a given length that still match a pattern, strings just off a pattern, and the near-variants
// of a property name that a lenient JSON decoder may take for the name itself.
import { isObject, resolvedSchema, type Json, type JsonObject } from '../spec/index.ts';

export type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

/** One value of each JSON type, as the cases send them. */
export const TYPE_SAMPLES: Readonly<Record<JsonType, unknown>> = Object.freeze({
  null: null,
  boolean: true,
  number: 1,
  string: 'text',
  array: [],
  object: {},
});

const typeOfValue = (value: unknown): JsonType =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : (typeof value as 'boolean' | 'number' | 'string' | 'object');

/**
 * The JSON types a schema admits: its `type`, the type of its `const` or `enum` values, or those
 * of its union's branches; undefined when it does not say (any type).
 */
export function admittedTypes(node: Json): Set<JsonType> | undefined {
  const { schema } = resolvedSchema(node);
  if (schema.type !== undefined) {
    const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).map((type) => (type === 'integer' ? 'number' : type));
    return new Set(types as JsonType[]);
  }
  if ('const' in schema) return new Set([typeOfValue(schema.const)]);
  if (Array.isArray(schema.enum)) return new Set(schema.enum.map(typeOfValue));
  const branches = (schema.oneOf ?? schema.anyOf) as Json[] | undefined;
  if (!Array.isArray(branches)) return undefined;
  const found = new Set<JsonType>();
  for (const branch of branches) {
    const types = admittedTypes(branch);
    if (!types) return undefined;
    for (const type of types) found.add(type);
  }
  return found;
}

/** Whether `value` is of a type the schema admits (true when it says nothing). */
export function hasAdmittedType(node: Json, value: unknown): boolean {
  return admittedTypes(node)?.has(typeOfValue(value)) ?? true;
}

/** Whether a string keeps a schema's length bounds and pattern (patterns read as ajv reads them, with the u flag). */
export function fitsString(schema: JsonObject, value: string): boolean {
  const length = [...value].length;
  if (typeof schema.minLength === 'number' && length < schema.minLength) return false;
  if (typeof schema.maxLength === 'number' && length > schema.maxLength) return false;
  return typeof schema.pattern !== 'string' || new RegExp(schema.pattern, 'u').test(value);
}

/** A string of exactly `length` characters that matches the schema's pattern (if any), or undefined when none of the tries does. */
export function stringOfLength(schema: JsonObject, length: number): string | undefined {
  const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : undefined;
  for (const letter of ['a', 'A', '0', '_', '-', '.']) {
    const value = letter.repeat(length);
    if (!pattern || pattern.test(value)) return value;
  }
  return undefined;
}

/**
 * The strings at each length bound of a schema and one past it: `minLength` and one less,
 * `maxLength` and one more. At a bound the value still matches the pattern; past it only the
 * length is what is tried (an empty string matches no `+`), so it may break the pattern too.
 */
export function lengthCases(schema: JsonObject): Array<{ keyword: 'minLength' | 'maxLength'; length: number; value: string; within: boolean }> {
  const cases = [];
  for (const [keyword, bound, outside] of [
    ['minLength', schema.minLength, -1],
    ['maxLength', schema.maxLength, 1],
  ] as const) {
    if (typeof bound !== 'number') continue;
    for (const length of [bound, bound + outside]) {
      const within = length === bound;
      const value = length < 0 ? undefined : (stringOfLength(schema, length) ?? (within ? undefined : 'a'.repeat(length)));
      if (value !== undefined) cases.push({ keyword, length, value, within });
    }
  }
  return cases;
}

/**
 * A string just off the schema's pattern and within its length bounds, made from a valid value by
 * one small change (a space in the middle, a character the pattern leaves out at either end, a
 * few characters cut), or undefined when none of them is off the pattern.
 */
export function offPattern(schema: JsonObject, valid: string): string | undefined {
  if (typeof schema.pattern !== 'string') return undefined;
  const pattern = new RegExp(schema.pattern, 'u');
  const middle = Math.floor(valid.length / 2);
  const tries = [
    `${valid.slice(0, middle)} ${valid.slice(middle + 1)}`,
    `${valid.slice(0, -1)}!`,
    `!${valid.slice(1)}`,
    valid.slice(0, Math.max(1, valid.length - 8)),
    `${valid}${valid}`,
  ];
  const withinLength = { ...schema } as JsonObject;
  delete withinLength.pattern;
  return tries.find((value) => !pattern.test(value) && fitsString(withinLength, value));
}

/** Cyrillic letters that look like Latin ones: a decoder that folds or a reader that skims takes one for the other. */
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  a: '\u0430',
  c: '\u0441',
  e: '\u0435',
  i: '\u0456',
  o: '\u043e',
  p: '\u0440',
  s: '\u0455',
  x: '\u0445',
  y: '\u0443',
};

/**
 * Names a closed object does not list, each a near-variant of a listed one: another letter case
 * (first letter, all letters), surrounding whitespace (before, after), a look-alike letter.
 */
export function nearVariants(name: string): Array<{ how: string; name: string }> {
  const variants = [
    { how: 'first letter in upper case', name: name.charAt(0).toUpperCase() + name.slice(1) },
    { how: 'in upper case', name: name.toUpperCase() },
    { how: 'a space before it', name: ` ${name}` },
    { how: 'a space after it', name: `${name} ` },
  ];
  const index = [...name].findIndex((letter) => letter in LOOK_ALIKES);
  if (index >= 0) {
    const letters = [...name];
    letters[index] = LOOK_ALIKES[letters[index]!]!;
    variants.push({
      how: `a look-alike ${JSON.stringify(name[index])} (U+${letters[index]!.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`,
      name: letters.join(''),
    });
  }
  return variants.filter((variant) => variant.name !== name);
}

/** A short description of a value for a case's name: `null`, `"aaa…" (8001 characters)`, `an object of 17 entries`. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return value.length > 24 ? `${JSON.stringify(value.slice(0, 12))}… (${[...value].length} characters)` : JSON.stringify(value);
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `an array of ${value.length} items`;
  if (isObject(value)) return Object.keys(value).length === 0 ? '{}' : `an object of ${Object.keys(value).length} entries`;
  return JSON.stringify(value);
}

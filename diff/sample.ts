// Small values a canonical schema (canonical.ts) admits, built from its keywords: the required
// properties and the fewest items, strings of the least length its pattern allows, numbers at
// their lower bound. A sample is a guess, checked by ajv wherever it is used: what this module
// gets wrong costs a witness, never a wrong verdict.
import { isObject, type Json, type JsonObject } from '../spec/index.ts';
import { intersectTypes } from './canonical.ts';
import { patternMatches, stringsMatching } from './pattern-languages.ts';

/** Strings that satisfy common formats, for a schema whose format is an assertion. */
export const FORMAT_SAMPLES: Readonly<Record<string, string>> = {
  'date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  time: '00:00:00Z',
  duration: 'P1D',
  email: 'a@example.com',
  'idn-email': 'a@example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uri: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  iri: 'https://example.com/',
  'iri-reference': 'https://example.com/',
  'uri-template': 'https://example.com/{id}',
  uuid: '00000000-0000-4000-8000-000000000000',
  'json-pointer': '/a',
  'relative-json-pointer': '0',
  regex: 'a',
  byte: 'AA==',
  int32: '0',
};

const TYPE_ORDER = ['object', 'array', 'string', 'integer', 'number', 'boolean', 'null'];
/** Samples past this depth are not built: a deep or recursive schema gives up rather than stalls. */
const MAX_DEPTH = 24;

/** Up to `limit` values the form probably admits, the plainest first; [] when none could be built. */
export function samplesOf(form: Json, limit = 4, depth = 0): Json[] {
  if (depth > MAX_DEPTH || !isObject(form)) return form === false ? [] : [null];
  if ('$recursion' in form || '$unresolved' in form) return [];
  if (isObject(form.not) && Object.keys(form.not).length === 0) return [];
  if (Array.isArray(form.enum)) return form.enum.slice(0, limit);
  for (const union of ['anyOf', 'oneOf'] as const) {
    const branches = form[union];
    if (!Array.isArray(branches)) continue;
    const rest = { ...form };
    delete rest[union];
    // Each branch with the keywords beside the union: values of different branches first.
    const perBranch = branches.map((branch) => samplesOf(mergeShallow(rest, branch), limit, depth + 1));
    return interleave(perBranch).slice(0, limit);
  }
  if (Array.isArray(form.allOf)) {
    // Not merged by the library (canonical.ts): the first member's samples with the others' required properties.
    const members = form.allOf.map((member) => (isObject(member) ? member : {}));
    const rest = { ...form };
    delete rest.allOf;
    return samplesOf(members.reduce(mergeShallow, rest), limit, depth + 1);
  }
  if (isObject(form.then) || isObject(form.dependentSchemas)) {
    // A value that satisfies "then" is valid whatever the "if"; one with a dependent schema's
    // property satisfies that schema too: both are laid over the form when there is no "else".
    const rest = { ...form };
    delete rest.if;
    delete rest.then;
    delete rest.dependentSchemas;
    const thenPart = form.else === undefined && isObject(form.then) ? form.then : {};
    delete rest.else;
    const dependent = isObject(form.dependentSchemas) ? Object.values(form.dependentSchemas) : [];
    return samplesOf([thenPart, ...dependent].reduce(mergeShallow, rest), limit, depth + 1);
  }
  const types = typesOf(form);
  return interleave(types.map((type) => samplesOfType(form, type, limit, depth))).slice(0, limit);
}

function typesOf(form: JsonObject): string[] {
  const declared = Array.isArray(form.type) ? form.type.map(String) : undefined;
  if (declared) return TYPE_ORDER.filter((type) => declared.includes(type));
  // No type: guess from the keywords.
  if (form.properties || form.required || form.additionalProperties || form.minProperties) return ['object'];
  if (form.items || form.prefixItems || form.minItems || form.contains) return ['array'];
  if (form.pattern || form.minLength || form.maxLength || form.format) return ['string'];
  if (form.minimum !== undefined || form.maximum !== undefined || form.multipleOf) return ['number'];
  return ['string', 'integer', 'object', 'array', 'boolean', 'null'];
}

function samplesOfType(form: JsonObject, type: string, limit: number, depth: number): Json[] {
  switch (type) {
    case 'null':
      return [null];
    case 'boolean':
      return [true, false];
    case 'integer':
    case 'number':
      return numbersOf(form, type === 'integer');
    case 'string':
      return stringsOf(form, limit);
    case 'array':
      return arraysOf(form, limit, depth);
    default:
      return objectsOf(form, limit, depth);
  }
}

function numbersOf(form: JsonObject, integer: boolean): number[] {
  const step = typeof form.multipleOf === 'number' ? form.multipleOf : integer ? 1 : 0.5;
  const low =
    typeof form.minimum === 'number' ? form.minimum : typeof form.exclusiveMinimum === 'number' ? form.exclusiveMinimum + (integer ? 1 : step / 2) : 0;
  const high =
    typeof form.maximum === 'number' ? form.maximum : typeof form.exclusiveMaximum === 'number' ? form.exclusiveMaximum - (integer ? 1 : step / 2) : undefined;
  const start = Math.max(low, Math.min(0, high ?? 0));
  const first = typeof form.multipleOf === 'number' ? Math.ceil(start / step) * step : integer ? Math.ceil(start) : start;
  return [first, first + step, ...(high !== undefined ? [high] : [])];
}

function stringsOf(form: JsonObject, limit: number): string[] {
  const min = typeof form.minLength === 'number' ? form.minLength : 0;
  const max = typeof form.maxLength === 'number' ? form.maxLength : Number.POSITIVE_INFINITY;
  const fits = (text: string) => [...text].length >= min && [...text].length <= max;
  if (typeof form.format === 'string' && FORMAT_SAMPLES[form.format]) return [FORMAT_SAMPLES[form.format]!];
  if (typeof form.pattern === 'string') {
    const matching = stringsMatching(form.pattern, min > 0 ? 400 : 8) ?? [];
    return matching.filter(fits).slice(0, limit);
  }
  return [...new Set(['a'.repeat(min), 'b'.repeat(Math.max(min, 1))])].filter(fits);
}

function arraysOf(form: JsonObject, limit: number, depth: number): Json[] {
  const prefix = Array.isArray(form.prefixItems) ? form.prefixItems.map((item) => samplesOf(item, 2, depth + 1)[0]) : [];
  if (prefix.some((item) => item === undefined)) return [];
  const minimum = Math.max(
    typeof form.minItems === 'number' ? form.minItems : 0,
    typeof form.minContains === 'number' && form.contains ? form.minContains : form.contains ? 1 : 0,
  );
  const itemSamples = samplesOf(isObject(form.items) ? form.items : isObject(form.contains) ? form.contains : {}, Math.max(2, minimum), depth + 1);
  const items = [...prefix] as Json[];
  for (let index = 0; items.length < minimum; index += 1) {
    if (itemSamples.length === 0) return [];
    // uniqueItems: distinct samples, then nothing (the caller's check shows it failed).
    items.push(form.uniqueItems === true ? itemSamples[index % itemSamples.length]! : itemSamples[0]!);
  }
  const more =
    itemSamples.length > 0 && items.length < (typeof form.maxItems === 'number' ? form.maxItems : Number.POSITIVE_INFINITY)
      ? [[...items, itemSamples[0]!]]
      : [];
  return [items, ...more].slice(0, limit);
}

function objectsOf(form: JsonObject, limit: number, depth: number): Json[] {
  const properties = isObject(form.properties) ? form.properties : {};
  const required = Array.isArray(form.required) ? form.required.map(String) : [];
  const value: JsonObject = {};
  for (const name of required) {
    const schema = properties[name] ?? patternSchemaFor(form, name) ?? (isObject(form.additionalProperties) ? form.additionalProperties : {});
    const sampled = samplesOf(schema, 1, depth + 1);
    if (sampled.length === 0) return [];
    value[name] = sampled[0]!;
  }
  const minimum = typeof form.minProperties === 'number' ? form.minProperties : 0;
  for (const [name, schema] of Object.entries(properties)) {
    if (Object.keys(value).length >= minimum) break;
    if (name in value) continue;
    const sampled = samplesOf(schema, 1, depth + 1);
    if (sampled.length > 0) value[name] = sampled[0]!;
  }
  // Still short of minProperties: entries under names the additional or pattern properties admit.
  const extra = form.additionalProperties === false ? undefined : isObject(form.additionalProperties) ? form.additionalProperties : {};
  const patternEntries = isObject(form.patternProperties) ? Object.entries(form.patternProperties) : [];
  for (let index = 1; Object.keys(value).length < minimum && index <= minimum + 1; index += 1) {
    const [pattern, schema] = patternEntries[index % Math.max(1, patternEntries.length)] ?? [];
    const name = pattern !== undefined ? stringsMatching(pattern, index + 1)?.[index] : extra ? `k${index}` : undefined;
    const sampled = name === undefined ? [] : samplesOf(pattern !== undefined ? schema! : extra!, 1, depth + 1);
    if (name === undefined || sampled.length === 0) return [];
    value[name] = sampled[0]!;
  }
  // With every optional property too, when it can be built: a second, fuller value.
  const full: JsonObject = { ...value };
  for (const [name, schema] of Object.entries(properties)) {
    if (name in full) continue;
    const sampled = samplesOf(schema, 1, depth + 1);
    if (sampled.length > 0) full[name] = sampled[0]!;
  }
  return Object.keys(full).length > Object.keys(value).length ? [value, full].slice(0, limit) : [value];
}

function patternSchemaFor(form: JsonObject, name: string): Json | undefined {
  if (!isObject(form.patternProperties)) return undefined;
  for (const [pattern, schema] of Object.entries(form.patternProperties)) if (patternMatches(pattern, name) === true) return schema;
  return undefined;
}

/** A schema with another's keywords laid over it; both sides' required lists and properties kept. */
export function mergeShallow(base: JsonObject, over: Json): JsonObject {
  if (!isObject(over)) return base;
  const merged: JsonObject = { ...base, ...over };
  if (Array.isArray(base.required) || Array.isArray(over.required))
    merged.required = [...new Set([...(Array.isArray(base.required) ? base.required : []), ...(Array.isArray(over.required) ? over.required : [])])];
  if (isObject(base.properties) && isObject(over.properties)) merged.properties = { ...base.properties, ...over.properties };
  if (base.type !== undefined && over.type !== undefined) merged.type = intersectTypes(base.type, over.type);
  return merged;
}

/** The first of each list, then the second of each, and so on. */
function interleave<T>(lists: T[][]): T[] {
  const out: T[] = [];
  for (let index = 0; lists.some((list) => index < list.length); index += 1) for (const list of lists) if (index < list.length) out.push(list[index]!);
  return out;
}

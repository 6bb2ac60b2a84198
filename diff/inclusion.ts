// Whether every value one canonical schema (canonical.ts) admits, another admits too: the subschema
// relation of jsonsubschema, decided keyword by keyword on canonical forms. The answer is true only
// when it is proved; whatever this module does not model answers false (undecided), so a change it
// cannot prove harmless stays breaking.
import { isObject, type Json, type JsonObject } from '../spec/index.ts';
import { intersectTypes } from './canonical.ts';
import { lenientAjv } from './lenient-ajv.ts';
import { comparePatterns } from './pattern-languages.ts';
import { canonical } from './schema-walk.ts';

const NUMERIC = new Set(['integer', 'number']);
/** OpenAPI keywords no validator asserts, kept in canonical forms because servers and generated clients act on them. */
export const UNASSERTED = new Set(['discriminator', 'readOnly', 'writeOnly']);
/** JSON Schema keywords that only ever restrict the schema they sit in (each one a conjunct). */
const ASSERTIONS = new Set([
  'type',
  'enum',
  'const',
  'maximum',
  'minimum',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'multipleOf',
  'maxLength',
  'minLength',
  'pattern',
  'format',
  'maxItems',
  'minItems',
  'uniqueItems',
  'items',
  'prefixItems',
  'contains',
  'minContains',
  'maxContains',
  'maxProperties',
  'minProperties',
  'required',
  'properties',
  'patternProperties',
  'additionalProperties',
  'propertyNames',
  'dependentRequired',
  'dependentSchemas',
  'not',
  'allOf',
  'anyOf',
  'oneOf',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
]);
const ALL_TYPES = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'];

/** Whether every value `inner` admits, `outer` admits. */
export function includes(outer: Json, inner: Json): boolean {
  if (inner === false) return true;
  if (outer === false) return false;
  if (!isObject(outer) || !isObject(inner)) return canonical(outer) === canonical(inner);
  if (canonical(outer) === canonical(inner)) return true;
  if (Object.keys(outer).length === 0) return true;
  // A keyword of the inner form that is not a known assertion may widen it (OpenAPI 3.0's nullable,
  // a vendor's keyword): proved only when the outer says the same. discriminator, readOnly and
  // writeOnly assert nothing on the inner side; on the outer side they must match (keywordHolds).
  for (const keyword of Object.keys(inner))
    if (!ASSERTIONS.has(keyword) && !UNASSERTED.has(keyword) && canonical(inner[keyword]) !== canonical(outer[keyword])) return false;
  if (isObject(inner.not) && Object.keys(inner.not).length === 0) return true;
  // Enumerated values: each one judged by ajv against the outer form.
  if (Array.isArray(inner.enum)) return inner.enum.every((value) => admits(outer, value));
  // A union inside: each branch, with the keywords beside it, must be included.
  for (const union of ['anyOf', 'oneOf'] as const) {
    if (!Array.isArray(inner[union])) continue;
    const rest = { ...inner };
    delete rest[union];
    return inner[union].every((branch) => includes(outer, conjunction(rest, branch)));
  }
  if (Array.isArray(inner.allOf)) {
    const rest = { ...inner };
    delete rest.allOf;
    if (includes(outer, rest) || inner.allOf.some((member) => includes(outer, member))) return true;
  }
  if (Array.isArray(outer.allOf)) {
    const rest = { ...outer };
    delete rest.allOf;
    return includes(rest, inner) && outer.allOf.every((member) => includes(member, inner));
  }
  if (Array.isArray(outer.anyOf)) {
    const rest = { ...outer };
    delete rest.anyOf;
    return includes(rest, inner) && outer.anyOf.some((branch) => includes(branch, inner));
  }
  return Object.keys(outer).every((keyword) => keywordHolds(keyword, outer, inner));
}

const CHILD_SCHEMA = ['items', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'contains', 'propertyNames'];
const CHILD_MAPS = ['properties', 'patternProperties'];
/** Lists of subschemas the walk pairs one by one: the same length on both sides, the old list stands for the new. */
const CHILD_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];

/**
 * The new form with the old form's subschemas wherever both have one: the node's own keywords as
 * changed, its values' parts as they were. What changed inside those parts is judged at their own
 * nodes; this one answers for its own keywords only.
 */
export function withChildrenOf(next: Json, old: Json): Json {
  if (!isObject(next) || !isObject(old)) return next;
  const out: JsonObject = { ...next };
  for (const keyword of CHILD_SCHEMA) if (keyword in next && keyword in old) out[keyword] = old[keyword] as Json;
  for (const keyword of CHILD_LISTS) {
    const mine = next[keyword];
    const theirs = old[keyword];
    if (Array.isArray(mine) && Array.isArray(theirs) && mine.length === theirs.length) out[keyword] = theirs;
  }
  for (const keyword of CHILD_MAPS) {
    const mine = next[keyword];
    const theirs = old[keyword];
    if (!isObject(mine) || !isObject(theirs)) continue;
    out[keyword] = Object.fromEntries(Object.entries(mine).map(([name, schema]) => [name, name in theirs ? (theirs[name] as Json) : schema]));
  }
  return out;
}

/** Both schemas at once, written as one where that is exact (disjoint keywords), else as allOf. */
function conjunction(base: JsonObject, over: Json): Json {
  if (!isObject(over)) return over === true ? base : over;
  const merged: JsonObject = { ...base, ...over };
  const rest: JsonObject = {};
  for (const key of Object.keys(over).filter((name) => name in base)) {
    const mine = base[key] as Json;
    const theirs = over[key] as Json;
    if (canonical(mine) === canonical(theirs)) continue;
    // Exact merges: types intersect, required lists unite.
    if (key === 'type') merged.type = intersectTypes(mine, theirs);
    else if (key === 'required') merged.required = [...new Set([...(mine as Json[]), ...(theirs as Json[])].map(String))].sort();
    else {
      merged[key] = mine;
      rest[key] = theirs;
    }
  }
  return Object.keys(rest).length === 0 ? merged : { ...merged, allOf: [...(Array.isArray(merged.allOf) ? merged.allOf : []), rest] };
}

function typesOf(schema: JsonObject): Set<string> {
  return new Set(Array.isArray(schema.type) ? schema.type.map(String) : ALL_TYPES);
}

/** Whether the inner schema implies the outer one's keyword. */
function keywordHolds(keyword: string, outer: JsonObject, inner: JsonObject): boolean {
  const value = outer[keyword];
  const innerTypes = typesOf(inner);
  const mayBe = (...types: string[]) => types.some((type) => innerTypes.has(type));
  const atMost = (name: string, exclusive?: string) => {
    const bound = inner[name] ?? (exclusive ? inner[exclusive] : undefined);
    return typeof bound === 'number' && typeof value === 'number' && bound <= value;
  };
  const atLeast = (name: string, exclusive?: string) => {
    const bound = inner[name] ?? (exclusive ? inner[exclusive] : undefined);
    return typeof bound === 'number' && typeof value === 'number' && bound >= value;
  };
  switch (keyword) {
    case 'type': {
      const allowed = new Set((value as string[]).map(String));
      return [...innerTypes].every((type) => allowed.has(type) || (type === 'integer' && allowed.has('number')));
    }
    case 'enum':
      return false; // inner has no enum here (handled above): it admits more than a list.
    case 'maximum':
      return !mayBe(...NUMERIC) || atMost('maximum', 'exclusiveMaximum');
    case 'exclusiveMaximum':
      return (
        !mayBe(...NUMERIC) ||
        (typeof inner.exclusiveMaximum === 'number' && inner.exclusiveMaximum <= (value as number)) ||
        (typeof inner.maximum === 'number' && inner.maximum < (value as number))
      );
    case 'minimum':
      return !mayBe(...NUMERIC) || atLeast('minimum', 'exclusiveMinimum');
    case 'exclusiveMinimum':
      return (
        !mayBe(...NUMERIC) ||
        (typeof inner.exclusiveMinimum === 'number' && inner.exclusiveMinimum >= (value as number)) ||
        (typeof inner.minimum === 'number' && inner.minimum > (value as number))
      );
    case 'multipleOf':
      return !mayBe(...NUMERIC) || (typeof inner.multipleOf === 'number' && Number.isInteger(inner.multipleOf / (value as number)));
    case 'maxLength':
      return !mayBe('string') || atMost('maxLength');
    case 'minLength':
      return !mayBe('string') || atLeast('minLength');
    case 'pattern': {
      if (!mayBe('string')) return true;
      if (typeof inner.pattern !== 'string') return false;
      const direction = comparePatterns(String(value), inner.pattern).direction;
      return direction === 'same' || direction === 'narrower';
    }
    case 'format':
      return !mayBe('string') || inner.format === value;
    case 'maxItems':
      return !mayBe('array') || atMost('maxItems');
    case 'minItems':
      return !mayBe('array') || atLeast('minItems');
    case 'uniqueItems':
      return !mayBe('array') || value !== true || inner.uniqueItems === true;
    case 'items':
      return !mayBe('array') || (inner.prefixItems === undefined && outer.prefixItems === undefined && includes(value as Json, (inner.items as Json) ?? {}));
    case 'maxProperties':
      return !mayBe('object') || atMost('maxProperties') || (closedCount(inner) ?? Number.POSITIVE_INFINITY) <= (value as number);
    case 'minProperties':
      return !mayBe('object') || atLeast('minProperties') || (Array.isArray(inner.required) && new Set(inner.required).size >= (value as number));
    case 'required': {
      if (!mayBe('object')) return true;
      const have = new Set(Array.isArray(inner.required) ? inner.required.map(String) : []);
      return (value as Json[]).every((name) => have.has(String(name)));
    }
    case 'properties':
      return !mayBe('object') || Object.entries(value as JsonObject).every(([name, schema]) => includes(schema, innerSchemaFor(inner, name)));
    case 'additionalProperties':
      return !mayBe('object') || additionalHolds(outer, inner);
    case 'propertyNames':
      return !mayBe('object') || includes(value as Json, (inner.propertyNames as Json) ?? {});
    case 'dependentRequired': {
      if (!mayBe('object')) return true;
      const innerDependent = isObject(inner.dependentRequired) ? inner.dependentRequired : {};
      const always = new Set(Array.isArray(inner.required) ? inner.required.map(String) : []);
      return Object.entries(value as JsonObject).every(([name, needed]) =>
        (needed as Json[]).every((other) => always.has(String(other)) || (Array.isArray(innerDependent[name]) && innerDependent[name].includes(other))),
      );
    }
    case 'not':
      // inner stays out of outer's "not" when inner's own "not" excludes at least as much.
      return isObject(inner.not) && includes(inner.not, value as Json);
    default:
      // patternProperties, prefixItems, contains, dependentSchemas, if/then/else, oneOf, recursion markers,
      // discriminator, readOnly, writeOnly: proved only when the inner form says exactly the same.
      return (
        canonical(inner[keyword]) === canonical(value) &&
        (keyword !== 'if' || (canonical(inner.then) === canonical(outer.then) && canonical(inner.else) === canonical(outer.else)))
      );
  }
}

/** How many properties a closed object can have at most (its listed ones), or undefined when it is open. */
function closedCount(form: JsonObject): number | undefined {
  if (form.additionalProperties !== false || form.patternProperties !== undefined) return undefined;
  return isObject(form.properties) ? Object.keys(form.properties).length : 0;
}

/** The schema the inner form applies to a property of that name. */
function innerSchemaFor(inner: JsonObject, name: string): Json {
  if (isObject(inner.properties) && name in inner.properties) return inner.properties[name] as Json;
  if (isObject(inner.patternProperties) && Object.keys(inner.patternProperties).length > 0) return {}; // not modelled: assume anything.
  if (inner.additionalProperties === false) return false;
  return (inner.additionalProperties as Json) ?? {};
}

/** outer.additionalProperties holds when every name inner admits outside outer's listed ones is included in it. */
function additionalHolds(outer: JsonObject, inner: JsonObject): boolean {
  const listed = isObject(outer.properties) ? outer.properties : {};
  if (isObject(outer.patternProperties) || isObject(inner.patternProperties))
    return (
      canonical(outer.patternProperties) === canonical(inner.patternProperties) &&
      canonical(outer.additionalProperties) === canonical(inner.additionalProperties)
    );
  const extra = outer.additionalProperties as Json;
  const innerListed = isObject(inner.properties) ? inner.properties : {};
  for (const [name, schema] of Object.entries(innerListed)) if (!(name in listed) && !includes(extra, schema)) return false;
  return includes(extra, inner.additionalProperties === undefined ? {} : (inner.additionalProperties as Json));
}

/** Whether a value is valid under a canonical form (false when ajv cannot compile the form: not proved). */
function admits(form: JsonObject, value: Json): boolean {
  const key = canonical(form);
  let validate = compiled.get(key);
  if (validate === undefined) {
    // A recursion marker or an unresolved reference is no keyword to ajv: it would admit anything there.
    if (key.includes('"$recursion"') || key.includes('"$unresolved"')) return false;
    try {
      validate = ajv.compile(form as object) as (value: unknown) => boolean;
    } catch {
      validate = null;
    }
    compiled.set(key, validate);
  }
  return validate !== null && validate(value) === true;
}
const ajv = lenientAjv();
const compiled = new Map<string, ((value: unknown) => boolean) | null>();

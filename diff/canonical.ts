// Canonical forms of schemas, after jsonsubschema (Habib, Shinnar, Hirzel, Pradel, ISSTA 2021):
// two schemas written in different shapes become the same JSON when they admit the same values
// in the ways a spec is commonly refactored. $ref is inlined (a schema that refers to itself keeps
// a marker of how far up it points, so recursion compares by structure, not by component name);
// annotations are dropped; allOf is merged (json-schema-merge-allof); const, enum, type and
// required are put in one spelling; a oneOf whose branches are pairwise disjoint is an anyOf;
// unevaluatedProperties/unevaluatedItems beside what already evaluates everything are dropped.
// Equal canonical forms are the same set of values; different ones prove nothing by themselves
// (the witness search and the inclusion check decide those).
import mergeAllOf from 'json-schema-merge-allof';
import { isObject, resolvePointer, type Json, type JsonObject } from '../spec/index.ts';
import { APPLIED_SUBSCHEMAS, EVALUATING_IN_PLACE, isAnnotation } from './keywords.ts';
import type { Located } from './pointer.ts';
import { canonical } from './schema-walk.ts';
import { oneOfIsDisjoint } from './unions.ts';

/** Annotations of OpenAPI beside JSON Schema's: they change no valid value. */
// discriminator, readOnly and writeOnly stay: they assert nothing to ajv, but servers and
// generated clients act on them, so a change to one is never called a change of shape only.
const OPENAPI_ANNOTATIONS = new Set(['default', 'contentMediaType', 'contentEncoding', 'contentSchema']);
/** Keywords that make a schema's meaning depend on what its neighbours evaluate: merging allOf around them is not sound. */
const DYNAMIC = ['unevaluatedProperties', 'unevaluatedItems', '$dynamicRef', '$recursiveRef'];
/** Containers of subschemas only a $ref reaches: once every $ref is inlined they say nothing. */
const CONTAINERS = new Set(['$defs', 'definitions']);
const SCHEMA_VALUED = new Set(APPLIED_SUBSCHEMAS.one);
const SCHEMA_LISTS = new Set(APPLIED_SUBSCHEMAS.list);
const SCHEMA_MAPS = new Set(APPLIED_SUBSCHEMAS.map);
const SCHEMA_KEYS = new Set([...SCHEMA_VALUED, ...SCHEMA_LISTS, ...SCHEMA_MAPS]);

interface Context {
  doc: JsonObject;
  /** $ref targets being inlined, outermost first: a reference back to one of them is recursion. */
  stack: string[];
}

/** The canonical form of the schema at `located` in `doc`. */
export function canonicalForm(doc: JsonObject, located: Located): Json {
  // Memoised by the node itself (a schema object of the document, or one a caller keeps): the same
  // pointer may name an absent node (`{}` where the walk compares a subschema one side lacks).
  const key = isObject(located.node) ? located.node : undefined;
  const forms = formsOf.get(doc) ?? new WeakMap<JsonObject, Json>();
  formsOf.set(doc, forms);
  let form = key ? forms.get(key) : undefined;
  if (form === undefined) {
    form = normalise(merge(resolveEverywhere(inline(located.node, { doc, stack: [] }))));
    if (key) forms.set(key, form);
  }
  return form;
}

const formsOf = new WeakMap<JsonObject, WeakMap<JsonObject, Json>>();

/** Whether a canonical form still has a keyword whose meaning depends on its neighbours. */
export function hasDynamicKeywords(form: Json): boolean {
  if (Array.isArray(form)) return form.some(hasDynamicKeywords);
  if (!isObject(form)) return false;
  return Object.entries(form).some(([key, value]) => DYNAMIC.includes(key) || hasDynamicKeywords(value));
}

/** Boolean schemas as objects, $ref inlined, annotations dropped. */
function inline(node: Json, context: Context): Json {
  if (node === true || node === undefined) return {};
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (isAnnotation(key) || OPENAPI_ANNOTATIONS.has(key) || CONTAINERS.has(key) || key === '$ref' || key === '$schema' || key === '$id' || key === '$anchor')
      continue;
    out[key] = SCHEMA_VALUED.has(key)
      ? inline(value, context)
      : SCHEMA_LISTS.has(key)
        ? listOf(value, context)
        : SCHEMA_MAPS.has(key)
          ? mapOf(value, context)
          : value;
  }
  if (typeof node.$ref !== 'string') return out;
  const ref = node.$ref;
  const depth = context.stack.indexOf(ref);
  // A reference back to a schema being inlined: mark how many levels up, the same in any spelling.
  const target: Json = depth >= 0 ? { $recursion: context.stack.length - depth } : inlineRef(ref, context);
  return Object.keys(out).length === 0 ? target : { ...out, allOf: [...(Array.isArray(out.allOf) ? out.allOf : []), target] };
}

function inlineRef(ref: string, context: Context): Json {
  let target: Json;
  try {
    target = resolvePointer(ref, context.doc);
  } catch {
    // An unresolvable reference admits nothing we can name: keep it as an opaque, unequal marker.
    return { $unresolved: ref };
  }
  return inline(target, { ...context, stack: [...context.stack, ref] });
}

const listOf = (value: Json, context: Context): Json => (Array.isArray(value) ? value.map((item) => inline(item, context)) : value);
const mapOf = (value: Json, context: Context): Json =>
  isObject(value) ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, inline(item, context)])) : value;

/** allOf merged where the library can do it soundly; left as it is where it cannot. */
function merge(schema: Json): Json {
  if (!isObject(schema) || hasDynamicKeywords(schema)) return schema;
  try {
    return mergeAllOf(structuredClone(schema) as never, {
      resolvers: {
        // A keyword the library has no rule for, met on two members: not merged (the whole schema stays as written).
        defaultResolver: () => {
          throw new Error('no merge rule');
        },
      },
    }) as Json;
  } catch {
    return schema;
  }
}

/** One spelling for what can be spelled several ways. */
function normalise(node: Json): Json {
  if (Array.isArray(node)) return node.map(normalise);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] = key === 'enum' || key === 'const' || key === 'required' || key === 'type' ? value : SCHEMA_KEYS.has(key) ? normaliseSchemas(key, value) : value;
  }
  // OpenAPI 3.0: nullable adds null to the type.
  if (out.nullable === true && out.type !== undefined) out.type = [...new Set([out.type].flat().map(String)), 'null'];
  if (out.nullable === false || (out.nullable === true && out.type !== undefined)) delete out.nullable;
  if ('const' in out) {
    out.enum = Array.isArray(out.enum) ? out.enum.filter((value) => canonical(value) === canonical(out.const)) : [out.const as Json];
    delete out.const;
  }
  if (Array.isArray(out.enum)) out.enum = uniqueSorted(out.enum);
  if (typeof out.type === 'string') out.type = [out.type];
  if (Array.isArray(out.type)) {
    const types = new Set(out.type.map(String));
    // integer is a subset of number: listing both admits the numbers.
    if (types.has('number')) types.delete('integer');
    out.type = [...types].sort();
  }
  if (Array.isArray(out.required)) {
    out.required = [...new Set(out.required.map(String))].sort();
    if (out.required.length === 0) delete out.required;
  }
  dropNeutral(out);
  if (Array.isArray(out.oneOf) && oneOfIsDisjoint(out.oneOf, out) && out.anyOf === undefined) {
    out.anyOf = out.oneOf;
    delete out.oneOf;
  }
  for (const keyword of ['anyOf', 'allOf'] as const) {
    const list = out[keyword];
    if (!Array.isArray(list)) continue;
    out[keyword] = uniqueSorted(list);
  }
  return out;
}

function normaliseSchemas(key: string, value: Json): Json {
  if (SCHEMA_MAPS.has(key) && isObject(value)) return Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, normalise(schema)]));
  return normalise(value);
}

function uniqueSorted(values: Json[]): Json[] {
  const byKey = new Map(values.map((value) => [canonical(value), value]));
  return [...byKey.keys()].sort().map((key) => byKey.get(key)!);
}

/** Keywords at values that constrain nothing: written or not, the same set. */
function dropNeutral(out: JsonObject): void {
  for (const keyword of ['minLength', 'minItems', 'minProperties'] as const) if (out[keyword] === 0) delete out[keyword];
  if (out.uniqueItems === false) delete out.uniqueItems;
  // Without contains, minContains and maxContains judge nothing.
  if (out.contains === undefined) {
    delete out.minContains;
    delete out.maxContains;
  }
  // Without if, then and else judge nothing; an if alone asserts nothing.
  if (out.if === undefined) {
    delete out.then;
    delete out.else;
  } else if (out.then === undefined && out.else === undefined) delete out.if;
  for (const keyword of ['items', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'propertyNames'] as const) {
    if (isObject(out[keyword]) && Object.keys(out[keyword]).length === 0) delete out[keyword];
  }
  for (const keyword of ['properties', 'patternProperties', 'dependentSchemas', 'dependentRequired'] as const) {
    if (isObject(out[keyword]) && Object.keys(out[keyword]).length === 0) delete out[keyword];
  }
  // Unanchored, these match the empty string inside any string.
  if (out.pattern === '' || out.pattern === '.*') delete out.pattern;
}

/** Every node's unevaluated keywords resolved where nothing else evaluates in place (before allOf is merged). */
function resolveEverywhere(node: Json): Json {
  if (Array.isArray(node)) return node.map(resolveEverywhere);
  if (!isObject(node)) return node;
  const out: JsonObject = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, key === 'enum' || key === 'const' ? value : resolveEverywhere(value)]),
  );
  resolveUnevaluated(out);
  return out;
}

/**
 * unevaluatedProperties beside additionalProperties, with no subschema in place to evaluate more:
 * additionalProperties already evaluated every property, so unevaluatedProperties judges none.
 * The same for unevaluatedItems beside items.
 */
function resolveUnevaluated(out: JsonObject): void {
  if (EVALUATING_IN_PLACE.some((keyword) => out[keyword] !== undefined)) return;
  if (out.unevaluatedProperties !== undefined && out.additionalProperties !== undefined) delete out.unevaluatedProperties;
  else if (out.unevaluatedProperties !== undefined && out.patternProperties === undefined) {
    // Alone, unevaluatedProperties judges exactly what additionalProperties would.
    out.additionalProperties = out.unevaluatedProperties;
    delete out.unevaluatedProperties;
  }
  if (out.unevaluatedItems !== undefined && out.items !== undefined) delete out.unevaluatedItems;
  else if (out.unevaluatedItems !== undefined && out.contains === undefined) {
    out.items = out.unevaluatedItems;
    delete out.unevaluatedItems;
  }
}

/** The types two `type` keywords both admit, sorted; integer is the part of number an integer type admits. */
export function intersectTypes(a: Json, b: Json): string[] {
  const left = new Set([a].flat().map(String));
  const right = new Set([b].flat().map(String));
  const both = [...left].filter((type) => right.has(type));
  if ((left.has('number') && right.has('integer')) || (left.has('integer') && right.has('number'))) both.push('integer');
  return [...new Set(both)].sort();
}

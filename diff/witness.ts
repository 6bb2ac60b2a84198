// A witness of a breaking change: a whole value of one part of an operation's exchange (a whole
// request body, one parameter, one response body) that the side the change hurts can tell apart.
// On the request side it is valid under the old document and invalid under the new one (a client
// sending it now fails); on the response side, the reverse (a client reading it may fail).
//
// The search is generate-and-check. Candidate values for the changed node are built from both
// nodes' canonical forms (their samples, and values at and past every bound, pattern, format,
// enum, type, property and length either one sets); each is set into a sample of the whole part
// along a route from the part's root schema to the node; ajv, run on both documents, keeps the
// first whole value that tells them apart. ajv is the judge, so a witness is right by
// construction; what the candidates miss leaves the finding without a witness, never wrong.
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { isObject, type Json, type JsonObject } from '../spec/index.ts';
import { canonicalForm } from './canonical.ts';
import { EVALUATING_IN_PLACE } from './keywords.ts';
import { lenientAjv } from './lenient-ajv.ts';
import { comparePatterns, patternMatches, stringNotMatching, stringsMatching } from './pattern-languages.ts';
import { child, locate, type Located } from './pointer.ts';
import { routesTo, type Step } from './routes.ts';
import { FORMAT_SAMPLES, mergeShallow, samplesOf } from './sample.ts';
import type { DocumentPair, Part, Site, Witness } from './model.ts';

export type WitnessSearch = { witness: Witness } | { missing: string };

/** Routes tried from a part's root to a changed node, and candidates per route: enough for every corpus pair, bounded for a pathological one. */
const MAX_ROUTES = 3;
const MAX_CANDIDATES = 400;

/** ajv over a whole OpenAPI document, compiling the schema at any pointer of it on demand. */
function validatorsOf(doc: JsonObject): (pointer: string) => ValidateFunction | string {
  let compile = validators.get(doc);
  if (compile) return compile;
  const ajv = lenientAjv();
  ajv.addSchema({ ...doc, $id: 'https://document.invalid/openapi' });
  const byPointer = new Map<string, ValidateFunction | string>();
  compile = (pointer) => {
    let validate = byPointer.get(pointer);
    if (validate === undefined) {
      const fragment = pointer
        .split('/')
        .map((segment) => encodeURIComponent(segment))
        .join('/');
      try {
        validate = ajv.compile({ $ref: `https://document.invalid/openapi#${fragment}` });
      } catch (error) {
        validate = `ajv could not compile the schema at ${pointer}: ${(error as Error).message.split('\n')[0]}`;
      }
      byPointer.set(pointer, validate);
    }
    return validate;
  };
  validators.set(doc, compile);
  return compile;
}
const validators = new WeakMap<JsonObject, (pointer: string) => ValidateFunction | string>();

/** Whether a whole part value is valid under the document's schema at `root` (a string: it could not be judged). */
function validUnder(doc: JsonObject, root: Located, value: Json): boolean | string {
  const validate = validatorsOf(doc)(root.pointer);
  if (typeof validate === 'string') return validate;
  return validate(value) as boolean;
}

/** Searches a witness of the change at `site`. */
export function findWitness(pair: DocumentPair, site: Site): WitnessSearch {
  const { part } = site;
  // Values come from the side whose values must stay valid: the old request, the new response.
  const fromSide = part.side === 'request' ? 'old' : 'new';
  const againstSide = fromSide === 'old' ? 'new' : 'old';
  const from = { doc: pair[fromSide], root: part[fromSide], node: site[fromSide], schema: fromSide === 'old' ? site.oldNode : site.newNode };
  const against = { doc: pair[againstSide], root: part[againstSide], node: site[againstSide], schema: againstSide === 'old' ? site.oldNode : site.newNode };
  const judge = (value: Json): boolean | string => {
    const valid = validUnder(from.doc, from.root, value);
    if (valid !== true) return valid;
    const still = validUnder(against.doc, against.root, value);
    return typeof still === 'string' ? still : !still;
  };
  // A subschema the from side lacks is `{}` at its parent's pointer: values are built for the parent.
  const fromAt = locate(from.doc, from.node);
  const fromForm = canonicalForm(from.doc, fromAt.node === from.schema ? { node: from.schema, pointer: from.node } : fromAt);
  const againstForm = canonicalForm(against.doc, { node: against.schema, pointer: against.node });
  // The walk may pair a node with another place of the other document (a property new to an open
  // object is compared with what judged its name before): the other document's node at the same
  // place names what changed there too.
  const samePlace = against.node === from.node ? [] : [canonicalForm(against.doc, locate(against.doc, from.node))];
  const leaves = unique([againstForm, ...samePlace].flatMap((other) => leafCandidates(fromForm, other))).slice(0, MAX_CANDIDATES);
  const routes = routesTo(from.doc, part[fromSide], from.node, MAX_ROUTES);
  let undecidable: string | undefined;
  for (const route of routes) {
    for (const leaf of leaves) {
      const whole = buildAlong(from.doc, route, leaf);
      if (whole === undefined) continue;
      const verdict = judge(whole);
      if (verdict === true) return { witness: witnessOf(part, whole) };
      if (typeof verdict === 'string') undecidable = verdict;
    }
  }
  // Whole samples of the part: a change no route reaches may still show in the plainest value.
  for (const whole of samplesOf(canonicalForm(from.doc, part[fromSide]), 8)) {
    const verdict = judge(whole);
    if (verdict === true) return { witness: witnessOf(part, whole) };
    if (typeof verdict === 'string') undecidable = verdict;
  }
  if (undecidable) return { missing: undecidable };
  if (routes.length === 0)
    return {
      missing: `no route from the ${part.name} schema to ${from.node} was found (it is reached only through "not" or a keyword the search does not follow)`,
    };
  return {
    missing: `no value could be built: ${leaves.length} candidate values at ${from.node} and the part's samples were valid or invalid under both documents`,
  };
}

const witnessOf = (part: Part, value: Json): Witness => ({
  operation: part.operation,
  part: part.name,
  value,
  ...(part.mediaType ? { mediaType: part.mediaType } : {}),
});

/** The whole part value with `leaf` at the end of the route; undefined when the frame cannot be built. */
function buildAlong(doc: JsonObject, route: readonly Step[], leaf: Json): Json | undefined {
  let value: Json | undefined = leaf;
  for (let index = route.length - 1; index >= 0 && value !== undefined; index -= 1) value = wrap(doc, route[index]!, value);
  return value;
}

/** The value at a step's schema holding `inner` where the step leads. */
function wrap(doc: JsonObject, step: Step, inner: Json): Json | undefined {
  const { keyword, key, here } = step;
  const schema = here.node as JsonObject;
  if (EVALUATING_IN_PLACE.includes(keyword)) {
    // The keywords beside the applicator still hold: a sample of them, with the inner value laid over it.
    const base = frameOf(doc, { node: withoutKeyword(doc, here, keyword), pointer: here.pointer });
    const laid = overlay(base, inner);
    if (keyword === 'dependentSchemas' && isObject(laid) && typeof key === 'string' && !(key in laid)) {
      const property = isObject(schema.properties) ? schema.properties[key] : undefined;
      return { ...laid, [key]: firstOr(samplesOf(canonicalForm(doc, { node: property ?? {}, pointer: child(here.pointer, 'properties', key) }), 1), 'a') };
    }
    return laid;
  }
  const base = frameOf(doc, here);
  switch (keyword) {
    case 'properties':
      return { ...(isObject(base) ? base : {}), [String(key)]: inner };
    case 'patternProperties': {
      const name = samplesOf({ type: ['string'], pattern: String(key) }, 1)[0];
      return typeof name === 'string' ? { ...(isObject(base) ? base : {}), [name]: inner } : undefined;
    }
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return { ...(isObject(base) ? base : {}), [unlistedName(schema)]: inner };
    case 'prefixItems':
    case 'items':
    case 'unevaluatedItems':
    case 'contains': {
      const items = Array.isArray(base) ? [...base] : [];
      const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems.length : 0;
      const at = keyword === 'prefixItems' ? Number(key) : keyword === 'contains' ? 0 : prefix;
      if (items.length < at) return undefined;
      items[at] = inner;
      return items;
    }
    default:
      return undefined;
  }
}

/** The schema without one applicator (and without "if" beside "then"/"else"): kept per document, so its canonical form is built once. */
function withoutKeyword(doc: JsonObject, here: Located, keyword: string): JsonObject {
  const kept = withoutOf.get(doc) ?? new Map<string, JsonObject>();
  withoutOf.set(doc, kept);
  const key = `${here.pointer}\u0000${keyword}`;
  let rest = kept.get(key);
  if (!rest) {
    rest = { ...(here.node as JsonObject) };
    delete rest[keyword];
    if (keyword === 'then' || keyword === 'else') delete rest.if;
    kept.set(key, rest);
  }
  return rest;
}
const withoutOf = new WeakMap<JsonObject, Map<string, JsonObject>>();

/** A sample of the schema around a step: the frame the inner value is set into. */
function frameOf(doc: JsonObject, here: Located): Json | undefined {
  if (!isObject(here.node)) return samplesOf(canonicalForm(doc, here), 1)[0];
  const frames = framesOf.get(doc) ?? new WeakMap<JsonObject, { frame: Json | undefined }>();
  framesOf.set(doc, frames);
  let kept = frames.get(here.node);
  if (!kept) {
    // The same frame for every candidate and route through this schema: built once.
    kept = { frame: samplesOf(canonicalForm(doc, here), 1)[0] };
    frames.set(here.node, kept);
  }
  return kept.frame;
}
const framesOf = new WeakMap<JsonObject, WeakMap<JsonObject, { frame: Json | undefined }>>();

/** A property name neither `properties` nor `patternProperties` judges. */
function unlistedName(schema: JsonObject): string {
  const listed = isObject(schema.properties) ? schema.properties : {};
  const patterns = isObject(schema.patternProperties) ? Object.keys(schema.patternProperties) : [];
  for (const name of ['extra', 'x_extra', 'zz', 'q0']) {
    if (name in listed) continue;
    // A pattern that does not compile here might match: the name is not taken.
    if (patterns.some((pattern) => patternMatches(pattern, name) !== false)) continue;
    return name;
  }
  return 'extra_property';
}

/** `inner` laid over `base`: objects merge (inner wins), anything else is inner. */
function overlay(base: Json | undefined, inner: Json): Json {
  if (!isObject(base) || !isObject(inner)) return inner;
  const out: JsonObject = { ...base };
  for (const [key, value] of Object.entries(inner)) out[key] = key in base ? overlay(base[key], value) : value;
  return out;
}

/**
 * Values for the changed node: the old node's samples, and values at and just past every bound,
 * pattern, format, enum, type, property and item count either node sets.
 */
export function leafCandidates(from: Json, against: Json): Json[] {
  const out: Json[] = [...samplesOf(from, 6)];
  if (!isObject(from)) return out;
  const other = isObject(against) ? against : {};
  const bases = out.slice();
  // Values either enum lists.
  for (const form of [from, other]) if (Array.isArray(form.enum)) out.push(...form.enum);
  // Numbers at and around each bound and step.
  for (const form of [from, other]) {
    for (const keyword of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']) {
      const bound = form[keyword];
      if (typeof bound === 'number') for (const delta of [0, -1, 1, -0.5, 0.5, -0.001, 0.001]) out.push(bound + delta);
    }
    if (typeof form.multipleOf === 'number') out.push(form.multipleOf, form.multipleOf * 3, form.multipleOf / 2);
  }
  out.push(0, 1, -1, 0.5, 7);
  // Strings at and around each length, matching or not each pattern, and of each format.
  const strings = bases.filter((value): value is string => typeof value === 'string');
  const seed = strings[0] ?? 'a';
  for (const form of [from, other]) {
    for (const keyword of ['minLength', 'maxLength']) {
      const length = form[keyword];
      if (typeof length === 'number') for (const size of [length - 1, length, length + 1]) if (size >= 0 && size <= 100_000) out.push(resize(seed, size));
    }
  }
  if (typeof from.pattern === 'string' || typeof other.pattern === 'string') {
    const comparison = comparePatterns(typeof from.pattern === 'string' ? from.pattern : '', typeof other.pattern === 'string' ? other.pattern : '');
    if (comparison.direction === 'narrower' || comparison.direction === 'different') out.push(comparison.lost);
  }
  for (const form of [from, other]) if (typeof form.format === 'string' && FORMAT_SAMPLES[form.format]) out.push(FORMAT_SAMPLES[form.format]!);
  out.push('a', 'not a formatted value');
  // Each type the old node admits, plainly.
  const types = Array.isArray(from.type) ? from.type.map(String) : ['object', 'array', 'string', 'integer', 'number', 'boolean', 'null'];
  for (const type of types) out.push(...samplesOf(mergeShallow(from, { type: [type] }), 2));
  out.push(...PLAIN.filter((value) => types.includes(typeOf(value))));
  // Constants either node names anywhere (a "not" or an "if" of const values, an enum of a property).
  for (const form of [from, other]) out.push(...constantsIn(form, 3));
  // Objects: each sample with a property left out, each listed property added, an unlisted one added;
  // each name either node mentions set to a plain value of each type, and grown to each entry count.
  for (const base of bases.filter(isObject)) {
    const names = [...new Set([...namesIn(from), ...namesIn(other)])];
    // A map's entries are alike: a new name also gets a copy of an entry already there.
    const entry = Object.values(base);
    for (const name of names) for (const value of [...entry.slice(0, 1), ...PLAIN]) out.push({ ...base, [name]: value });
    for (const form of [from, other]) {
      const condition = isObject(form.if) && Array.isArray(form.if.required) ? form.if.required.map(String) : [];
      if (condition.length > 0) out.push({ ...base, ...Object.fromEntries(condition.map((name) => [name, 'a'])) });
      for (const keyword of ['minProperties', 'maxProperties']) {
        const count = form[keyword];
        if (typeof count === 'number') for (const size of [count - 1, count, count + 1]) if (size >= 0 && size <= 1000) out.push(grownTo(base, size, from));
      }
    }
    for (const value of PLAIN) out.push({ ...base, [unlistedName(from)]: value });
    // Conditional schemas (dependentSchemas, if/then): the condition met, and each property the
    // conditional schema constrains set to values at and past its bounds.
    for (const [present, applies] of conditionsOf(other)) {
      const fromProperties = isObject(from.properties) ? from.properties : {};
      const met: JsonObject = { ...base };
      for (const name of present) if (!(name in met)) met[name] = firstOr(samplesOf(fromProperties[name] ?? {}, 1), 'a');
      out.push(met);
      const constrained = isObject(applies.properties) ? Object.entries(applies.properties) : [];
      for (const [name, schema] of constrained)
        for (const value of leafCandidates(fromProperties[name] ?? {}, schema).slice(0, 24)) out.push({ ...met, [name]: value });
    }
    for (const name of Object.keys(base)) {
      const without = { ...base };
      delete without[name];
      out.push(without);
    }
    for (const form of [from, other]) {
      const properties = isObject(form.properties) ? form.properties : {};
      for (const [name, schema] of Object.entries(properties)) {
        if (name in base) continue;
        for (const value of samplesOf(schema, 2)) out.push({ ...base, [name]: value });
      }
      for (const name of Array.isArray(form.required) ? form.required.map(String) : []) if (!(name in base)) out.push({ ...base, [name]: 'a' });
    }
    out.push({ ...base, [unlistedName(from)]: 'a' });
  }
  // Arrays: each sample grown or cut around each count, with a repeated item, with an item past the prefix.
  for (const base of bases.filter(Array.isArray)) {
    const item = firstOr(base.length > 0 ? base : samplesOf(isObject(from.items) ? from.items : {}, 1), 'a');
    for (const form of [from, other]) {
      for (const keyword of ['minItems', 'maxItems', 'minContains', 'maxContains']) {
        const count = form[keyword];
        if (typeof count === 'number')
          for (const size of [count - 1, count, count + 1]) if (size >= 0 && size <= 10_000) out.push(Array.from({ length: size }, (_, i) => base[i] ?? item));
      }
    }
    out.push([...base, item], [item, item], [], ...PLAIN.map((value) => [value]), ...PLAIN.map((value) => [item, value]));
  }
  return unique(out);
}

/** The first value of a list (null included), or the fallback when the list is empty. */
const firstOr = (values: readonly Json[], fallback: Json): Json => (values.length > 0 ? values[0]! : fallback);

const PLAIN: Json[] = [{}, [], 'a', 0, 0.5, true, null];

/** Property names a form mentions at its own level: listed, required, depended on, or named by its conditions. */
function namesIn(form: JsonObject): string[] {
  const names: string[] = [];
  const collect = (schema: Json | undefined) => {
    if (!isObject(schema)) return;
    if (isObject(schema.properties)) names.push(...Object.keys(schema.properties));
    if (Array.isArray(schema.required)) names.push(...schema.required.map(String));
    if (isObject(schema.dependentRequired))
      for (const [name, list] of Object.entries(schema.dependentRequired)) names.push(name, ...(Array.isArray(list) ? list.map(String) : []));
    if (isObject(schema.dependentSchemas)) names.push(...Object.keys(schema.dependentSchemas));
    if (isObject(schema.patternProperties)) for (const pattern of Object.keys(schema.patternProperties)) names.push(...(stringsMatching(pattern, 2) ?? []));
    if (isObject(schema.propertyNames)) {
      const keys = schema.propertyNames;
      const outside = typeof keys.pattern === 'string' ? stringNotMatching(keys.pattern) : undefined;
      names.push(
        ...leafCandidates(keys, {})
          .filter((value): value is string => typeof value === 'string')
          .slice(0, 6),
        'A-1',
        '',
      );
      if (outside !== undefined) names.push(outside);
    }
  };
  collect(form);
  for (const keyword of ['if', 'then', 'else', 'not']) collect(form[keyword] as Json | undefined);
  for (const keyword of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(form[keyword])) for (const member of form[keyword]) collect(member);
  return names;
}

/** Each conditional schema of a form with the property names whose presence makes it apply. */
function conditionsOf(form: JsonObject): Array<[string[], JsonObject]> {
  const conditions: Array<[string[], JsonObject]> = [];
  if (isObject(form.dependentSchemas))
    for (const [name, schema] of Object.entries(form.dependentSchemas)) if (isObject(schema)) conditions.push([[name], schema]);
  if (isObject(form.if) && isObject(form.then)) conditions.push([Array.isArray(form.if.required) ? form.if.required.map(String) : [], form.then]);
  return conditions;
}

/** const and enum values anywhere within `depth` levels of a form. */
function constantsIn(form: Json, depth: number): Json[] {
  if (depth < 0 || !isObject(form)) return Array.isArray(form) && depth >= 0 ? form.flatMap((item) => constantsIn(item, depth - 1)) : [];
  const found: Json[] = [...(Array.isArray(form.enum) ? form.enum : []), ...('const' in form ? [form.const as Json] : [])];
  for (const [key, value] of Object.entries(form)) if (key !== 'enum' && key !== 'const') found.push(...constantsIn(value, depth - 1));
  return found;
}

/**
 * An object cut or grown to `size` entries: grown first with the form's other listed properties,
 * then with copies of its first entry's value under fresh names (a map's entries are alike).
 */
function grownTo(base: JsonObject, size: number, form: JsonObject): JsonObject {
  const entries = Object.entries(base).slice(0, size);
  const listed = isObject(form.properties) ? Object.entries(form.properties) : [];
  for (const [name, schema] of listed) {
    if (entries.length >= size) break;
    const value = samplesOf(schema, 1)[0];
    if (!(name in base) && value !== undefined) entries.push([name, value]);
  }
  const present = Object.values(base);
  const copied = firstOr(present.length > 0 ? present : samplesOf(isObject(form.additionalProperties) ? form.additionalProperties : {}, 1), 'a');
  for (let index = 1; entries.length < size; index += 1) if (!(`k${index}` in base)) entries.push([`k${index}`, copied]);
  return Object.fromEntries(entries);
}
const typeOf = (value: Json): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value;

function resize(text: string, size: number): string {
  const characters = [...text];
  return characters.length >= size ? characters.slice(0, size).join('') : text + (characters.at(-1) ?? 'a').repeat(size - characters.length);
}

function unique(values: Json[]): Json[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = JSON.stringify(value);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

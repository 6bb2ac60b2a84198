// A converter from the JSON Schema subset the spec's request schemas use to fast-check
// arbitraries of wire values (property/arbitraries/wire.ts):
//   $ref into components, type (string, object, array, null, boolean, integer, number, and
//   lists of types), const, enum, properties / required / additionalProperties (false, true or a
//   schema), minProperties / maxProperties, oneOf (with or without a discriminator), minLength /
//   maxLength / pattern, minItems / maxItems / items, minimum / maximum.
// Annotations (description, examples, x-*) are ignored; any other keyword is an error, so a
// schema that grows a rule this converter cannot honour is noticed rather than ignored.
//
// Every bounded size (string length, entry count, item count) is drawn at and near its limits
// as well as inside them: the maximum, one below it and, for ranges, anything between; a value
// at a limit is a smaller value grown to it, so it shrinks like any other. Shrinking falls back
// to the first choice of every oneOf, so failures shrink towards small, plain values.
import fc from 'fast-check';
import { isObject, resolvePointer, type Json, type JsonObject } from '../../spec/index.ts';
import { WireObject, type WireValue } from './wire.ts';

const COMPONENT_PREFIX = '#/components/schemas/';

/** Where in a schema the converter is: component schemas entered and property names followed. */
export interface SchemaSite {
  /** Component schema names entered through $ref, outermost first. */
  readonly components: readonly string[];
  /** Property names from the root; "*" for a map value, "[]" for an array item. */
  readonly path: readonly string[];
}

export interface LengthRange {
  minLength: number;
  maxLength: number;
}

/** Ways to bias generation where the seed's semantics matter. Each hook may return undefined to keep the default. */
export interface SchemaHooks {
  /** Replaces the arbitrary of a component schema; `own` builds it from the schema itself. */
  component?(name: string, site: SchemaSite, own: () => fc.Arbitrary<WireValue>): fc.Arbitrary<WireValue> | undefined;
  /** Strings of a length in the range (the converter draws the range at and near the schema's limits). */
  string?(range: LengthRange, site: SchemaSite): fc.Arbitrary<string> | undefined;
  /** Grows or cuts a string to exactly `size` characters, for a length limit (default: "x" padding, Basic Multilingual Plane only). */
  resizeString?(text: string, size: number, site: SchemaSite): string | undefined;
  /** Keys of a map (an object whose additionalProperties is a schema). */
  key?(site: SchemaSite): fc.Arbitrary<string> | undefined;
  /** Entry counts of a map the schema does not bound above. */
  mapSize?(site: SchemaSite): { min: number; max: number } | undefined;
  /** Whether an optional property is sent: always, never, or sometimes (the default). */
  optional?(property: string, site: SchemaSite): 'always' | 'never' | 'sometimes';
  /** Whether a oneOf branch may be generated; `tag` is its discriminator value when it has one. */
  branch?(branch: { tag?: string; component?: string }, site: SchemaSite): boolean;
}

const ANNOTATIONS = new Set(['description', 'examples', 'example', 'title', '$comment', 'deprecated', 'readOnly', 'writeOnly', 'default', 'discriminator']);
const SUPPORTED = new Set([
  '$ref',
  'type',
  'const',
  'enum',
  'properties',
  'required',
  'additionalProperties',
  'minProperties',
  'maxProperties',
  'oneOf',
  'minLength',
  'maxLength',
  'pattern',
  'items',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
]);
/** Entries of a map without maxProperties, and items of an array without maxItems, unless a hook says otherwise. */
const DEFAULT_UNBOUNDED_EXTRA = 4;

/** The JSON of a const or enum value as a wire value. */
function toWire(value: Json): WireValue {
  if (Array.isArray(value)) return value.map(toWire);
  if (isObject(value)) return new WireObject(Object.entries(value).map(([key, child]) => [key, toWire(child)] as const));
  return value;
}

/**
 * Values of sizes inside [min, max] and, with lower weights (1 in 8 each), grown or cut to
 * exactly max and max − 1. `build(lo, hi)` makes values of sizes in [lo, hi]; `resize(value, n)`
 * grows or cuts one to size n. The target size is drawn apart from the value and shrinks to
 * "none", so a failure found at a limit still shrinks to its smallest value — and one that needs
 * the limit keeps it while everything else shrinks.
 */
export function sizedAtLimits<T>(
  min: number,
  max: number | undefined,
  build: (lo: number, hi: number) => fc.Arbitrary<T>,
  resize: (value: T, size: number) => T,
  unboundedMax: number,
): fc.Arbitrary<T> {
  const values = build(min, max ?? min + unboundedMax);
  if (max === undefined || max <= min) return values;
  const targets = [max, ...(max - 1 > min ? [max - 1] : [])];
  const target = fc.integer({ min: 0, max: 5 + targets.length }).map((index) => targets[index - 6]);
  return fc.tuple(values, target).map(([value, size]) => (size === undefined ? value : resize(value, size)));
}

/** Astral characters (emoji) become "?" : a string at a length limit has as many UTF-16 units as code points (open point character-counting). */
export function inBasicPlane(text: string): string {
  return text.replace(/[\u{10000}-\u{10FFFF}]/gu, '?');
}

/** A string grown with "x" or cut to `size` code points, all in the Basic Multilingual Plane. */
function resizeString(text: string, size: number): string {
  const characters = [...inBasicPlane(text)];
  return characters.length >= size ? characters.slice(0, size).join('') : characters.join('') + 'x'.repeat(size - characters.length);
}

/** An array grown by repeating its items in order, or cut, to `size` items. */
function resizeArray(items: WireValue[], size: number): WireValue[] {
  if (items.length === 0) return items;
  return Array.from({ length: size }, (_, index) => items[index % items.length]!);
}

/** A map grown by repeating its entries under fresh keys (key_2, key_3, …), or cut, to `size` entries. */
function resizeMap(map: WireObject, size: number): WireObject {
  const entries = map.entries.slice(0, size);
  const taken = new Set(entries.map(([key]) => key));
  for (let index = 0; entries.length < size && map.entries.length > 0; index += 1) {
    const [key, value] = map.entries[index % map.entries.length]!;
    let copy = 2;
    while (taken.has(`${key}_${copy}`)) copy += 1;
    taken.add(`${key}_${copy}`);
    entries.push([`${key}_${copy}`, value]);
  }
  return new WireObject(entries);
}

export class SchemaConverter {
  constructor(private readonly hooks: SchemaHooks = {}) {}

  /** The arbitrary of a component schema, e.g. component('DecideRequest'). */
  component(name: string): fc.Arbitrary<WireValue> {
    return this.ref(`${COMPONENT_PREFIX}${name}`, { components: [], path: [] });
  }

  private ref(pointer: string, site: SchemaSite): fc.Arbitrary<WireValue> {
    if (!pointer.startsWith(COMPONENT_PREFIX)) throw new Error(`from-schema: only component references are supported, not ${pointer}`);
    const name = pointer.slice(COMPONENT_PREFIX.length);
    if (site.components.includes(name)) throw new Error(`from-schema: ${name} refers to itself; recursive schemas are not supported`);
    const inner: SchemaSite = { ...site, components: [...site.components, name] };
    const schema = resolvePointer(pointer);
    if (!isObject(schema)) throw new Error(`from-schema: ${pointer} is not a schema object`);
    const own = () => this.schema(schema, inner);
    return this.hooks.component?.(name, inner, own) ?? own();
  }

  /** The arbitrary of an inline schema at a site. */
  schema(schema: JsonObject, site: SchemaSite): fc.Arbitrary<WireValue> {
    for (const keyword of Object.keys(schema)) {
      if (!SUPPORTED.has(keyword) && !ANNOTATIONS.has(keyword) && !keyword.startsWith('x-')) {
        throw new Error(`from-schema: keyword "${keyword}" at ${site.components.join(' > ') || 'the root'} (${site.path.join('/') || '/'}) is not supported`);
      }
    }
    if (typeof schema.$ref === 'string') return this.ref(schema.$ref, site);
    if ('const' in schema) return fc.constant(toWire(schema.const as Json));
    if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as Json[]).map(toWire));
    if (Array.isArray(schema.oneOf)) return this.oneOf(schema, site);
    const type = schema.type;
    if (Array.isArray(type)) {
      return fc.oneof({ withCrossShrink: true }, ...(type as string[]).map((single) => this.schema({ ...schema, type: single }, site)));
    }
    switch (type) {
      case 'string':
        return this.string(schema, site);
      case 'object':
        return this.object(schema, site);
      case 'array':
        return this.array(schema, site);
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return fc.integer({ min: (schema.minimum as number | undefined) ?? -1000, max: (schema.maximum as number | undefined) ?? 1000 });
      case 'number':
        return fc.double({ min: (schema.minimum as number | undefined) ?? -1000, max: (schema.maximum as number | undefined) ?? 1000, noNaN: true });
      default:
        throw new Error(`from-schema: a schema without a supported type at ${site.path.join('/') || '/'}: ${JSON.stringify(schema).slice(0, 120)}`);
    }
  }

  private oneOf(schema: JsonObject, site: SchemaSite): fc.Arbitrary<WireValue> {
    const tagName = isObject(schema.discriminator) ? (schema.discriminator.propertyName as string) : undefined;
    const branches = (schema.oneOf as JsonObject[]).filter((branch) => {
      const component = typeof branch.$ref === 'string' ? branch.$ref.slice(COMPONENT_PREFIX.length) : undefined;
      const resolved = typeof branch.$ref === 'string' ? (resolvePointer(branch.$ref) as JsonObject) : branch;
      const tagSchema = tagName && isObject(resolved.properties) ? (resolved.properties[tagName] as JsonObject | undefined) : undefined;
      const tag = tagSchema && typeof tagSchema.const === 'string' ? tagSchema.const : undefined;
      if (tagName && tag === undefined) throw new Error(`from-schema: oneOf branch ${component ?? '(inline)'} has no const ${tagName} for its discriminator`);
      return this.hooks.branch?.({ ...(tag !== undefined ? { tag } : {}), ...(component !== undefined ? { component } : {}) }, site) ?? true;
    });
    if (branches.length === 0) throw new Error(`from-schema: every oneOf branch at ${site.path.join('/') || '/'} was left out`);
    const arbitraries = branches.map((branch) => this.schema(branch, site));
    return arbitraries.length === 1 ? arbitraries[0]! : fc.oneof({ withCrossShrink: true }, ...arbitraries);
  }

  private string(schema: JsonObject, site: SchemaSite): fc.Arbitrary<WireValue> {
    const min = (schema.minLength as number | undefined) ?? 0;
    const max = schema.maxLength as number | undefined;
    if (typeof schema.pattern === 'string') {
      const pattern = new RegExp(schema.pattern, 'u');
      const custom = this.hooks.string?.({ minLength: min, maxLength: max ?? Number.MAX_SAFE_INTEGER }, site);
      const base = custom ?? fc.stringMatching(pattern);
      // A hook's strings must still match the pattern and the length bounds.
      return base.filter((text) => pattern.test(text) && [...text].length >= min && (max === undefined || [...text].length <= max));
    }
    return sizedAtLimits(
      min,
      max,
      (lo, hi) => this.hooks.string?.({ minLength: lo, maxLength: hi }, site) ?? fc.string({ minLength: lo, maxLength: hi }),
      (text, size) => this.hooks.resizeString?.(text, size, site) ?? resizeString(text, size),
      DEFAULT_UNBOUNDED_EXTRA * 8,
    );
  }

  private object(schema: JsonObject, site: SchemaSite): fc.Arbitrary<WireValue> {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = new Set((schema.required as string[] | undefined) ?? []);
    const additional = schema.additionalProperties;
    const names = Object.keys(properties);
    if (names.length > 0 && isObject(additional))
      throw new Error(`from-schema: properties together with a schema for additionalProperties at ${site.path.join('/')} are not supported`);
    if (isObject(additional)) return this.map(schema, additional, site);

    const fields = names.map((name) => {
      const child: SchemaSite = { ...site, path: [...site.path, name] };
      const value = this.schema(properties[name] as JsonObject, child);
      const presence = required.has(name) ? 'always' : (this.hooks.optional?.(name, site) ?? 'sometimes');
      if (presence === 'always') return value.map((v) => [name, v] as const);
      if (presence === 'never') return fc.constant(undefined);
      return fc.option(
        value.map((v) => [name, v] as const),
        { nil: undefined },
      );
    });
    for (const name of required) if (!(name in properties)) throw new Error(`from-schema: required property ${name} has no schema at ${site.path.join('/')}`);
    return fc.tuple(...fields).map((entries) => new WireObject(entries.filter((entry): entry is readonly [string, WireValue] => entry !== undefined)));
  }

  private map(schema: JsonObject, valueSchema: JsonObject, site: SchemaSite): fc.Arbitrary<WireValue> {
    const valueSite: SchemaSite = { ...site, path: [...site.path, '*'] };
    const key = this.hooks.key?.(site) ?? fc.string({ minLength: 1, maxLength: 8 });
    const value = this.schema(valueSchema, valueSite);
    const sized = this.hooks.mapSize?.(site);
    const min = Math.max((schema.minProperties as number | undefined) ?? 0, sized?.min ?? 0);
    // Only the schema's own maximum is a limit to draw at; a hook's is a generation budget.
    const max = schema.maxProperties as number | undefined;
    const entries = (lo: number, hi: number) => fc.uniqueArray(fc.tuple(key, value), { minLength: lo, maxLength: hi, selector: ([name]) => name });
    return sizedAtLimits(
      min,
      max,
      (lo, hi) => entries(lo, hi).map((list) => new WireObject(list)),
      resizeMap,
      sized ? Math.max(0, sized.max - min) : DEFAULT_UNBOUNDED_EXTRA,
    );
  }

  private array(schema: JsonObject, site: SchemaSite): fc.Arbitrary<WireValue> {
    if (!isObject(schema.items)) throw new Error(`from-schema: arrays need an items schema at ${site.path.join('/')}`);
    const item = this.schema(schema.items, { ...site, path: [...site.path, '[]'] });
    const min = (schema.minItems as number | undefined) ?? 0;
    const max = schema.maxItems as number | undefined;
    return sizedAtLimits(min, max, (lo, hi) => fc.array(item, { minLength: lo, maxLength: hi }), resizeArray, DEFAULT_UNBOUNDED_EXTRA);
  }
}

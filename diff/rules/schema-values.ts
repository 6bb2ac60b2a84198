// What values a schema admits: its types, null (OpenAPI 3.0: nullable), its enum (or const), its
// format, and on which side of the wire it may appear (readOnly, writeOnly).
// A request that admits fewer values rejects what clients sent before; a response that admits
// more values sends clients what they were never told to expect.
import { isObject, type Json, type JsonObject } from '../../spec/index.ts';
import { sided } from '../findings.ts';
import type { RuleFamily } from '../family.ts';
import { follow } from '../pointer.ts';
import { bySide, reportAt, type SchemaNode, type SchemaRuleFamily } from '../schema-walk.ts';

const RULES = {
  typeChanged: sided('type-changed', 'the type changed: kinds of value were both dropped and added', 'breaking', 'breaking'),
  typeWidened: sided('type-widened', 'the type now admits more kinds of value than before', 'non-breaking', 'breaking'),
  typeNarrowed: sided('type-narrowed', 'the type admits fewer kinds of value than before', 'breaking', 'non-breaking'),
  becameNullable: sided('property-became-nullable', 'the value may now be null', 'non-breaking', 'breaking'),
  becameNonNullable: sided('property-became-non-nullable', 'the value may no longer be null', 'breaking', 'non-breaking'),
  enumValueRemoved: sided('enum-value-removed', 'an enum (or const) value was removed', 'breaking', 'non-breaking'),
  enumValueAdded: sided('enum-value-added', 'an enum (or const) value was added', 'non-breaking', 'breaking'),
  enumAdded: sided('enum-added', 'an enum (or const) now restricts values that were free', 'breaking', 'non-breaking'),
  enumRemoved: sided('enum-removed', 'an enum (or const) no longer restricts the values', 'non-breaking', 'breaking'),
  formatChanged: sided('format-changed', 'the format was added or changed', 'breaking', 'breaking'),
  formatRemoved: sided('format-removed', 'the format was removed', 'non-breaking', 'breaking'),
  // readOnly values are not sent in requests, writeOnly values not returned in responses.
  readOnlyAdded: sided('read-only-added', 'the value became readOnly: clients may no longer send it', 'breaking', 'non-breaking'),
  readOnlyRemoved: sided('read-only-removed', 'the value is no longer readOnly', 'non-breaking', 'non-breaking'),
  writeOnlyAdded: sided('write-only-added', 'the value became writeOnly: servers no longer return it', 'non-breaking', 'breaking'),
  writeOnlyRemoved: sided('write-only-removed', 'the value is no longer writeOnly', 'non-breaking', 'non-breaking'),
};

const FAMILY_RULES = Object.values(RULES).flatMap((pair) => [pair.request, pair.response]);

/**
 * The JSON types a schema admits; undefined when nothing restricts them. Without `type`, a
 * oneOf/anyOf whose every variant declares types admits their union, and an allOf member's
 * types bound the whole: adding `type: object` above object variants narrows nothing.
 */
function typesOf(doc: JsonObject, schema: JsonObject, depth = 0): Set<string> | undefined {
  const type = schema.type;
  if (type !== undefined) {
    const types = new Set((Array.isArray(type) ? type : [type]).map(String));
    // OpenAPI 3.0 writes `nullable: true` beside the type; 3.1 has no such keyword (type: [..., 'null']).
    if (schema.nullable === true && isOpenApi30(doc)) types.add('null');
    return types;
  }
  if (depth > 8) return undefined;
  const resolved = (node: Json): JsonObject | undefined => {
    const { node: target } = follow(doc, { node, pointer: '' });
    return isObject(target) ? target : undefined;
  };
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const variants = schema[keyword];
    if (!Array.isArray(variants) || variants.length === 0) continue;
    const sets = variants.map((variant) => {
      const target = resolved(variant);
      return target ? typesOf(doc, target, depth + 1) : undefined;
    });
    if (sets.every((set) => set !== undefined)) return new Set(sets.flatMap((set) => [...set!]));
  }
  if (Array.isArray(schema.allOf)) {
    for (const member of schema.allOf) {
      const target = resolved(member);
      const set = target ? typesOf(doc, target, depth + 1) : undefined;
      if (set) return set;
    }
  }
  return undefined;
}

const isOpenApi30 = (doc: JsonObject) => typeof doc.openapi === 'string' && doc.openapi.startsWith('3.0');

function enumOf(node: SchemaNode): Json[] | undefined {
  if (Array.isArray(node.schema.enum)) return node.schema.enum;
  if ('const' in node.schema) return [node.schema.const as Json];
  return undefined;
}

const show = (values: Iterable<unknown>) => [...values].map((value) => JSON.stringify(value)).join(', ');

const compareSchemaValues: SchemaRuleFamily = (walk, old, next) => {
  const oldTypes = typesOf(walk.pair.old, old.schema);
  const newTypes = typesOf(walk.pair.new, next.schema);
  const where = `${next.pointer}`;

  if (oldTypes?.has('null') === true && newTypes !== undefined && !newTypes.has('null')) {
    reportAt(walk, bySide(walk, RULES.becameNonNullable), old, next, `${where} may no longer be null.`);
  }
  if (oldTypes !== undefined && !oldTypes.has('null') && newTypes?.has('null') === true) {
    reportAt(walk, bySide(walk, RULES.becameNullable), old, next, `${where} may now be null.`);
  }
  const oldKinds = oldTypes && new Set([...oldTypes].filter((t) => t !== 'null'));
  const newKinds = newTypes && new Set([...newTypes].filter((t) => t !== 'null'));
  if (oldKinds && newKinds && oldKinds.size > 0 && newKinds.size > 0) {
    const lost = [...oldKinds].filter((t) => !newKinds.has(t) && !(t === 'integer' && newKinds.has('number')));
    const gained = [...newKinds].filter((t) => !oldKinds.has(t) && !(t === 'integer' && oldKinds.has('number')));
    if (lost.length > 0 && gained.length > 0) {
      reportAt(walk, bySide(walk, RULES.typeChanged), old, next, `${where} changed type from ${show(oldKinds)} to ${show(newKinds)}.`);
    } else if (gained.length > 0) {
      reportAt(walk, bySide(walk, RULES.typeWidened), old, next, `${where} now also admits ${show(gained)} (was ${show(oldKinds)}).`);
    } else if (lost.length > 0) {
      reportAt(walk, bySide(walk, RULES.typeNarrowed), old, next, `${where} no longer admits ${show(lost)} (now ${show(newKinds)}).`);
    }
  } else if (oldKinds && oldKinds.size > 0 && newTypes === undefined) {
    reportAt(walk, bySide(walk, RULES.typeWidened), old, next, `${where} no longer declares a type (was ${show(oldKinds)}).`);
  } else if (oldTypes === undefined && newKinds && newKinds.size > 0 && enumOf(old) === undefined) {
    reportAt(walk, bySide(walk, RULES.typeNarrowed), old, next, `${where} now must be of type ${show(newKinds)} (was any type).`);
  }

  const oldEnum = enumOf(old);
  const newEnum = enumOf(next);
  if (oldEnum && newEnum) {
    const key = (value: Json) => JSON.stringify(value);
    const newKeys = new Set(newEnum.map(key));
    const oldKeys = new Set(oldEnum.map(key));
    const removed = oldEnum.filter((value) => value !== null && !newKeys.has(key(value)));
    const added = newEnum.filter((value) => value !== null && !oldKeys.has(key(value)));
    if (removed.length > 0) reportAt(walk, bySide(walk, RULES.enumValueRemoved), old, next, `${where} no longer allows ${show(removed)}.`);
    if (added.length > 0) reportAt(walk, bySide(walk, RULES.enumValueAdded), old, next, `${where} now also allows ${show(added)}.`);
  } else if (!oldEnum && newEnum) {
    reportAt(walk, bySide(walk, RULES.enumAdded), old, next, `${where} is now restricted to ${show(newEnum)}.`);
  } else if (oldEnum && !newEnum) {
    reportAt(walk, bySide(walk, RULES.enumRemoved), old, next, `${where} is no longer restricted to ${show(oldEnum)}.`);
  }

  for (const [keyword, added, removed] of [
    ['readOnly', RULES.readOnlyAdded, RULES.readOnlyRemoved],
    ['writeOnly', RULES.writeOnlyAdded, RULES.writeOnlyRemoved],
  ] as const) {
    const was = old.schema[keyword] === true;
    const is = next.schema[keyword] === true;
    if (!was && is) reportAt(walk, bySide(walk, added), old, next, `${where} is now ${keyword}.`);
    if (was && !is) reportAt(walk, bySide(walk, removed), old, next, `${where} is no longer ${keyword}.`);
  }

  const oldFormat = old.schema.format;
  const newFormat = next.schema.format;
  if (newFormat !== undefined && oldFormat !== newFormat) {
    reportAt(
      walk,
      bySide(walk, RULES.formatChanged),
      old,
      next,
      `${where} format ${oldFormat === undefined ? 'is now' : `changed from "${String(oldFormat)}" to`} "${String(newFormat)}".`,
    );
  } else if (oldFormat !== undefined && newFormat === undefined) {
    reportAt(walk, bySide(walk, RULES.formatRemoved), old, next, `${where} no longer has format "${String(oldFormat)}".`);
  }
};

export const schemaValueFamily: RuleFamily = { name: 'schema values', stage: 'schema', rules: FAMILY_RULES, compare: compareSchemaValues };

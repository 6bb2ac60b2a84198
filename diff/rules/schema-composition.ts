// Composed schemas: oneOf/anyOf variants (matched by discriminator value, then by $ref, then by
// position, so renaming a component is not a removal), allOf members, discriminators, array
// items and the 2020-12 applicators (prefixItems, if/then/else, not).
import { isObject, resolvePointer, type Json, type JsonObject } from '../../spec/index.ts';
import { rule, sided } from '../findings.ts';
import type { Rule } from '../model.ts';
import { child } from '../pointer.ts';
import { bySide, canonical, reportAt, type SchemaNode, type SchemaRuleFamily } from '../schema-walk.ts';

const RULES = {
  variantRemoved: sided('variant-removed', 'a oneOf/anyOf variant was removed', 'breaking', 'non-breaking'),
  variantAdded: sided('variant-added', 'a oneOf/anyOf variant was added', 'non-breaking', 'breaking'),
  allOfMemberAdded: sided('all-of-member-added', 'an allOf member was added (more constraints)', 'breaking', 'non-breaking'),
  allOfMemberRemoved: sided('all-of-member-removed', 'an allOf member was removed (fewer constraints)', 'non-breaking', 'breaking'),
  negationChanged: sided('negation-changed', 'a "not" subschema was added, removed or changed', 'breaking', 'info'),
  conditionChanged: sided('condition-changed', 'an "if" condition was added, removed or changed', 'breaking', 'breaking'),
};

const DISCRIMINATOR = {
  propertyChanged: rule('discriminator-property-changed', 'both', 'breaking', 'the discriminator property name changed'),
  mappingChanged: rule('discriminator-mapping-changed', 'both', 'breaking', 'a discriminator mapping value was removed or now points to a different schema'),
  mappingAdded: rule('discriminator-mapping-added', 'both', 'info', 'a discriminator mapping value was added (the variant rules judge the new variant)'),
};

export const schemaCompositionRules: Rule[] = [...Object.values(RULES).flatMap((pair) => [pair.request, pair.response]), ...Object.values(DISCRIMINATOR)];

function mappingOf(node: SchemaNode): Record<string, string> {
  const discriminator = node.schema.discriminator;
  if (!isObject(discriminator) || !isObject(discriminator.mapping)) return {};
  return Object.fromEntries(Object.entries(discriminator.mapping).map(([value, ref]) => [value, String(ref)]));
}

/** A stable identity per variant: its discriminator value, else its $ref, else its position. */
function variantKeys(node: SchemaNode, keyword: string): Array<{ key: string; schema: Json; index: number }> {
  const list = node.schema[keyword];
  if (!Array.isArray(list)) return [];
  const valueOfRef = new Map(Object.entries(mappingOf(node)).map(([value, ref]) => [ref, value]));
  return list.map((schema, index) => {
    const ref = isObject(schema) && typeof schema.$ref === 'string' ? schema.$ref : undefined;
    const value = ref ? valueOfRef.get(ref) : undefined;
    return { key: value !== undefined ? `value:${value}` : ref ? `ref:${ref}` : `index:${index}`, schema, index };
  });
}

export const compareSchemaComposition: SchemaRuleFamily = (walk, old, next, recurse) => {
  for (const keyword of ['oneOf', 'anyOf', 'allOf'] as const) {
    const before = variantKeys(old, keyword);
    const after = variantKeys(next, keyword);
    const afterByKey = new Map(after.map((entry) => [entry.key, entry]));
    const beforeKeys = new Set(before.map((entry) => entry.key));
    const label = (key: string) => key.replace(/^value:/, 'discriminator value ').replace(/^ref:#\/components\/schemas\//, '').replace(/^index:/, 'position ');
    for (const entry of before) {
      const match = afterByKey.get(entry.key);
      const oldAt = { pointer: child(old.pointer, keyword, entry.index) };
      if (match) {
        recurse({ node: entry.schema, pointer: oldAt.pointer }, { node: match.schema, pointer: child(next.pointer, keyword, match.index) });
      } else if (keyword === 'allOf') {
        reportAt(walk, bySide(walk, RULES.allOfMemberRemoved), oldAt, next, `allOf member ${label(entry.key)} of ${old.pointer} was removed.`);
      } else {
        reportAt(walk, bySide(walk, RULES.variantRemoved), oldAt, next, `${keyword} variant ${label(entry.key)} of ${old.pointer} was removed.`);
      }
    }
    for (const entry of after.filter((candidate) => !beforeKeys.has(candidate.key))) {
      const newAt = { pointer: child(next.pointer, keyword, entry.index) };
      if (keyword === 'allOf') reportAt(walk, bySide(walk, RULES.allOfMemberAdded), old, newAt, `allOf member ${label(entry.key)} was added to ${next.pointer}.`);
      else reportAt(walk, bySide(walk, RULES.variantAdded), old, newAt, `${keyword} variant ${label(entry.key)} was added to ${next.pointer}.`);
    }
  }

  compareDiscriminators(walk, old, next);

  if (old.schema.items !== undefined && next.schema.items !== undefined) {
    recurse({ node: old.schema.items, pointer: child(old.pointer, 'items') }, { node: next.schema.items, pointer: child(next.pointer, 'items') });
  }
  const oldPrefix = Array.isArray(old.schema.prefixItems) ? old.schema.prefixItems : [];
  const newPrefix = Array.isArray(next.schema.prefixItems) ? next.schema.prefixItems : [];
  for (let i = 0; i < Math.min(oldPrefix.length, newPrefix.length); i++) {
    recurse({ node: oldPrefix[i] as Json, pointer: child(old.pointer, 'prefixItems', i) }, { node: newPrefix[i] as Json, pointer: child(next.pointer, 'prefixItems', i) });
  }
  for (const branch of ['then', 'else'] as const) {
    if (old.schema[branch] !== undefined && next.schema[branch] !== undefined) {
      recurse({ node: old.schema[branch], pointer: child(old.pointer, branch) }, { node: next.schema[branch], pointer: child(next.pointer, branch) });
    }
  }
  // A condition and a negation invert the direction of whatever they contain, so they are
  // compared as a whole rather than walked.
  if (canonical(old.schema.if) !== canonical(next.schema.if)) {
    reportAt(walk, bySide(walk, RULES.conditionChanged), atKeyword(old, 'if'), atKeyword(next, 'if'), `The "if" condition of ${next.pointer} changed.`);
  }
  if (canonical(old.schema.not) !== canonical(next.schema.not)) {
    reportAt(walk, bySide(walk, RULES.negationChanged), atKeyword(old, 'not'), atKeyword(next, 'not'), `The "not" subschema of ${next.pointer} changed: ${describeNegation(old.schema.not)} became ${describeNegation(next.schema.not)}.`);
  }
};

const atKeyword = (node: SchemaNode, keyword: string) => ({ pointer: keyword in node.schema ? child(node.pointer, keyword) : node.pointer });
const describeNegation = (node: Json | undefined) => (node === undefined ? 'none' : canonical(node));

function compareDiscriminators(walk: Parameters<SchemaRuleFamily>[0], old: SchemaNode, next: SchemaNode): void {
  const before = old.schema.discriminator as JsonObject | undefined;
  const after = next.schema.discriminator as JsonObject | undefined;
  if (!isObject(before) || !isObject(after)) return;
  const at = (node: SchemaNode) => ({ pointer: child(node.pointer, 'discriminator') });
  if (before.propertyName !== after.propertyName) {
    reportAt(walk, DISCRIMINATOR.propertyChanged, at(old), at(next), `The discriminator of ${next.pointer} changed from "${String(before.propertyName)}" to "${String(after.propertyName)}".`);
  }
  const oldMapping = mappingOf(old);
  const newMapping = mappingOf(next);
  for (const [value, ref] of Object.entries(oldMapping)) {
    const now = newMapping[value];
    if (now === undefined) {
      reportAt(walk, DISCRIMINATOR.mappingChanged, at(old), at(next), `Discriminator value "${value}" of ${next.pointer} no longer maps to a schema (was ${ref}).`);
    } else if (now !== ref && !sameContent(walk, ref, now)) {
      reportAt(walk, DISCRIMINATOR.mappingChanged, at(old), at(next), `Discriminator value "${value}" of ${next.pointer} now maps to ${now} instead of ${ref}.`);
    }
  }
  for (const value of Object.keys(newMapping).filter((candidate) => !(candidate in oldMapping))) {
    reportAt(walk, DISCRIMINATOR.mappingAdded, at(old), at(next), `Discriminator value "${value}" was added to ${next.pointer} (maps to ${newMapping[value]}).`);
  }
}

/** A renamed component with the same content is the same variant. */
function sameContent(walk: Parameters<SchemaRuleFamily>[0], oldRef: string, newRef: string): boolean {
  try {
    return canonical(resolvePointer(oldRef, walk.pair.old)) === canonical(resolvePointer(newRef, walk.pair.new));
  } catch {
    return false;
  }
}


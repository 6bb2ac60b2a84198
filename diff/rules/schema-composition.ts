// Composed schemas: oneOf/anyOf variants (matched by discriminator value, then by $ref, then by
// position, so renaming a component is not a removal), allOf members, discriminators, array
// items and the 2020-12 applicators (prefixItems, if/then/else, not).
import { isObject, resolvePointer, type Json, type JsonObject } from '../../spec/index.ts';
import { rule, sided } from '../findings.ts';
import type { RuleFamily } from '../family.ts';
import type { Rule } from '../model.ts';
import { child } from '../pointer.ts';
import { oneOfIsDisjoint } from '../unions.ts';
import { bySide, canonical, reportAt, type Recurse, type SchemaNode, type SchemaRuleFamily, type SchemaWalk } from '../schema-walk.ts';

const RULES = {
  variantRemoved: sided('variant-removed', 'a oneOf/anyOf variant was removed', 'breaking', 'non-breaking'),
  variantAdded: sided('variant-added', 'a oneOf/anyOf variant was added', 'non-breaking', 'breaking'),
  allOfMemberAdded: sided('all-of-member-added', 'an allOf member was added (more constraints)', 'breaking', 'non-breaking'),
  allOfMemberRemoved: sided('all-of-member-removed', 'an allOf member was removed (fewer constraints)', 'non-breaking', 'breaking'),
  negationAdded: sided('negation-added', 'a "not" subschema now excludes values', 'breaking', 'non-breaking'),
  negationRemoved: sided('negation-removed', 'a "not" subschema no longer excludes values', 'non-breaking', 'breaking'),
  // A changed negation inverts the direction of whatever changed inside it; that is not decided.
  negationChanged: sided('negation-changed', 'a "not" subschema changed: direction unknown', 'breaking', 'breaking'),
  conditionChanged: sided('condition-changed', 'an "if" condition was added, removed or changed', 'breaking', 'breaking'),
};

const DISCRIMINATOR = {
  propertyChanged: rule('discriminator-property-changed', 'both', 'breaking', 'the discriminator property name changed'),
  mappingChanged: rule('discriminator-mapping-changed', 'both', 'breaking', 'a discriminator mapping value was removed or now points to a different schema'),
  mappingAdded: rule(
    'discriminator-mapping-added',
    'both',
    'info',
    'a discriminator mapping value was added for a new variant (the variant rules judge the new variant)',
  ),
};

/** A new discriminator value for a variant both documents have: the variant rules see no change. */
const MAPPING_VALUE = sided(
  'discriminator-value-added',
  'a discriminator value was added for an existing variant: requests may send it, responses may carry it',
  'non-breaking',
  'breaking',
);

const FAMILY_RULES: Rule[] = [...[...Object.values(RULES), MAPPING_VALUE].flatMap((pair) => [pair.request, pair.response]), ...Object.values(DISCRIMINATOR)];

function mappingOf(node: SchemaNode): Record<string, string> {
  const discriminator = node.schema.discriminator;
  if (!isObject(discriminator) || !isObject(discriminator.mapping)) return {};
  return Object.fromEntries(Object.entries(discriminator.mapping).map(([value, ref]) => [value, String(ref)]));
}

interface Variant {
  schema: Json;
  index: number;
  ref?: string;
  /** Discriminator values that map to this variant's $ref. */
  values: string[];
}

function variantsOf(node: SchemaNode, keyword: string): Variant[] {
  const list = node.schema[keyword];
  if (!Array.isArray(list)) return [];
  const mapping = Object.entries(mappingOf(node));
  return list.map((schema, index) => {
    const ref = isObject(schema) && typeof schema.$ref === 'string' ? schema.$ref : undefined;
    return { schema, index, ...(ref ? { ref } : {}), values: ref ? mapping.filter(([, target]) => target === ref).map(([value]) => value) : [] };
  });
}

/** Pairs the variants of `oldKeyword` in `old` with those of `newKeyword` in `next` and reports what was removed or added. */
function compareVariants(walk: SchemaWalk, old: SchemaNode, next: SchemaNode, oldKeyword: Composition, newKeyword: Composition, recurse: Recurse): void {
  const { pairs, removed, added } = pairVariants(variantsOf(old, oldKeyword), variantsOf(next, newKeyword));
  for (const [was, now] of pairs) {
    recurse(
      { node: was.schema, pointer: child(old.pointer, oldKeyword, was.index) },
      { node: now.schema, pointer: child(next.pointer, newKeyword, now.index) },
    );
  }
  for (const was of removed) {
    const oldAt = { pointer: child(old.pointer, oldKeyword, was.index) };
    if (oldKeyword === 'allOf')
      reportAt(walk, bySide(walk, RULES.allOfMemberRemoved), oldAt, next, `allOf member ${labelOf(was)} of ${old.pointer} was removed.`);
    else reportAt(walk, bySide(walk, RULES.variantRemoved), oldAt, next, `${oldKeyword} variant ${labelOf(was)} of ${old.pointer} was removed.`);
  }
  for (const now of added) {
    const newAt = { pointer: child(next.pointer, newKeyword, now.index) };
    if (newKeyword === 'allOf') reportAt(walk, bySide(walk, RULES.allOfMemberAdded), old, newAt, `allOf member ${labelOf(now)} was added to ${next.pointer}.`);
    else reportAt(walk, bySide(walk, RULES.variantAdded), old, newAt, `${newKeyword} variant ${labelOf(now)} was added to ${next.pointer}.`);
  }
}

/**
 * Pairs old and new variants: by $ref first, then by a shared discriminator value (a renamed
 * component keeps its value), then inline variants by position.
 */
function pairVariants(before: Variant[], after: Variant[]): { pairs: Array<[Variant, Variant]>; removed: Variant[]; added: Variant[] } {
  const free = new Set(after);
  const pairs: Array<[Variant, Variant]> = [];
  const take = (old: Variant, match: (candidate: Variant) => boolean): boolean => {
    const found = [...free].find(match);
    if (!found) return false;
    free.delete(found);
    pairs.push([old, found]);
    return true;
  };
  const unmatched = before.filter((old) => !(old.ref !== undefined && take(old, (c) => c.ref === old.ref)));
  const stillUnmatched = unmatched.filter((old) => !(old.values.length > 0 && take(old, (c) => c.values.some((value) => old.values.includes(value)))));
  const removed = stillUnmatched.filter((old) => !(old.ref === undefined && take(old, (c) => c.ref === undefined && c.index === old.index)));
  return { pairs, removed, added: [...free] };
}

const labelOf = (variant: Variant) => (variant.ref ? variant.ref.replace(/^#\/components\/schemas\//, '') : `at position ${variant.index}`);

type Composition = 'oneOf' | 'anyOf' | 'allOf';

/**
 * The keyword each side's variants are compared under: a oneOf on one side and an anyOf on the
 * other are one union when the oneOf's branches are pairwise disjoint (a refactor, not a change).
 */
function unionKeywords(walk: SchemaWalk, old: SchemaNode, next: SchemaNode): Array<[Composition, Composition]> {
  const only = (node: SchemaNode, keyword: Composition, other: Composition) => node.schema[keyword] !== undefined && node.schema[other] === undefined;
  if (only(old, 'oneOf', 'anyOf') && only(next, 'anyOf', 'oneOf') && oneOfIsDisjoint(old.schema.oneOf, walk.pair.old))
    return [
      ['oneOf', 'anyOf'],
      ['allOf', 'allOf'],
    ];
  if (only(old, 'anyOf', 'oneOf') && only(next, 'oneOf', 'anyOf') && oneOfIsDisjoint(next.schema.oneOf, walk.pair.new))
    return [
      ['anyOf', 'oneOf'],
      ['allOf', 'allOf'],
    ];
  return [
    ['oneOf', 'oneOf'],
    ['anyOf', 'anyOf'],
    ['allOf', 'allOf'],
  ];
}

const compareSchemaComposition: SchemaRuleFamily = (walk, old, next, recurse) => {
  for (const [was, is] of unionKeywords(walk, old, next)) compareVariants(walk, old, next, was, is, recurse);

  compareDiscriminators(walk, old, next);

  if (old.schema.items !== undefined && next.schema.items !== undefined) {
    recurse({ node: old.schema.items, pointer: child(old.pointer, 'items') }, { node: next.schema.items, pointer: child(next.pointer, 'items') });
  }
  const oldPrefix = Array.isArray(old.schema.prefixItems) ? old.schema.prefixItems : [];
  const newPrefix = Array.isArray(next.schema.prefixItems) ? next.schema.prefixItems : [];
  for (let i = 0; i < Math.min(oldPrefix.length, newPrefix.length); i++) {
    recurse(
      { node: oldPrefix[i] as Json, pointer: child(old.pointer, 'prefixItems', i) },
      { node: newPrefix[i] as Json, pointer: child(next.pointer, 'prefixItems', i) },
    );
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
  if (old.schema.not === undefined && next.schema.not !== undefined) {
    reportAt(walk, bySide(walk, RULES.negationAdded), old, atKeyword(next, 'not'), `${next.pointer} now must not match ${canonical(next.schema.not)}.`);
  } else if (old.schema.not !== undefined && next.schema.not === undefined) {
    reportAt(walk, bySide(walk, RULES.negationRemoved), atKeyword(old, 'not'), next, `${next.pointer} no longer must not match ${canonical(old.schema.not)}.`);
  } else if (canonical(old.schema.not) !== canonical(next.schema.not)) {
    reportAt(
      walk,
      bySide(walk, RULES.negationChanged),
      atKeyword(old, 'not'),
      atKeyword(next, 'not'),
      `The "not" subschema of ${next.pointer} changed: ${describeNegation(old.schema.not)} became ${describeNegation(next.schema.not)}.`,
    );
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
    reportAt(
      walk,
      DISCRIMINATOR.propertyChanged,
      at(old),
      at(next),
      `The discriminator of ${next.pointer} changed from "${String(before.propertyName)}" to "${String(after.propertyName)}".`,
    );
  }
  const oldMapping = mappingOf(old);
  const newMapping = mappingOf(next);
  for (const [value, ref] of Object.entries(oldMapping)) {
    const now = newMapping[value];
    if (now === undefined) {
      reportAt(
        walk,
        DISCRIMINATOR.mappingChanged,
        at(old),
        at(next),
        `Discriminator value "${value}" of ${next.pointer} no longer maps to a schema (was ${ref}).`,
      );
    } else if (now !== ref && !sameContent(walk, ref, now)) {
      reportAt(
        walk,
        DISCRIMINATOR.mappingChanged,
        at(old),
        at(next),
        `Discriminator value "${value}" of ${next.pointer} now maps to ${now} instead of ${ref}.`,
      );
    }
  }
  // Schemas the old document could already answer with: mapped, or a oneOf / anyOf variant.
  const oldTargets = new Set([
    ...Object.values(oldMapping),
    ...(['oneOf', 'anyOf'] as const).flatMap((keyword) => variantsOf(old, keyword).flatMap((variant) => (variant.ref ? [variant.ref] : []))),
  ]);
  for (const value of Object.keys(newMapping).filter((candidate) => !(candidate in oldMapping))) {
    if (oldTargets.has(newMapping[value]!)) {
      reportAt(
        walk,
        bySide(walk, MAPPING_VALUE),
        at(old),
        at(next),
        `Discriminator value "${value}" was added to ${next.pointer} for a variant it already had (${newMapping[value]}).`,
      );
      continue;
    }
    reportAt(
      walk,
      DISCRIMINATOR.mappingAdded,
      at(old),
      at(next),
      `Discriminator value "${value}" was added to ${next.pointer} (maps to ${newMapping[value]}).`,
    );
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

export const schemaCompositionFamily: RuleFamily = { name: 'schema composition', stage: 'schema', rules: FAMILY_RULES, compare: compareSchemaComposition };

// Applicators whose subschema may appear or disappear: an absent subschema admits every value
// (it is `true`), so a subschema added where there was none is walked against `{}` and judged
// like any other narrowing (and removed, like a widening). Also `contains`, whose absence is not
// `true` but no constraint at all, `dependentRequired`, and `patternProperties` and `prefixItems`
// entries, which take over from `additionalProperties` / `items`.
import { isObject, type Json } from '../../spec/index.ts';
import { sided } from '../findings.ts';
import type { RuleFamily } from '../family.ts';
import type { Rule } from '../model.ts';
import { child, type Located } from '../pointer.ts';
import { bySide, canonical, reportAt, type Recurse, type SchemaNode, type SchemaRuleFamily, type SchemaWalk } from '../schema-walk.ts';

const RULES = {
  containsAdded: sided('contains-added', 'an array must now contain an item matching "contains"', 'breaking', 'non-breaking'),
  containsRemoved: sided('contains-removed', 'an array no longer has to contain an item matching "contains"', 'non-breaking', 'breaking'),
  dependentRequiredAdded: sided('dependent-required-added', 'a property, when present, now requires another (dependentRequired)', 'breaking', 'non-breaking'),
  dependentRequiredRemoved: sided(
    'dependent-required-removed',
    'a property, when present, no longer requires another (dependentRequired)',
    'non-breaking',
    'breaking',
  ),
  patternPropertiesChanged: sided(
    'pattern-properties-changed',
    'a patternProperties entry was added or removed where additionalProperties or unevaluatedProperties also judge names: direction unknown',
    'breaking',
    'breaking',
  ),
};

const FAMILY_RULES: Rule[] = Object.values(RULES).flatMap((pair) => [pair.request, pair.response]);

/** A subschema, or `{}` (admits everything) located at its parent when the keyword is absent. */
const subschema = (node: SchemaNode, keyword: string, ...path: Array<string | number>): Located => {
  let value: Json | undefined = node.schema[keyword];
  for (const key of path) value = isObject(value) ? value[String(key)] : Array.isArray(value) ? value[Number(key)] : undefined;
  return value === undefined ? { node: {}, pointer: node.pointer } : { node: value, pointer: child(node.pointer, keyword, ...path) };
};

/** Walks a keyword whose absence means `true`, when only one side has it (both sides: the other families walk it). */
function walkOneSided(old: SchemaNode, next: SchemaNode, keyword: string, recurse: Recurse): void {
  const before = old.schema[keyword];
  const after = next.schema[keyword];
  if ((before === undefined) === (after === undefined)) return;
  // `false` closes an object: schema properties judges that as closed / opened.
  if ((keyword === 'additionalProperties' || keyword === 'unevaluatedProperties') && (before === false || after === false)) return;
  recurse(subschema(old, keyword), subschema(next, keyword));
}

const keysOf = (value: Json | undefined) => (isObject(value) ? Object.keys(value) : []);

const compareSchemaApplicators: SchemaRuleFamily = (walk, old, next, recurse) => {
  for (const keyword of ['items', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'propertyNames'])
    walkOneSided(old, next, keyword, recurse);
  // then / else count only under the same condition; a changed "if" is judged as a whole.
  if (old.schema.if !== undefined && canonical(old.schema.if) === canonical(next.schema.if)) {
    for (const keyword of ['then', 'else']) walkOneSided(old, next, keyword, recurse);
  }
  // No other family walks these when both sides have them.
  for (const keyword of ['propertyNames', 'unevaluatedItems']) {
    if (old.schema[keyword] !== undefined && next.schema[keyword] !== undefined) recurse(subschema(old, keyword), subschema(next, keyword));
  }
  // Each dependent schema walked as its own subschema, `{}` where the other side has none.
  for (const name of new Set([...keysOf(old.schema.dependentSchemas), ...keysOf(next.schema.dependentSchemas)])) {
    recurse(subschema(old, 'dependentSchemas', name), subschema(next, 'dependentSchemas', name));
  }
  comparePatternProperties(walk, old, next, recurse);
  comparePrefixItems(old, next, recurse);
  compareContains(walk, old, next, recurse);
  compareDependentRequired(walk, old, next);
};

/**
 * A name matching a new patternProperties entry was judged by nothing before (when neither
 * additionalProperties nor unevaluatedProperties is present) and by the entry's schema now:
 * that is the entry against `{}`. Otherwise the names it takes from additionalProperties make
 * the direction unknown.
 */
function comparePatternProperties(walk: SchemaWalk, old: SchemaNode, next: SchemaNode, recurse: Recurse): void {
  const free = (node: SchemaNode) => node.schema.additionalProperties === undefined && node.schema.unevaluatedProperties === undefined;
  const before = keysOf(old.schema.patternProperties);
  const after = keysOf(next.schema.patternProperties);
  for (const pattern of new Set([...before, ...after])) {
    const both = before.includes(pattern) && after.includes(pattern);
    if (both || (free(old) && free(next))) {
      recurse(subschema(old, 'patternProperties', pattern), subschema(next, 'patternProperties', pattern));
      continue;
    }
    const added = after.includes(pattern);
    reportAt(
      walk,
      bySide(walk, RULES.patternPropertiesChanged),
      added ? old : { pointer: child(old.pointer, 'patternProperties', pattern) },
      added ? { pointer: child(next.pointer, 'patternProperties', pattern) } : next,
      `Pattern property ${pattern} was ${added ? 'added to' : 'removed from'} ${next.pointer}, which also has additionalProperties or unevaluatedProperties: whether it admits more or fewer objects is not decided.`,
    );
  }
}

/** A position beyond the shorter prefixItems was judged by `items` (or nothing) on that side. */
function comparePrefixItems(old: SchemaNode, next: SchemaNode, recurse: Recurse): void {
  const oldLength = Array.isArray(old.schema.prefixItems) ? old.schema.prefixItems.length : 0;
  const newLength = Array.isArray(next.schema.prefixItems) ? next.schema.prefixItems.length : 0;
  for (let i = Math.min(oldLength, newLength); i < Math.max(oldLength, newLength); i++) {
    recurse(
      i < oldLength ? subschema(old, 'prefixItems', i) : subschema(old, 'items'),
      i < newLength ? subschema(next, 'prefixItems', i) : subschema(next, 'items'),
    );
  }
}

function compareContains(walk: SchemaWalk, old: SchemaNode, next: SchemaNode, recurse: Recurse): void {
  const before = old.schema.contains;
  const after = next.schema.contains;
  if (before !== undefined && after !== undefined) recurse(subschema(old, 'contains'), subschema(next, 'contains'));
  else if (before === undefined && after !== undefined) {
    reportAt(
      walk,
      bySide(walk, RULES.containsAdded),
      old,
      { pointer: child(next.pointer, 'contains') },
      `${next.pointer} must now contain an item matching ${canonical(after)}.`,
    );
  } else if (before !== undefined && after === undefined) {
    reportAt(
      walk,
      bySide(walk, RULES.containsRemoved),
      { pointer: child(old.pointer, 'contains') },
      next,
      `${next.pointer} no longer has to contain an item matching ${canonical(before)}.`,
    );
  }
}

function compareDependentRequired(walk: SchemaWalk, old: SchemaNode, next: SchemaNode): void {
  const namesOf = (node: SchemaNode, name: string) => {
    const map = node.schema.dependentRequired;
    const list = isObject(map) ? map[name] : undefined;
    return Array.isArray(list) ? list.map(String) : [];
  };
  for (const name of new Set([...keysOf(old.schema.dependentRequired), ...keysOf(next.schema.dependentRequired)])) {
    const before = namesOf(old, name);
    const after = namesOf(next, name);
    const added = after.filter((n) => !before.includes(n));
    const removed = before.filter((n) => !after.includes(n));
    const at = (node: SchemaNode) => ({ pointer: isObject(node.schema.dependentRequired) ? child(node.pointer, 'dependentRequired') : node.pointer });
    if (added.length > 0) {
      reportAt(
        walk,
        bySide(walk, RULES.dependentRequiredAdded),
        at(old),
        at(next),
        `When "${name}" is present in ${next.pointer}, ${added.map((n) => `"${n}"`).join(', ')} must now be present too.`,
      );
    }
    if (removed.length > 0) {
      reportAt(
        walk,
        bySide(walk, RULES.dependentRequiredRemoved),
        at(old),
        at(next),
        `When "${name}" is present in ${next.pointer}, ${removed.map((n) => `"${n}"`).join(', ')} no longer must be present.`,
      );
    }
  }
}

export const schemaApplicatorFamily: RuleFamily = { name: 'schema applicators', stage: 'schema', rules: FAMILY_RULES, compare: compareSchemaApplicators };

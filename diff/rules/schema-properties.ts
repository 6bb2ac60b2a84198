// The properties of an object: which exist, which are required, and whether unknown ones are
// accepted. Clients ignore response fields they do not know (seed 9.3), so a new response
// property is harmless; a request property that becomes required is not.
import { isObject, type Json } from '../../spec/index.ts';
import { sided } from '../findings.ts';
import type { RuleFamily } from '../family.ts';
import type { Rule } from '../model.ts';
import { EVALUATING_IN_PLACE } from '../keywords.ts';
import { patternMatches } from '../pattern-languages.ts';
import { child, type Located } from '../pointer.ts';
import { bySide, reportAt, type SchemaNode, type SchemaRuleFamily } from '../schema-walk.ts';

const RULES = {
  removed: sided('property-removed', 'a property was removed', 'breaking', 'breaking'),
  addedRequired: sided('property-added-required', 'a new property is required', 'breaking', 'non-breaking'),
  addedOptional: sided('property-added', 'a new optional property was added', 'non-breaking', 'non-breaking'),
  becameRequired: sided('property-became-required', 'an existing property became required', 'breaking', 'non-breaking'),
  becameOptional: sided('property-became-optional', 'a required property became optional', 'non-breaking', 'breaking'),
  closed: sided('additional-properties-closed', 'unknown properties are no longer accepted', 'breaking', 'non-breaking'),
  opened: sided('additional-properties-opened', 'unknown properties are now accepted', 'non-breaking', 'non-breaking'),
};

const FAMILY_RULES: Rule[] = Object.values(RULES).flatMap((pair) => [pair.request, pair.response]);

const propertiesOf = (node: SchemaNode) => (isObject(node.schema.properties) ? node.schema.properties : {});
const requiredOf = (node: SchemaNode) => new Set(Array.isArray(node.schema.required) ? node.schema.required.map(String) : []);

/** False when the keyword closes the object; a schema or absence leaves it open. */
const isClosed = (value: Json | undefined) => value === false;

/**
 * What judges the value of property `name` where `properties` does not list it: the
 * patternProperties entries its name matches, else additionalProperties, else
 * unevaluatedProperties, else nothing (`{}`, any value). Undefined when the object was closed to
 * it (false): it could not be sent at all, and its addition widens (judged as the property added).
 */
function formerJudge(node: SchemaNode, name: string): Located | undefined {
  const patterns = isObject(node.schema.patternProperties) ? node.schema.patternProperties : {};
  const matching = Object.keys(patterns).filter((pattern) => patternMatches(pattern, name) === true);
  if (matching.length === 1) return { node: patterns[matching[0]!] as Json, pointer: child(node.pointer, 'patternProperties', matching[0]!) };
  if (matching.length > 1) return { node: { allOf: matching.map((pattern) => patterns[pattern] as Json) }, pointer: child(node.pointer, 'patternProperties') };
  for (const keyword of ['additionalProperties', 'unevaluatedProperties'] as const) {
    const value = node.schema[keyword];
    if (value === undefined) continue;
    if (value === false) return undefined;
    return { node: value, pointer: child(node.pointer, keyword) };
  }
  return { node: {}, pointer: node.pointer };
}

/** Whether a keyword in place evaluates properties beside `properties`: then unevaluatedProperties sees more than additionalProperties does. */
const hasInPlace = (node: SchemaNode) => EVALUATING_IN_PLACE.some((keyword) => node.schema[keyword] !== undefined);

const compareSchemaProperties: SchemaRuleFamily = (walk, old, next, recurse) => {
  const oldProps = propertiesOf(old);
  const newProps = propertiesOf(next);
  const oldRequired = requiredOf(old);
  const newRequired = requiredOf(next);
  const names = new Set([...Object.keys(oldProps), ...Object.keys(newProps), ...oldRequired, ...newRequired]);

  for (const name of names) {
    const inOld = name in oldProps || oldRequired.has(name);
    const inNew = name in newProps || newRequired.has(name);
    const oldAt = { pointer: name in oldProps ? child(old.pointer, 'properties', name) : old.pointer };
    const newAt = { pointer: name in newProps ? child(next.pointer, 'properties', name) : next.pointer };
    if (inOld && !inNew) {
      reportAt(walk, bySide(walk, RULES.removed), oldAt, newAt, `Property "${name}" of ${old.pointer} was removed.`);
      continue;
    }
    if (!inOld && inNew) {
      const required = newRequired.has(name);
      reportAt(
        walk,
        bySide(walk, required ? RULES.addedRequired : RULES.addedOptional),
        oldAt,
        newAt,
        `${required ? 'Required' : 'Optional'} property "${name}" was added to ${next.pointer}.`,
      );
    } else if (!oldRequired.has(name) && newRequired.has(name)) {
      reportAt(walk, bySide(walk, RULES.becameRequired), oldAt, newAt, `Property "${name}" of ${next.pointer} became required.`);
    } else if (oldRequired.has(name) && !newRequired.has(name)) {
      reportAt(walk, bySide(walk, RULES.becameOptional), oldAt, newAt, `Property "${name}" of ${next.pointer} became optional.`);
    }
    if (name in oldProps && name in newProps) {
      recurse({ node: oldProps[name] as Json, pointer: oldAt.pointer }, { node: newProps[name] as Json, pointer: newAt.pointer });
    } else if (!(name in oldProps) && name in newProps) {
      // A property that is new to `properties` was judged before by what judged any other name:
      // its schema now narrows or widens that (an open object admitted any value for it).
      const judge = formerJudge(old, name);
      if (judge) recurse(judge, { node: newProps[name] as Json, pointer: newAt.pointer });
    }
  }

  // Without keywords in place, additionalProperties false and unevaluatedProperties false refuse
  // the same names: whether the object is closed is one fact, however it is written.
  const simple = !hasInPlace(old) && !hasInPlace(next);
  if (simple) {
    const closedBy = (node: SchemaNode) => (['additionalProperties', 'unevaluatedProperties'] as const).find((keyword) => isClosed(node.schema[keyword]));
    const was = closedBy(old);
    const is = closedBy(next);
    const at = (node: SchemaNode, keyword: string | undefined) => ({ pointer: keyword ? child(node.pointer, keyword) : node.pointer });
    if (!was && is)
      reportAt(walk, bySide(walk, RULES.closed), at(old, undefined), at(next, is), `${next.pointer} no longer accepts unknown properties (${is}: false).`);
    else if (was && !is)
      reportAt(walk, bySide(walk, RULES.opened), at(old, was), at(next, undefined), `${next.pointer} now accepts unknown properties (${was} no longer false).`);
  }
  for (const keyword of ['additionalProperties', 'unevaluatedProperties'] as const) {
    const before = old.schema[keyword];
    const after = next.schema[keyword];
    const at = (node: SchemaNode) => ({ pointer: keyword in node.schema ? child(node.pointer, keyword) : node.pointer });
    // additionalProperties false refuses every name unevaluatedProperties false would: the latter beside it changes nothing.
    const besideClosed = keyword === 'unevaluatedProperties' && isClosed(old.schema.additionalProperties) && isClosed(next.schema.additionalProperties);
    if (!simple && !besideClosed && !isClosed(before) && isClosed(after)) {
      reportAt(walk, bySide(walk, RULES.closed), at(old), at(next), `${next.pointer} no longer accepts unknown properties (${keyword}: false).`);
    } else if (!simple && !besideClosed && isClosed(before) && !isClosed(after)) {
      reportAt(walk, bySide(walk, RULES.opened), at(old), at(next), `${next.pointer} now accepts unknown properties (${keyword} no longer false).`);
    } else if (before !== undefined && after !== undefined && !isClosed(before) && !isClosed(after)) {
      // Both are schemas (a map's values): walk them like any other subschema.
      recurse({ node: before, pointer: child(old.pointer, keyword) }, { node: after, pointer: child(next.pointer, keyword) });
    }
  }
};

export const schemaPropertyFamily: RuleFamily = { name: 'schema properties', stage: 'schema', rules: FAMILY_RULES, compare: compareSchemaProperties };

// The fallback: a keyword of a schema that no family judges (not in the keyword table of
// keywords.ts) and that is not an annotation. Whether its change admits more or fewer values is
// not known, so it breaks both sides rather than pass as harmless.
import { sided } from '../findings.ts';
import type { RuleFamily } from '../family.ts';
import { isAnnotation, keywordEntry } from '../keywords.ts';
import type { Rule } from '../model.ts';
import { child } from '../pointer.ts';
import { bySide, canonical, reportAt, type SchemaRuleFamily } from '../schema-walk.ts';

const RULES = {
  changed: sided(
    'keyword-changed',
    'a keyword the diff does not judge (not an annotation) was added, removed or changed: direction unknown',
    'breaking',
    'breaking',
  ),
};

const FAMILY_RULES: Rule[] = [RULES.changed.request, RULES.changed.response];

const compareOtherKeywords: SchemaRuleFamily = (walk, old, next) => {
  for (const keyword of new Set([...Object.keys(old.schema), ...Object.keys(next.schema)])) {
    // $ref is followed by the walk; a table keyword is judged by its family.
    if (keyword === '$ref' || keywordEntry(keyword) !== undefined || isAnnotation(keyword)) continue;
    const before = old.schema[keyword];
    const after = next.schema[keyword];
    if (canonical(before) === canonical(after)) continue;
    const at = (node: typeof old) => ({ pointer: keyword in node.schema ? child(node.pointer, keyword) : node.pointer });
    const what = before === undefined ? 'was added' : after === undefined ? 'was removed' : 'changed';
    reportAt(
      walk,
      bySide(walk, RULES.changed),
      at(old),
      at(next),
      `${keyword} of ${next.pointer} ${what}; the diff does not judge this keyword, so whether it admits more or fewer values is unknown.`,
    );
  }
};

export const schemaKeywordFamily: RuleFamily = { name: 'schema keywords', stage: 'schema', rules: FAMILY_RULES, compare: compareOtherKeywords };

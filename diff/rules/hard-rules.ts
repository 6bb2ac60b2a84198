// Hard-rule seed sections (x-seed-sections with hard_rules: true) and the nodes that cite them
// (x-seed-section). Every finding is tagged with the hard-rule sections its node cites, and a
// change to a schema of such a section that no other rule explains is called out by name: as
// info only when it changed nothing but annotations, else as breaking (its direction is unknown).
import { isObject, type Json, type JsonObject } from '../../spec/index.ts';
import type { CollectedStage, Run, RuleFamily } from '../family.ts';
import { rule } from '../findings.ts';
import { isAnnotation } from '../keywords.ts';
import type { Finding } from '../model.ts';
import { child, nodesOnPath } from '../pointer.ts';
import { canonical } from '../schema-walk.ts';

const RULES = {
  schemaChanged: rule(
    'hard-rule-schema-changed',
    'document',
    'info',
    'a schema citing a hard-rule seed section changed only in annotations (title, description, examples, $comment, deprecated, x- extensions)',
  ),
  schemaEquivalent: rule(
    'hard-rule-schema-equivalent',
    'document',
    'info',
    'a schema citing a hard-rule seed section changed beyond its annotations, and the schema rules compared it keyword by keyword and found it admits the same values (e.g. a renamed $ref with the same content)',
  ),
  schemaUnjudged: rule(
    'hard-rule-schema-unjudged',
    'document',
    'breaking',
    'a schema citing a hard-rule seed section changed beyond its annotations and no operation reaches it, so no rule judged the change: direction unknown',
  ),
  sectionChanged: rule('hard-rule-section-changed', 'document', 'info', 'a seed section gained or lost hard_rules, or was added or removed'),
};

function hardSectionsOf(doc: JsonObject): Map<string, string> {
  const list = Array.isArray(doc['x-seed-sections']) ? doc['x-seed-sections'] : [];
  return new Map(
    list
      .filter(isObject)
      .filter((s) => s.hard_rules === true)
      .map((s) => [String(s.id), `${String(s.id)} ${String(s.title)}`]),
  );
}

/** The hard-rule sections cited by the deepest node on the way to `pointer` that cites any. */
function citedHardSections(doc: JsonObject, pointer: string, hard: Map<string, string>): string[] {
  const cited = nodesOnPath(doc, pointer)
    .map((node: Json) => (isObject(node) && Array.isArray(node['x-seed-section']) ? node['x-seed-section'].map(String) : undefined))
    .filter((list): list is string[] => list !== undefined)
    .at(-1);
  return (cited ?? []).filter((id) => hard.has(id)).map((id) => hard.get(id)!);
}

/** Tags each finding with the hard-rule sections its node cites in the new document (or the old one, for removals). */
function tagHardRuleSections({ pair }: Run, findings: Finding[]): void {
  const newHard = hardSectionsOf(pair.new);
  const oldHard = hardSectionsOf(pair.old);
  for (const finding of findings) {
    const sections = new Set([...citedHardSections(pair.new, finding.newPointer, newHard), ...citedHardSections(pair.old, finding.oldPointer, oldHard)]);
    if (sections.size > 0) finding.hardRuleSections = [...sections];
  }
}

/** Keywords whose value is a map from names (not keywords) to subschemas or name lists. */
const NAME_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas', 'dependentRequired', '$defs', 'definitions']);
/** Keywords whose value is data, kept as it is; enum and the name lists are sets. */
const DATA = new Set(['const', 'default', 'enum', 'required', 'type']);

/**
 * A schema with its annotations dropped and its sets (enum, required, type) in a fixed order:
 * two schemas equal this way admit the same values.
 */
function withoutAnnotations(node: Json | undefined): Json | undefined {
  if (Array.isArray(node)) return node.map((item) => withoutAnnotations(item) ?? null);
  if (!isObject(node)) return node;
  const kept: JsonObject = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (isAnnotation(keyword)) continue;
    if (DATA.has(keyword))
      kept[keyword] =
        Array.isArray(value) && keyword !== 'const' && keyword !== 'default' ? [...value].sort((a, b) => canonical(a).localeCompare(canonical(b))) : value;
    else if (NAME_MAPS.has(keyword) && isObject(value))
      kept[keyword] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, withoutAnnotations(sub) ?? null]));
    else kept[keyword] = withoutAnnotations(value) ?? null;
  }
  return kept;
}

/** Runs once the other stages have reported: a schema change they explain needs no call-out. */
function compareHardRuleSchemas({ pair, collector, findings: explained, reached }: CollectedStage): void {
  const schemasOf = (doc: JsonObject) => {
    const components = isObject(doc.components) ? doc.components : {};
    return isObject(components.schemas) ? components.schemas : {};
  };
  const before = schemasOf(pair.old);
  const after = schemasOf(pair.new);
  const hard = hardSectionsOf(pair.new);
  const within = (pointer: string, root: string) => pointer === root || pointer.startsWith(`${root}/`);
  for (const [name, schema] of Object.entries(before)) {
    const now = after[name];
    if (now === undefined || canonical(schema) === canonical(now)) continue;
    const pointer = child('/components/schemas', name);
    const sections = citedHardSections(pair.new, pointer, hard);
    if (sections.length === 0) continue;
    if (explained.some((f) => within(f.oldPointer, pointer) || within(f.newPointer, pointer))) continue;
    const states = `Schema ${name}, which states hard rules of seed section ${sections.join(', ')}`;
    const [verdict, message] =
      canonical(withoutAnnotations(schema)) === canonical(withoutAnnotations(now))
        ? [RULES.schemaChanged, `${states}, changed only in annotations (title, description, examples, $comment, deprecated or x- extensions).`]
        : reached.has(pointer)
          ? [
              RULES.schemaEquivalent,
              `${states}, changed beyond its annotations; the schema rules compared it keyword by keyword and found it admits the same values.`,
            ]
          : [
              RULES.schemaUnjudged,
              `${states}, changed beyond its annotations and no operation reaches it, so no rule judged the change and whether it admits more or fewer values is unknown.`,
            ];
    collector.report(verdict, { oldPointer: pointer, newPointer: pointer, message });
  }

  const sectionsOf = (doc: JsonObject) =>
    new Map(
      (Array.isArray(doc['x-seed-sections']) ? doc['x-seed-sections'] : [])
        .filter(isObject)
        .map((s, index) => [String(s.id), { hard: s.hard_rules === true, index }]),
    );
  const oldSections = sectionsOf(pair.old);
  const newSections = sectionsOf(pair.new);
  for (const id of new Set([...oldSections.keys(), ...newSections.keys()])) {
    const was = oldSections.get(id);
    const now = newSections.get(id);
    if (was?.hard === now?.hard && was && now) continue;
    const describe = (s: { hard: boolean } | undefined) => (s === undefined ? 'absent' : s.hard ? 'hard rules' : 'no hard rules');
    collector.report(RULES.sectionChanged, {
      oldPointer: was ? child('/x-seed-sections', was.index) : '/x-seed-sections',
      newPointer: now ? child('/x-seed-sections', now.index) : '/x-seed-sections',
      message: `Seed section ${id} went from ${describe(was)} to ${describe(now)}.`,
    });
  }
}

export const hardRuleFamily: RuleFamily = {
  name: 'hard rules',
  stage: 'collected',
  rules: Object.values(RULES),
  compare: compareHardRuleSchemas,
  amend: tagHardRuleSections,
};

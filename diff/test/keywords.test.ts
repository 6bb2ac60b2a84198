// The keyword table against JSON Schema 2020-12 itself: every keyword of the validation,
// applicator, unevaluated and format vocabularies (read from the meta-schemas ajv ships) has a
// direction-aware rule, judged by a family of the registry and proven by a corpus pair on each
// side. Annotations change nothing; anything else the table does not know breaks.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { expect, test } from 'vitest';
import { diffDocuments } from '../diff.ts';
import { ANNOTATIONS, isAnnotation, KEYWORDS, keywordEntry } from '../keywords.ts';
import { ruleFamilies } from '../registry.ts';
import { documentsOf, probe } from './corpus/case.ts';
import { KEYWORD_CASES } from './corpus/keywords.ts';
import { BOUNDS } from './corpus/schemas.ts';

const metaDirectory = join(dirname(createRequire(import.meta.url).resolve('ajv/dist/refs/json-schema-2020-12/schema.json')), 'meta');
const vocabulary = (name: string): string[] => Object.keys(JSON.parse(readFileSync(join(metaDirectory, `${name}.json`), 'utf8')).properties);
const JUDGED_VOCABULARIES = ['validation', 'applicator', 'unevaluated', 'format-annotation'];
const judgedKeywords = JUDGED_VOCABULARIES.flatMap(vocabulary);

test('the 2020-12 vocabularies are read from the meta-schemas, not copied', () => {
  expect(judgedKeywords).toContain('propertyNames');
  expect(judgedKeywords).toContain('unevaluatedProperties');
  expect(judgedKeywords.length).toBeGreaterThan(30);
});

test('every keyword of the validation, applicator, unevaluated and format vocabularies is in the keyword table with a direction', () => {
  const missing = judgedKeywords.filter((keyword) => keywordEntry(keyword) === undefined);
  expect(missing).toEqual([]);
  for (const keyword of judgedKeywords) expect(keywordEntry(keyword)!.logic.kind, keyword).not.toMatch(/^(annotation|container)$/);
});

test('every keyword of the table is judged by a family of the registry', () => {
  const families = new Set(ruleFamilies.map((family) => family.name));
  for (const entry of KEYWORDS) expect(families, entry.keyword).toContain(entry.family);
});

test('every judged keyword is proven by a corpus pair, narrowed and widened, on both sides', () => {
  const proven = new Set([...KEYWORD_CASES.map((k) => k.keyword), ...BOUNDS.map((b) => b.keyword)]);
  const judged = KEYWORDS.filter((k) => k.logic.kind !== 'container').map((k) => k.keyword);
  expect(judged.filter((keyword) => !proven.has(keyword))).toEqual([]);
});

test('only annotations are annotations: no keyword of the meta-data vocabulary that asserts is one', () => {
  expect(ANNOTATIONS).not.toContain('readOnly');
  expect(ANNOTATIONS).not.toContain('writeOnly');
  expect(ANNOTATIONS).not.toContain('default');
  for (const keyword of judgedKeywords) expect(isAnnotation(keyword), keyword).toBe(false);
});

test.each(['request', 'response'] as const)('%s: a change to annotations only reports nothing', (side) => {
  const { old, changed } = documentsOf({
    name: 'annotations',
    prepare: (doc) => probe(doc, side, { type: 'string', description: 'a', examples: ['x'] }),
    change: (doc) => probe(doc, side, { type: 'string', title: 'T', description: 'b', examples: ['y'], $comment: 'c', deprecated: true, 'x-note': 1 }),
    forward: [],
    reverse: [],
  });
  expect(diffDocuments(old, changed).findings).toEqual([]);
  expect(diffDocuments(changed, old).findings).toEqual([]);
});

test('the issue: propertyNames added to the questions map is breaking, not hard-rule info', () => {
  const { old, changed } = documentsOf({
    name: 'question ids restricted',
    change: (doc) => (doc.components.schemas.Questions.propertyNames = { pattern: '^[a-z0-9_]{1,32}$' }),
    forward: [],
    reverse: [],
  });
  const result = diffDocuments(old, changed);
  expect(result.counts.breaking).toBeGreaterThan(0);
  expect(result.findings.map((f) => f.ruleId)).not.toContain('hard-rule-schema-changed');
  expect(result.findings.find((f) => f.ruleId === 'request-pattern-added')).toMatchObject({
    newPointer: '/components/schemas/Questions/propertyNames',
    hardRuleSections: expect.arrayContaining(['2.3 Question object']),
  });
});

test('the issue: a widened asset_id pattern on a request-only part is not breaking', () => {
  const { old, changed } = documentsOf({
    name: 'asset id widened',
    change: (doc) => {
      doc.components.schemas.ImagePart.properties.asset_id = { ...doc.components.schemas.AssetId, pattern: '^asset_[A-Za-z0-9_-]{4,64}$' };
    },
    forward: [],
    reverse: [],
  });
  const result = diffDocuments(old, changed);
  expect(result.counts.breaking).toBe(0);
  expect(result.findings.map((f) => `${f.class} ${f.ruleId}`)).toContain('non-breaking request-pattern-widened');
  expect(diffDocuments(changed, old).findings.map((f) => `${f.class} ${f.ruleId}`)).toContain('breaking request-pattern-narrowed');
});

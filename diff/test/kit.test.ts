// What kit findings carry beyond their rule: the open point id, the hard-rule sections, the major-version downgrade.
import { expect, test } from 'vitest';
import { diffDocuments } from '../diff.ts';
import { documentsOf } from './corpus/case.ts';
import { kitCases } from './corpus/kit.ts';

const byName = (fragment: string) => kitCases.find((c) => c.name.includes(fragment))!;

test('an open point change carries the open point id', () => {
  const { old, changed } = documentsOf(byName('reference choice changed'));
  const finding = diffDocuments(old, changed).findings.find((f) => f.ruleId === 'open-point-reference-choice-changed')!;
  expect(finding.class).toBe('info');
  expect(finding.openPoint).toBe('decide-success-status');
  expect(finding.message).toContain('decide-success-status');
});

test('a change under a hard-rule section is called out by name', () => {
  const { old, changed } = documentsOf(byName('TextPart description'));
  const finding = diffDocuments(old, changed).findings.find((f) => f.ruleId === 'hard-rule-schema-changed')!;
  expect(finding.message).toContain('TextPart');
  expect(finding.hardRuleSections).toContain('2.2 Content part');
});

test('a new major version keeps every breaking finding, as info, marked as downgraded', () => {
  const { old, changed } = documentsOf(byName('/v1 -> /v2'));
  const result = diffDocuments(old, changed);
  expect(result.majors.changed).toBe(true);
  expect(result.counts.breaking).toBe(0);
  const removal = result.findings.find((f) => f.ruleId === 'response-property-removed')!;
  expect(removal).toMatchObject({ class: 'info', downgradedFrom: 'breaking' });
  expect(removal.operations).toContain('POST /v2/feedback');
  // Paths moved to /v2 are paired with their /v1 originals, not reported as removed.
  expect(result.findings.map((f) => f.ruleId)).not.toContain('path-removed');
});

test('a change to a node that documents an open point carries its id', () => {
  const { old, changed } = documentsOf({
    name: 'decide success status',
    change: (doc) => delete doc.paths['/v1/decide'].post.responses['200'],
    forward: [],
    reverse: [],
  });
  const finding = diffDocuments(old, changed).findings.find((f) => f.ruleId === 'response-status-removed')!;
  expect(finding).toMatchObject({ class: 'breaking', openPoint: 'decide-success-status' });
});

// The gate's verdicts on value sets: refactors that say the same thing in another shape are not
// breaking (the keyword rule still explains what moved, as info); widenings written in a shape
// the keyword rules read as narrowing are not breaking once inclusion is proved; narrowings hidden
// inside an applicator stay breaking, each with a witness.
import { expect, test } from 'vitest';
import { openapiDocument } from '../../spec/index.ts';
import { diffDocuments } from '../diff.ts';

const documents = (change: (doc: any) => void) => {
  const old = structuredClone(openapiDocument) as any;
  const changed = structuredClone(old);
  change(changed);
  return { old, changed };
};

const breaking = (old: any, changed: any) => diffDocuments(old, changed).findings.filter((f) => f.class === 'breaking');

test('the required list of DecideRequest moved into an allOf member: no breaking change, the allOf finding is info with the same values', () => {
  const { old, changed } = documents((doc) => {
    const schema = doc.components.schemas.DecideRequest;
    schema.allOf = [{ required: schema.required }];
    delete schema.required;
  });
  for (const [from, to] of [
    [old, changed],
    [changed, old],
  ]) {
    expect(breaking(from, to).map((f) => f.ruleId)).toEqual([]);
  }
  const shape = diffDocuments(old, changed).findings.find((f) => f.ruleId === 'request-all-of-member-added');
  expect(shape).toMatchObject({ class: 'info', valueSets: 'same' });
});

test('a required property moved into an allOf member that also lists a new one is still breaking, with a witness lacking it', () => {
  const { old, changed } = documents((doc) => {
    const schema = doc.components.schemas.FeedbackRequest;
    schema.allOf = [{ required: [...schema.required, 'comment'] }];
    delete schema.required;
  });
  const [finding, ...others] = breaking(old, changed);
  expect(others).toEqual([]);
  expect(finding?.witness?.part).toBe('body');
  expect(finding?.witness?.value).not.toHaveProperty('comment');
});

test('a union made of overlapping branches, oneOf -> anyOf, widens a request: proved included, not breaking; anyOf -> oneOf narrows it, with a witness', () => {
  const { old, changed } = documents((doc) => {
    doc.components.schemas.FeedbackRequest.properties.probe = { anyOf: [{ type: 'string' }, { type: 'string', maxLength: 3 }] };
  });
  old.components.schemas.FeedbackRequest.properties.probe = { oneOf: [{ type: 'string' }, { type: 'string', maxLength: 3 }] };
  expect(breaking(old, changed)).toEqual([]);
  expect(diffDocuments(old, changed).findings.some((f) => f.valueSets === 'included')).toBe(true);
  const narrowed = breaking(changed, old);
  expect(narrowed.length).toBeGreaterThan(0);
  // A string of at most 3 characters matches both branches: anyOf took it, oneOf refuses it.
  expect(narrowed.find((f) => f.witness)?.witness?.value).toMatchObject({ probe: expect.stringMatching(/^.{0,3}$/su) });
});

test('a dependentSchemas entry that limits a property when another is present is a narrowing the gate reports breaking', () => {
  const { old, changed } = documents((doc) => {
    doc.components.schemas.FeedbackRequest.dependentSchemas = { comment: { properties: { request_id: { maxLength: 4 } } } };
  });
  const findings = breaking(old, changed);
  expect(findings.length).toBeGreaterThan(0);
  const witness = findings.find((f) => f.witness)?.witness;
  expect(witness?.value).toHaveProperty('comment');
  expect(((witness?.value ?? {}) as { request_id: string }).request_id.length).toBeGreaterThan(4);
});

test('a response format added narrows what clients may receive: proved included, not breaking; removed, it stays breaking', () => {
  const { old, changed } = documents((doc) => {
    doc.components.schemas.Feedback.properties.probe = { type: 'string', format: 'date-time' };
  });
  old.components.schemas.Feedback.properties.probe = { type: 'string' };
  expect(breaking(old, changed)).toEqual([]);
  const widened = breaking(changed, old);
  expect(widened.map((f) => f.ruleId)).toEqual(['response-format-removed']);
  expect(widened[0]?.witness?.part).toMatch(/^response:/);
});

test('a variant added to a request oneOf that overlaps one already there refuses the values both match: the rule said harmless, the witness overrules it', () => {
  const { old, changed } = documents((doc) => {
    doc.components.schemas.FeedbackRequest.properties.probe = { oneOf: [{ type: 'string' }, { type: 'string', maxLength: 3 }] };
  });
  old.components.schemas.FeedbackRequest.properties.probe = { oneOf: [{ type: 'string' }] };
  const added = diffDocuments(old, changed).findings.find((f) => f.ruleId === 'request-variant-added');
  expect(added).toMatchObject({ class: 'breaking', valueSets: 'lost' });
  expect(added?.witness?.value).toMatchObject({ probe: expect.stringMatching(/^.{0,3}$/su) });
  // Without the decision on value sets, the keyword rule alone calls it harmless.
  expect(diffDocuments(old, changed, undefined, { decide: false }).findings.find((f) => f.ruleId === 'request-variant-added')?.class).toBe('non-breaking');
});

test('a narrowing on a response that the rules call harmless on purpose (a new optional field, seed 9.3) is not overruled', () => {
  const { old, changed } = documents((doc) => {
    doc.components.schemas.Feedback.properties.channel = { type: 'string' };
  });
  expect(breaking(old, changed)).toEqual([]);
});

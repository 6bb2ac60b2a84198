// The scoring is real: probability moves towards what the context talks about, for every
// question type, and each decision is one run of the ONNX session.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Schemas } from '../../spec/index.ts';
import { createDecisionEngine, type DecisionEngine } from '../decision/index.ts';

const TOPIC: Schemas['Questions'] = {
  topic: {
    type: 'choice',
    options: { billing: 'Payments, refunds and invoices', shipping: 'Delivery and tracking', other: '' },
  },
};
const ISSUES: Schemas['MultiQuestion'] = {
  type: 'multi',
  options: { refund: null, damaged_item: null, 'late délivery': null },
  instructions: 'Which issues does the customer raise?',
};
const WANTS_REFUND: Schemas['NoulQuestion'] = { type: 'noul', instructions: 'Does the customer ask for a refund?' };
const IS_LATE: Schemas['ScoreQuestion'] = { type: 'score', instructions: 'Is the delivery late?' };

const CHARGED_TWICE = 'I was charged twice for my order and I want a refund of the duplicate payment.';
const LATE_PARCEL = 'My parcel has not arrived yet, the delivery is two weeks late and tracking shows nothing.';
const UNRELATED = 'The weather is lovely today and the garden is full of flowers.';

let engine: DecisionEngine;
beforeAll(async () => {
  engine = await createDecisionEngine();
});
afterAll(async () => {
  await engine.close();
});

async function answer<T extends Schemas['Answer']>(context: string, question: Schemas['Question']): Promise<T> {
  return (await engine.decide(context, { q: question })).answers.q as T;
}

describe('choice', () => {
  test('a refund / charged-twice text goes to billing, over shipping and other', async () => {
    const topic = (await engine.decide(CHARGED_TWICE, TOPIC)).answers.topic as Schemas['ChoiceAnswer'];
    expect(topic.choice).toBe('billing');
    expect(topic.probabilities.billing).toBeGreaterThan(0.6);
    expect(topic.probabilities.billing).toBeGreaterThan(topic.probabilities.shipping! + 0.4);
    expect(topic.probabilities.billing).toBeGreaterThan(topic.probabilities.other! + 0.4);
  });

  test('a late-delivery text goes to shipping', async () => {
    const topic = (await engine.decide(LATE_PARCEL, TOPIC)).answers.topic as Schemas['ChoiceAnswer'];
    expect(topic.choice).toBe('shipping');
    expect(topic.probabilities.shipping).toBeGreaterThan(0.6);
    expect(topic.abstain).toBe(false);
  });

  test('the same options with another context get other probabilities', async () => {
    const billing = (await engine.decide(CHARGED_TWICE, TOPIC)).answers.topic as Schemas['ChoiceAnswer'];
    const shipping = (await engine.decide(LATE_PARCEL, TOPIC)).answers.topic as Schemas['ChoiceAnswer'];
    expect(billing.probabilities.billing).toBeGreaterThan(shipping.probabilities.billing! + 0.5);
    expect(shipping.probabilities.shipping).toBeGreaterThan(billing.probabilities.shipping! + 0.5);
  });

  test('the option descriptions count, not only the ids', async () => {
    const question: Schemas['ChoiceQuestion'] = { type: 'choice', options: { x1: 'parcel delivery and couriers', x2: 'payments and refunds' } };
    expect((await answer<Schemas['ChoiceAnswer']>(LATE_PARCEL, question)).choice).toBe('x1');
    expect((await answer<Schemas['ChoiceAnswer']>(CHARGED_TWICE, question)).choice).toBe('x2');
  });

  test('a context with nothing in common with any option abstains', async () => {
    const topic = (await engine.decide('Hello.', TOPIC)).answers.topic as Schemas['ChoiceAnswer'];
    expect(topic.abstain).toBe(true);
    expect(topic.choice).toBeNull();
    expect(topic.confidence).toBeLessThan(0.1);
  });
});

describe('multi', () => {
  test('the issues the text raises are selected, the others are not', async () => {
    const issues = await answer<Schemas['MultiAnswer']>('My parcel arrived two weeks late and the vase inside was broken. I want a refund.', ISSUES);
    expect(issues.selected).toEqual(['refund', 'late délivery']);
    expect(issues.probabilities.refund).toBeGreaterThan(0.9);
    expect(issues.probabilities.damaged_item).toBeLessThan(0.5);
  });

  test('each option moves on its own with the context', async () => {
    const refundText = await answer<Schemas['MultiAnswer']>(CHARGED_TWICE, ISSUES);
    const lateText = await answer<Schemas['MultiAnswer']>(LATE_PARCEL, ISSUES);
    expect(refundText.selected).toEqual(['refund']);
    expect(lateText.selected).toEqual(['late délivery']);
    expect(refundText.probabilities.refund).toBeGreaterThan(lateText.probabilities.refund! + 0.5);
    expect(lateText.probabilities['late délivery']).toBeGreaterThan(refundText.probabilities['late délivery']! + 0.5);
  });
});

describe('noul', () => {
  test('a text that asks for a refund answers yes', async () => {
    const verdict = await answer<Schemas['NoulAnswer']>('Please refund me, I asked for a refund last week.', WANTS_REFUND);
    expect(verdict.verdict).toBe('yes');
    expect(verdict.probabilities.yes).toBeGreaterThan(verdict.probabilities.no + 0.3);
  });

  test('a text that says it did not ask for a refund answers no', async () => {
    const verdict = await answer<Schemas['NoulAnswer']>('I did not ask for a refund, I only want to know where my parcel is.', WANTS_REFUND);
    expect(verdict.verdict).toBe('no');
    expect(verdict.probabilities.no).toBeGreaterThan(verdict.probabilities.yes + 0.3);
  });

  test('a text about something else answers unknown', async () => {
    const verdict = await answer<Schemas['NoulAnswer']>(UNRELATED, WANTS_REFUND);
    expect(verdict.verdict).toBe('unknown');
    expect(verdict.probabilities.unknown).toBeGreaterThan(0.5);
  });

  test('negation works in the question too: "never received" answers a question about receiving', async () => {
    const received: Schemas['NoulQuestion'] = { type: 'noul', instructions: 'Did the customer receive the parcel?' };
    expect((await answer<Schemas['NoulAnswer']>('I never received the parcel.', received)).verdict).toBe('no');
    expect((await answer<Schemas['NoulAnswer']>('I received the parcel this morning.', received)).verdict).toBe('yes');
  });
});

describe('score', () => {
  test('a text about what the instructions describe scores high, an unrelated one low', async () => {
    const late = await answer<Schemas['ScoreAnswer']>(LATE_PARCEL, IS_LATE);
    const unrelated = await answer<Schemas['ScoreAnswer']>(UNRELATED, IS_LATE);
    expect(late.score).toBeGreaterThan(0.9);
    expect(unrelated.score).toBeLessThan(0.3);
    expect(late.basis).toBe('instructions_similarity');
  });

  test('the score grows with how much of the instructions the text covers', async () => {
    const question: Schemas['ScoreQuestion'] = { type: 'score', instructions: 'broken screen, cracked case and dead battery' };
    const none = await answer<Schemas['ScoreAnswer']>('The phone works fine.', question);
    const one = await answer<Schemas['ScoreAnswer']>('The phone has a broken screen.', question);
    const all = await answer<Schemas['ScoreAnswer']>('The phone has a broken screen, a cracked case and a dead battery.', question);
    expect(none.score).toBeLessThan(one.score);
    expect(one.score).toBeLessThan(all.score);
  });
});

describe('every decision runs the ONNX session', () => {
  test('onnxRuns grows by one per decide, whatever the number of questions', async () => {
    const before = engine.stats.onnxRuns;
    await engine.decide(CHARGED_TWICE, TOPIC);
    expect(engine.stats.onnxRuns).toBe(before + 1);
    await engine.decide(CHARGED_TWICE, { topic: TOPIC.topic!, issues: ISSUES, refund: WANTS_REFUND, late: IS_LATE });
    expect(engine.stats.onnxRuns).toBe(before + 2);
    // The same request again is scored again: nothing is served from a cache of answers.
    await engine.decide(CHARGED_TWICE, TOPIC);
    expect(engine.stats.onnxRuns).toBe(before + 3);
  });
});

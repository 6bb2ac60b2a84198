// The answers the engine hands the server: the spec's reference shapes, choice arithmetic, ids
// echoed byte for byte, determinism, request limits, options and guards.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { schemaValidator, type Schemas } from '../../spec/index.ts';
import { createDecisionEngine, UnscorableQuestionError, type Decision, type DecisionEngine } from '../decision/index.ts';
import { roundDistribution, roundProbability, topTwo } from '../decision/probabilities.ts';

const validators = {
  choice: schemaValidator('ChoiceAnswer', 'reference'),
  noul: schemaValidator('NoulAnswer', 'reference'),
  multi: schemaValidator('MultiAnswer', 'reference'),
  score: schemaValidator('ScoreAnswer', 'reference'),
};
const validateResponse = schemaValidator('DecideResponse', 'reference');

const TOPIC: Schemas['ChoiceQuestion'] = {
  type: 'choice',
  options: { billing: 'Payments, refunds and invoices', shipping: 'Delivery and tracking', other: '' },
};
const CHARGED_TWICE = 'I was charged twice for my order and I want a refund of the duplicate payment.';
const MIXED = 'My parcel arrived two weeks late and the vase inside was broken. I want a refund.';

function everyType(prefix = ''): Schemas['Questions'] {
  return {
    [`${prefix}topic`]: TOPIC,
    [`${prefix}wants refund`]: { type: 'noul', instructions: 'Does the customer ask for a refund?' },
    [`${prefix}issues`]: { type: 'multi', options: { refund: null, damaged_item: null, 'late délivery': null } },
    [`${prefix}urgency`]: { type: 'score', instructions: "How urgent is the customer's request?" },
  };
}

/** Checks one decision against the spec's schemas and the type of each question. */
function expectValidDecision(decision: Decision, questions: Schemas['Questions']): void {
  expect(Object.keys(decision.answers).sort()).toEqual(Object.keys(questions).sort());
  for (const [id, question] of Object.entries(questions)) {
    const answer = Object.getOwnPropertyDescriptor(decision.answers, id)?.value as Schemas['Answer'];
    expect(answer.type, id).toBe(question.type);
    const result = validators[answer.type](answer);
    expect(result.issues, `${id}: ${JSON.stringify(answer)}`).toEqual([]);
  }
  const response = { model: 'svc-one-v1', answers: JSON.parse(JSON.stringify(decision.answers)) as unknown, usage: { input_tokens: decision.inputTokens } };
  expect(validateResponse(response).issues).toEqual([]);
  expect(Number.isInteger(decision.inputTokens) && decision.inputTokens >= 1).toBe(true);
}

/** Sum to 1 within 1e-9, confidence exactly top-1 minus top-2, choice the first argmax unless abstaining. */
function expectChoiceArithmetic(answer: Schemas['ChoiceAnswer'], optionIds: string[], abstainMargin: number): void {
  expect(Object.keys(answer.probabilities)).toEqual(optionIds);
  const values = optionIds.map((id) => answer.probabilities[id]!);
  expect(Math.abs(values.reduce((sum, p) => sum + p, 0) - 1)).toBeLessThanOrEqual(1e-9);
  const sorted = [...values].sort((a, b) => b - a);
  expect(answer.confidence).toBe(sorted[0]! - (sorted[1] ?? 0));
  expect(answer.abstain).toBe(answer.confidence < abstainMargin);
  const argmax = optionIds[values.indexOf(sorted[0]!)]!;
  expect(answer.choice).toBe(answer.abstain ? null : argmax);
  expect(answer.abstention_status).toBe('advisory');
}

let engine: DecisionEngine;
beforeAll(async () => {
  engine = await createDecisionEngine();
});
afterAll(async () => {
  await engine.close();
});

describe('answer shapes', () => {
  test('one question of each type: every answer validates against the spec', async () => {
    const questions = everyType();
    const decision = await engine.decide(MIXED, questions);
    expectValidDecision(decision, questions);
  });

  test('choice: probabilities sum to 1, the margin is exact, the choice is the argmax', async () => {
    for (const context of [CHARGED_TWICE, MIXED, 'Hello.', 'delivery refund', 'x']) {
      const topic = (await engine.decide(context, { topic: TOPIC })).answers.topic as Schemas['ChoiceAnswer'];
      expectChoiceArithmetic(topic, ['billing', 'shipping', 'other'], 0.1);
    }
  });

  test('choice: abstaining keeps the probabilities and nulls the choice', async () => {
    const topic = (await engine.decide('Hello.', { topic: TOPIC })).answers.topic as Schemas['ChoiceAnswer'];
    expect(topic.abstain).toBe(true);
    expect(topic.choice).toBeNull();
    expect(Object.keys(topic.probabilities)).toHaveLength(3);
    expectChoiceArithmetic(topic, ['billing', 'shipping', 'other'], 0.1);
    expect(validators.choice(topic).valid).toBe(true);
  });

  test('choice: a single option gets probability 1 and confidence 1', async () => {
    const only = (await engine.decide('Anything at all.', { q: { type: 'choice', options: { only: 'something unrelated' } } })).answers
      .q as Schemas['ChoiceAnswer'];
    expect(only).toEqual({ type: 'choice', choice: 'only', confidence: 1, probabilities: { only: 1 }, abstain: false, abstention_status: 'advisory' });
  });

  test('choice: on a tie the first option in request order is the argmax', async () => {
    const noMargin = await createDecisionEngine({ abstainMargin: 0 });
    try {
      const forward = (await noMargin.decide('Hello.', { q: { type: 'choice', options: { zzz: '', qqq: '' } } })).answers.q as Schemas['ChoiceAnswer'];
      const backward = (await noMargin.decide('Hello.', { q: { type: 'choice', options: { qqq: '', zzz: '' } } })).answers.q as Schemas['ChoiceAnswer'];
      expect(forward.probabilities).toEqual({ zzz: 0.5, qqq: 0.5 });
      expect([forward.choice, forward.confidence, forward.abstain]).toEqual(['zzz', 0, false]);
      expect(backward.choice).toBe('qqq');
    } finally {
      await noMargin.close();
    }
  });

  test('noul: yes/no/unknown probabilities sum to 1, the margin is exact, abstaining nulls the verdict', async () => {
    const question: Schemas['NoulQuestion'] = { type: 'noul', instructions: 'Does the customer ask for a refund?' };
    for (const context of [CHARGED_TWICE, 'I did not ask for a refund.', 'The weather is lovely.', 'refund not refund']) {
      const answer = (await engine.decide(context, { q: question })).answers.q as Schemas['NoulAnswer'];
      expect(validators.noul(answer).issues).toEqual([]);
      const values = [answer.probabilities.yes, answer.probabilities.no, answer.probabilities.unknown];
      expect(Math.abs(values.reduce((sum, p) => sum + p, 0) - 1)).toBeLessThanOrEqual(1e-9);
      const sorted = [...values].sort((a, b) => b - a);
      expect(answer.confidence).toBe(sorted[0]! - sorted[1]!);
      expect(answer.abstain).toBe(answer.confidence < 0.1);
      expect(answer.verdict).toBe(answer.abstain ? null : (['yes', 'no', 'unknown'] as const)[values.indexOf(sorted[0]!)]);
    }
  });

  test('multi: selected are the options at or above the threshold, in request order', async () => {
    const issues = (await engine.decide(MIXED, { q: { type: 'multi', options: { 'late délivery': null, damaged_item: null, refund: null } } })).answers
      .q as Schemas['MultiAnswer'];
    expect(issues.threshold).toBe(0.5);
    expect(Object.keys(issues.probabilities)).toEqual(['late délivery', 'damaged_item', 'refund']);
    expect(issues.selected).toEqual(Object.keys(issues.probabilities).filter((id) => issues.probabilities[id]! >= 0.5));
    expect(issues.selected).toEqual(['late délivery', 'refund']);
    for (const p of Object.values(issues.probabilities)) expect(p >= 0 && p <= 1).toBe(true);
  });

  test('score: a number in [0, 1] with its basis', async () => {
    const answer = (await engine.decide(MIXED, { q: { type: 'score', instructions: 'Is the item broken?' } })).answers.q as Schemas['ScoreAnswer'];
    expect(Object.keys(answer)).toEqual(['type', 'score', 'basis']);
    expect(answer.score).toBeGreaterThanOrEqual(0);
    expect(answer.score).toBeLessThanOrEqual(1);
    expect(answer.basis).toBe('instructions_similarity');
  });
});

describe('ids are echoed byte for byte', () => {
  const weirdIds = [
    'a',
    'а', // Latin a, Cyrillic a
    'é',
    'e\u0301', // precomposed and combining
    '',
    ' ',
    ' spaced id ',
    'line\nbreak',
    'tab\there',
    '__proto__',
    'constructor',
    'toString',
    'hasOwnProperty',
    'prototype',
    '0',
    '10',
    '-1',
    '1.5',
    '👍',
    '👍🏽',
    '👨‍👩‍👧',
    '日本語の質問',
    'اختيار',
    'a'.repeat(10_000),
    '"quoted"',
    '\\backslash',
    '{}',
    'null',
  ];

  test('question ids and option ids of every kind come back as own keys, exactly', async () => {
    // Object.fromEntries makes "__proto__" an own key, as JSON.parse does with a request body.
    const questions = Object.fromEntries(
      weirdIds.map((id, index) => {
        const optionIds = [id, `${id}·${index}`, weirdIds[(index + 1) % weirdIds.length]!];
        const question: Schemas['Question'] =
          index % 2 === 0
            ? { type: 'choice', options: Object.fromEntries(optionIds.map((option) => [option, `about ${option}`])) }
            : { type: 'multi', options: Object.fromEntries(optionIds.map((option) => [option, null])) };
        return [id, question];
      }),
    ) as Schemas['Questions'];
    // More than 16 questions would be rejected by the server; the engine has no such limit.
    const decision = await engine.decide('a а é e\u0301 👍 日本語 __proto__ constructor', questions);
    expectValidDecision(decision, questions);

    const roundTripped = JSON.parse(JSON.stringify(decision.answers)) as Record<string, Schemas['Answer']>;
    expect(Object.keys(roundTripped).sort()).toEqual([...weirdIds].sort());
    for (const id of weirdIds) {
      expect(Object.hasOwn(decision.answers, id), JSON.stringify(id)).toBe(true);
      const question = Object.getOwnPropertyDescriptor(questions, id)!.value as Schemas['ChoiceQuestion'] | Schemas['MultiQuestion'];
      const answer = Object.getOwnPropertyDescriptor(roundTripped, id)!.value as Schemas['ChoiceAnswer'] | Schemas['MultiAnswer'];
      expect(Object.keys(answer.probabilities)).toEqual(Object.keys(question.options));
    }
    // Nothing leaked onto Object.prototype.
    expect(Object.keys(Object.prototype)).toEqual([]);
  });

  test('look-alike option ids stay apart and are scored apart', async () => {
    const answer = (await engine.decide('a', { q: { type: 'choice', options: { a: '', а: '' } } })).answers.q as Schemas['ChoiceAnswer'];
    expect(Object.keys(answer.probabilities)).toEqual(['a', 'а']);
    expect(answer.choice).toBe('a');
  });
});

describe('determinism and limits', () => {
  test('the same input gives the same output, in one engine and across engines', async () => {
    const questions = everyType();
    const first = JSON.stringify(await engine.decide(MIXED, questions));
    expect(JSON.stringify(await engine.decide(MIXED, questions))).toBe(first);
    const other = await createDecisionEngine();
    try {
      expect(JSON.stringify(await other.decide(MIXED, questions))).toBe(first);
    } finally {
      await other.close();
    }
  });

  test('concurrent decisions give the same answers as sequential ones', async () => {
    const contexts = [CHARGED_TWICE, MIXED, 'Hello.', 'The parcel is late.'];
    const sequential = [];
    for (const context of contexts) sequential.push(JSON.stringify(await engine.decide(context, everyType())));
    const concurrent = await Promise.all(contexts.map((context) => engine.decide(context, everyType())));
    expect(concurrent.map((decision) => JSON.stringify(decision))).toEqual(sequential);
  });

  test('16 questions in one call: one session run, 16 valid answers', async () => {
    const questions: Schemas['Questions'] = { ...everyType('a '), ...everyType('b '), ...everyType('c '), ...everyType('d ') };
    expect(Object.keys(questions)).toHaveLength(16);
    const before = engine.stats.onnxRuns;
    const decision = await engine.decide(MIXED, questions);
    expect(engine.stats.onnxRuns).toBe(before + 1);
    expectValidDecision(decision, questions);
    // Questions scored together get the answers they get alone.
    const alone = await engine.decide(MIXED, everyType());
    expect(JSON.stringify(decision.answers['c topic'])).toBe(JSON.stringify(alone.answers.topic));
    expect(JSON.stringify(decision.answers['d issues'])).toBe(JSON.stringify(alone.answers.issues));
  });

  test('an 8,000-character context is scored, and its usage counts its features', async () => {
    const sentence = 'Order 1182 was delivered late and the courier left it in the rain; ';
    const context = `${'The store sells shoes, bags and coats in many colours and sizes. '.repeat(100)}${sentence.repeat(100)}`.slice(0, 8000);
    expect([...context]).toHaveLength(8000);
    const questions = everyType();
    const decision = await engine.decide(context, questions);
    expectValidDecision(decision, questions);
    expect((decision.answers.topic as Schemas['ChoiceAnswer']).choice).toBe('shipping');
    const short = await engine.decide(context.slice(0, 200), questions);
    expect(decision.inputTokens).toBeGreaterThan(short.inputTokens);
  });

  test('usage is at least 1 even for contexts without words', async () => {
    for (const context of ['.', ' ', 'a', '😀', '']) {
      const decision = await engine.decide(context, { topic: TOPIC });
      expect(decision.inputTokens, JSON.stringify(context)).toBeGreaterThanOrEqual(1);
      expectValidDecision(decision, { topic: TOPIC });
    }
  });
});

describe('options', () => {
  test('abstainMargin decides when to abstain; the probabilities do not change', async () => {
    const strict = await createDecisionEngine({ abstainMargin: 1 });
    try {
      const normal = (await engine.decide(CHARGED_TWICE, { topic: TOPIC })).answers.topic as Schemas['ChoiceAnswer'];
      const cautious = (await strict.decide(CHARGED_TWICE, { topic: TOPIC })).answers.topic as Schemas['ChoiceAnswer'];
      expect(normal.abstain).toBe(false);
      expect(cautious.abstain).toBe(true);
      expect(cautious.choice).toBeNull();
      expect(cautious.probabilities).toEqual(normal.probabilities);
    } finally {
      await strict.close();
    }
  });

  test('a higher temperature flattens the probabilities', async () => {
    const warm = await createDecisionEngine({ temperature: 1 });
    try {
      const sharp = (await engine.decide(CHARGED_TWICE, { topic: TOPIC })).answers.topic as Schemas['ChoiceAnswer'];
      const flat = (await warm.decide(CHARGED_TWICE, { topic: TOPIC })).answers.topic as Schemas['ChoiceAnswer'];
      expect(flat.confidence).toBeLessThan(sharp.confidence / 4);
      expect(flat.probabilities.billing).toBeGreaterThan(flat.probabilities.shipping!);
    } finally {
      await warm.close();
    }
  });

  test('multiThreshold is applied and reported', async () => {
    const lenient = await createDecisionEngine({ multiThreshold: 0.1 });
    try {
      const issues = (await lenient.decide(MIXED, { q: { type: 'multi', options: { refund: null, damaged_item: null } } })).answers.q as Schemas['MultiAnswer'];
      expect(issues.threshold).toBe(0.1);
      expect(issues.selected).toEqual(['refund', 'damaged_item']);
    } finally {
      await lenient.close();
    }
  });

  test('out-of-range options are refused', async () => {
    await expect(createDecisionEngine({ temperature: 0 })).rejects.toThrow(RangeError);
    await expect(createDecisionEngine({ abstainMargin: 1.5 })).rejects.toThrow(/abstainMargin/);
    await expect(createDecisionEngine({ multiThreshold: Number.NaN })).rejects.toThrow(/multiThreshold/);
  });
});

describe('guards', () => {
  test('questions the server should have rejected throw a clear error', async () => {
    const cases: [unknown, RegExp][] = [
      [{ q: { type: 'choice', options: {} } }, /"q".*at least one option.*INVALID_OPTIONS/],
      [{ q: { type: 'multi', options: {} } }, /at least one option/],
      [{ q: { type: 'noul' } }, /"q": a noul question needs an instructions string/],
      [{ q: { type: 'score' } }, /score question needs an instructions string/],
      [{ q: { type: 'rank', options: { a: '' } } }, /unknown question type "rank"/],
      [{ q: { type: 'choice', options: { a: null } } }, /option "a" needs a description string/],
      [{}, /at least one question/],
    ];
    for (const [questions, message] of cases) {
      const attempt = engine.decide('Some context.', questions as Schemas['Questions']);
      await expect(attempt).rejects.toThrow(message);
    }
    await expect(engine.decide('x', { q: { type: 'noul' } })).rejects.toBeInstanceOf(UnscorableQuestionError);
  });

  test('a closed engine refuses to decide; closing twice is fine', async () => {
    const shortLived = await createDecisionEngine();
    const inFlight = shortLived.decide(CHARGED_TWICE, { topic: TOPIC });
    await Promise.all([shortLived.close(), shortLived.close()]);
    expect((await inFlight).answers.topic).toBeDefined();
    await expect(shortLived.decide(CHARGED_TWICE, { topic: TOPIC })).rejects.toThrow(/closed/);
  });
});

describe('probability arithmetic', () => {
  test('a rounded distribution adds up to exactly one million millionths', () => {
    const rounded = roundDistribution([1 / 3, 1 / 3, 1 / 3]);
    expect(rounded).toEqual([0.333334, 0.333333, 0.333333]);
    const skewed = roundDistribution(Float32Array.from([0.7000001, 0.2, 0.0999999]));
    expect(skewed.reduce((sum, p) => sum + Math.round(p * 1e6), 0)).toBe(1_000_000);
    expect(roundDistribution([2, 6])).toEqual([0.25, 0.75]);
    // Ties go by key, not position: the same options in another order round the same way.
    expect(roundDistribution([1 / 3, 1 / 3, 1 / 3], ['c', 'a', 'b'])).toEqual([0.333333, 0.333334, 0.333333]);
    expect(roundDistribution([1 / 3, 1 / 3, 1 / 3], ['a', 'b', 'c'])).toEqual([0.333334, 0.333333, 0.333333]);
  });

  test('rounding depends on no option order: every permutation of the same options rounds each option the same (PROP-OPTION-ORDER)', () => {
    // Near-uniform distributions of 8 options (probabilities about 0.125, as in the case the property
    // suite found), float32 like the model's outputs, some with options a whole number of millionths
    // apart (equal remainders, decided by the option ids), reordered by a fixed shuffle.
    let state = 11;
    const next = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let trial = 0; trial < 500; trial += 1) {
      const ids = Array.from({ length: 8 }, (_, i) => `option_${i}`);
      const fraction = next();
      const values = Float32Array.from(ids, () => (trial % 2 === 0 ? 0.125 + (next() - 0.5) * 1e-3 : (125_000 + Math.floor(next() * 20) + fraction) / 1e6));
      const order = ids.map((_, i) => i).sort(() => next() - 0.5);
      const asSent = roundDistribution(values, ids);
      const reordered = roundDistribution(
        order.map((i) => values[i]!),
        order.map((i) => ids[i]!),
      );
      expect(order.map((i) => asSent[i])).toEqual(reordered);
    }
  });

  test('topTwo takes the first of equal maxima and 0 as runner-up of a single entry', () => {
    expect(topTwo([0.4, 0.4, 0.2])).toEqual({ top: 0, margin: 0 });
    expect(topTwo([0.2, 0.5, 0.3])).toEqual({ top: 1, margin: 0.5 - 0.3 });
    expect(topTwo([1])).toEqual({ top: 0, margin: 1 });
  });

  test('invalid model outputs are errors, not answers', () => {
    expect(() => roundDistribution([Number.NaN, 1])).toThrow(/invalid probability/);
    expect(() => roundDistribution([0, 0])).toThrow(/sums to 0/);
    expect(roundProbability(0.99999999)).toBe(1);
  });
});

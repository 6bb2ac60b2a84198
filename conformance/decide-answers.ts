// Decide answers (seed 2.1, 2.4, 3, 9): one answer per question id, ids echoed byte for byte,
// choice probabilities, margin, abstention, usage and model; open points observed beside the
// reference choices.
import { currentModel, modelAliases, referenceChoice, schemaValidator } from '../spec/index.ts';
import {
  abstainBreach,
  canonical,
  choiceArgmaxBreach,
  choiceMarginBreach,
  choiceSumBreach,
  inputTokensBreach,
  objectKeys,
  outputTokenFields,
  probabilityRangeBreach,
  sameIdsBreach,
  showId,
  sortedProbabilities,
  TRICKY_IDS,
} from '../harness/answer-rules.ts';
import { choiceAnswerShapeBreach, failOn } from '../harness/answer-judgement.ts';
import { area, type Capability, type Check } from '../harness/check.ts';
import type { CheckContext } from '../harness/context.ts';
import { describeReply, expectErrorBody, expectSuccess, expectValidBody, isSuccess } from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';
import {
  BILLING_CONTEXT,
  choiceQuestion,
  choiceQuestions,
  choiceWithOptionIdsText,
  decideBody,
  decideJsonText,
  OTHER_TYPE_QUESTIONS,
  postDecideText,
  questionIds,
  replyOutcome,
  textPart,
} from '../harness/requests.ts';

/** Seed 2.6. */
const MODEL_NAMES = [currentModel, ...modelAliases];

const VAGUE_CONTEXTS = ['Hello.', 'ok', 'Please advise.', 'Thanks in advance.'];
const EIGHT_BLANK_OPTIONS = Object.fromEntries(Array.from({ length: 8 }, (_, index) => [`opt_${index + 1}`, '']));
const ALIKE_OPTIONS = { same_a: 'Same thing', same_b: 'Same thing', same_c: 'Same thing' };

/** Bodies likely to make a server abstain: vague contexts, many near-identical options. */
const abstentionBodies = VAGUE_CONTEXTS.map((context) => ({
  context,
  questions: { many: choiceQuestion({ ...EIGHT_BLANK_OPTIONS }), alike: choiceQuestion({ ...ALIKE_OPTIONS }), topic: choiceQuestion() },
}));
/** Clear and vague requests: the choice answers most checks look at. */
const probeBodies = [
  decideBody(),
  decideBody('My parcel never arrived and the tracking page shows no delivery since Monday.'),
  { context: BILLING_CONTEXT, questions: choiceQuestions(3) },
  ...abstentionBodies,
];

interface ChoiceSeen {
  where: string;
  optionIds: string[];
  answer: Record<string, any>;
}

async function decideOk(t: CheckContext, body: unknown): Promise<Reply> {
  const reply = await t.a.decide(body);
  expectSuccess(reply, 'for a valid decide body');
  return reply;
}

/** The choice answers to these bodies, with the option ids each question was sent. */
async function choiceAnswers(t: CheckContext, bodies: ReadonlyArray<{ questions: Record<string, unknown> }>): Promise<ChoiceSeen[]> {
  const seen: ChoiceSeen[] = [];
  for (const body of bodies) {
    const reply = await decideOk(t, body);
    for (const [questionId, question] of Object.entries(body.questions)) {
      const answer = reply.json?.answers?.[questionId];
      if (typeof answer !== 'object' || answer === null) continue; // judged by DECIDE-ONE-ANSWER-PER-QUESTION
      seen.push({ where: `/answers/${questionId}`, optionIds: Object.keys((question as { options: object }).options), answer });
    }
  }
  return seen;
}

/**
 * Sends all ids in one request and compares the keys that come back. Id formats are an open
 * point (id-format-and-count): when the request is refused with a 4xx, each id is sent alone
 * and those accepted must come back exactly.
 */
async function expectIdsEchoed(
  t: CheckContext,
  ids: readonly string[],
  buildText: (ids: readonly string[]) => string,
  keysOf: (json: any) => string[] | undefined,
  where: string,
): Promise<void> {
  const reply = await postDecideText(t.a, buildText(ids));
  if (reply.status < 400 || reply.status >= 500) {
    expectSuccess(reply, `for ${ids.length} ids such as ${ids.slice(0, 3).map(showId).join(', ')}`);
    failOn(sameIdsBreach(ids, keysOf(reply.json), where));
    return;
  }
  t.note(
    `The request with all ${ids.length} ids was refused (${describeReply(reply)}); id formats are an open point (id-format-and-count), so each id is sent alone.`,
  );
  for (const id of ids) {
    const alone = await postDecideText(t.a, buildText([id]));
    if (alone.status >= 400 && alone.status < 500) {
      t.note(`Id ${showId(id)} refused: ${describeReply(alone)}.`);
      continue;
    }
    expectSuccess(alone, `for id ${showId(id)}`);
    failOn(sameIdsBreach([id], keysOf(alone.json), where));
  }
}

/** One question of each other type, as the reference server reads them (score fields are an open point). */
const otherTypeQuestions = OTHER_TYPE_QUESTIONS;

function answerShapeCheck(type: keyof typeof otherTypeQuestions, schemaName: string): Omit<Check, 'area'> {
  return {
    id: `DECIDE-ANSWER-SHAPE-${type.toUpperCase()}`,
    level: 'OBSERVE',
    seedSections: ['2.3', '2.4'],
    openPoint: 'answer-shapes',
    title: `The shape of a ${type} answer, beside the reference ${schemaName}`,
    requires: { capabilities: [type] },
    async run(t) {
      const reply = await t.a.decide({ context: BILLING_CONTEXT, questions: { probe: otherTypeQuestions[type] } });
      if (!isSuccess(reply)) {
        t.observe({ summary: `the ${type} question was not answered: ${replyOutcome(reply)}`, matchesReference: false });
        return;
      }
      const result = schemaValidator(schemaName, 'reference')(reply.json?.answers?.probe);
      t.observe({
        summary: result.valid
          ? `the answer matches ${schemaName}: ${JSON.stringify(reply.json.answers.probe)}`
          : `the answer differs from ${schemaName}: ${result.issues
              .slice(0, 3)
              .map((issue) => issue.message)
              .join('; ')}`,
        matchesReference: result.valid,
      });
    },
  };
}

export const decideAnswerChecks: Check[] = area('decide-answers', [
  {
    id: 'DECIDE-SUCCESS-BODY-VALID',
    level: 'MUST',
    seedSections: ['2.4', '9'],
    bounds: ['id-format-and-count'],
    title: 'Decide success bodies validate against the contract, and each choice answer against ChoiceAnswer',
    async run(t) {
      const others = Object.entries(otherTypeQuestions).filter(([type]) => t.target.capabilities.has(type as Capability));
      const bodies = [
        decideBody(),
        { context: BILLING_CONTEXT, questions: choiceQuestions(16) },
        ...abstentionBodies.slice(0, 1),
        ...(others.length > 0 ? [{ context: BILLING_CONTEXT, questions: { topic: choiceQuestion(), ...Object.fromEntries(others) } }] : []),
      ];
      // How few options a choice question may have is open (id-format-and-count): a single
      // option's answer is judged when it is answered, and a refusal is held to the seed's bounds.
      const singleOption = { context: BILLING_CONTEXT, questions: { only: choiceQuestion({ billing: 'Payments' }) } };
      const expectValidAnswers = (reply: Reply, body: { questions: Record<string, unknown> }) => {
        expectSuccess(reply, 'for a valid decide body');
        expectValidBody(reply, 'decide');
        // The spec's Answer is an open point as a whole (answer-shapes), so contract mode does not
        // look inside answers; the choice answer is stated by the seed and is checked here.
        for (const [questionId, question] of Object.entries(body.questions)) {
          const answer = reply.json.answers?.[questionId];
          if ((question as { type: string }).type !== 'choice' || answer === undefined) continue;
          failOn(choiceAnswerShapeBreach(answer, `/answers/${questionId}`));
        }
      };
      for (const body of bodies) expectValidAnswers(await t.a.decide(body), body);
      const single = await t.a.decide(singleOption);
      if (single.status < 400 || single.status >= 500) expectValidAnswers(single, singleOption);
      else {
        expectErrorBody(single);
        t.note(`A choice question with a single option was refused (${describeReply(single)}); option counts are an open point (id-format-and-count).`);
      }
    },
  },
  {
    id: 'DECIDE-ONE-ANSWER-PER-QUESTION',
    level: 'MUST',
    seedSections: ['2.1', '2.4'],
    title: 'For 1 and for 16 questions, answers has exactly one entry per question id sent',
    async run(t) {
      for (const count of [1, 16]) {
        const reply = await decideOk(t, { context: BILLING_CONTEXT, questions: choiceQuestions(count) });
        failOn(sameIdsBreach(questionIds(count), objectKeys(reply.json?.answers), `answers for ${count} question${count === 1 ? '' : 's'}`));
      }
    },
  },
  {
    id: 'DECIDE-QUESTION-IDS-EXACT',
    level: 'MUST',
    seedSections: ['2.1', '2.4'],
    title: 'Question ids come back exactly as sent: look-alikes, __proto__, spaces, accents (NFC and NFD), emoji, ligatures',
    async run(t) {
      const build = (ids: readonly string[]) =>
        decideJsonText(
          BILLING_CONTEXT,
          ids.map((id) => [id, choiceQuestion()] as const),
        );
      await expectIdsEchoed(t, TRICKY_IDS, build, (json) => objectKeys(json?.answers), 'answers');
    },
  },
  {
    id: 'DECIDE-OPTION-IDS-EXACT',
    level: 'MUST',
    seedSections: ['2.1', '2.3', '2.4'],
    // Which ids a server accepts is open: a refused id is allowed, an id answered changed is not.
    bounds: ['id-format-and-count'],
    title: 'Option ids come back exactly as sent in probabilities: look-alikes, __proto__, spaces, accents, emoji, ligatures',
    async run(t) {
      const build = (ids: readonly string[]) => choiceWithOptionIdsText(BILLING_CONTEXT, ids);
      await expectIdsEchoed(t, TRICKY_IDS, build, (json) => objectKeys(json?.answers?.topic?.probabilities), '/answers/topic/probabilities');
    },
  },
  {
    id: 'DECIDE-CHOICE-ANSWER-TYPE',
    level: 'MUST',
    seedSections: ['2.4'],
    title: 'The answer to a choice question has type "choice"',
    async run(t) {
      for (const { where, answer } of await choiceAnswers(t, probeBodies.slice(0, 3))) {
        if (answer.type !== 'choice') t.fail(`${where}/type "choice"`, JSON.stringify(answer.type));
      }
    },
  },
  {
    id: 'DECIDE-PROBABILITIES-PER-OPTION',
    level: 'MUST',
    seedSections: ['2.4'],
    title: 'Choice probabilities have one entry per option sent, and no other',
    async run(t) {
      for (const { where, optionIds, answer } of await choiceAnswers(t, probeBodies)) {
        failOn(sameIdsBreach(optionIds, objectKeys(answer.probabilities), `${where}/probabilities`));
      }
    },
  },
  {
    id: 'DECIDE-PROBABILITY-RANGE',
    level: 'MUST',
    seedSections: ['2.4'],
    title: 'Every choice probability is a number from 0 to 1',
    async run(t) {
      for (const { where, answer } of await choiceAnswers(t, probeBodies)) failOn(probabilityRangeBreach(answer, where));
    },
  },
  {
    id: 'DECIDE-CHOICE-ARGMAX',
    level: 'MUST',
    seedSections: ['2.4'],
    title: 'A non-null choice is an option id with the highest probability',
    async run(t) {
      let judged = 0;
      for (const { where, answer } of await choiceAnswers(t, probeBodies)) {
        if (answer.choice === null || !sortedProbabilities(answer)) continue;
        judged += 1;
        failOn(choiceArgmaxBreach(answer, where));
      }
      if (judged === 0) t.note('Every choice was null: no selected option to judge.');
    },
  },
  {
    id: 'DECIDE-CHOICE-MARGIN',
    level: 'MUST',
    seedSections: ['2.4'],
    title: 'confidence equals the top-1 minus the top-2 probability (within 1e-9), computed from the returned probabilities',
    async run(t) {
      // Single options are not judged here: DECIDE-SINGLE-OPTION-MARGIN.
      for (const { where, answer } of await choiceAnswers(t, probeBodies)) failOn(choiceMarginBreach(answer, where));
    },
  },
  {
    id: 'DECIDE-SINGLE-OPTION-MARGIN',
    level: 'OBSERVE',
    seedSections: ['2.4'],
    openPoint: 'choice-probabilities-sum',
    title: 'The probability and confidence of a choice question with a single option',
    async run(t) {
      const reply = await decideOk(t, { context: BILLING_CONTEXT, questions: { only: choiceQuestion({ billing: 'Payments, refunds and invoices' }) } });
      const answer = reply.json?.answers?.only ?? {};
      const p = answer.probabilities?.billing;
      t.observe({
        summary: `probability ${JSON.stringify(p)}, confidence ${JSON.stringify(answer.confidence)}, choice ${JSON.stringify(answer.choice)}`,
        matchesReference: p === 1 && answer.confidence === 1,
      });
    },
  },
  {
    id: 'DECIDE-ABSTAIN-IMPLIES-NULL',
    level: 'MUST',
    seedSections: ['2.4', '3'],
    title: 'When abstain is true, choice is null and probabilities remain, one per option (vague contexts, near-identical options)',
    async run(t) {
      let abstained = 0;
      for (const { where, optionIds, answer } of await choiceAnswers(t, abstentionBodies)) {
        if (answer.abstain !== true) continue;
        abstained += 1;
        failOn(abstainBreach(answer, where));
        failOn(sameIdsBreach(optionIds, objectKeys(answer.probabilities), `${where}/probabilities when abstain is true`));
      }
      if (abstained === 0) t.note('No answer abstained in this run; the rule could not be seen at work.');
    },
  },
  {
    id: 'DECIDE-ABSTENTION-STATUS-STRING',
    level: 'MUST',
    seedSections: ['2.4'],
    title: 'Every choice answer, confident or abstained, has a string abstention_status',
    async run(t) {
      for (const { where, answer } of await choiceAnswers(t, probeBodies)) {
        if (typeof answer.abstention_status !== 'string') t.fail(`${where}/abstention_status a string`, JSON.stringify(answer.abstention_status));
      }
    },
  },
  {
    id: 'DECIDE-ABSTENTION-STATUS-ADVISORY',
    level: 'SHOULD',
    seedSections: ['2.4'],
    title: 'abstention_status is "advisory", the only value the seed shows',
    async run(t) {
      for (const { where, answer } of await choiceAnswers(t, probeBodies.slice(0, 1))) {
        if (answer.abstention_status !== 'advisory') t.fail(`${where}/abstention_status "advisory"`, JSON.stringify(answer.abstention_status));
      }
    },
  },
  {
    id: 'DECIDE-ABSTENTION-STATUS-VALUES',
    level: 'OBSERVE',
    seedSections: ['2.4'],
    openPoint: 'abstention-status-values',
    title: 'The abstention_status values seen on confident and abstained answers',
    async run(t) {
      const counts = new Map<string, number>();
      const values = new Set<unknown>();
      for (const { answer } of await choiceAnswers(t, probeBodies)) {
        values.add(answer.abstention_status);
        const label = `${JSON.stringify(answer.abstention_status)}${answer.abstain === true ? ' (abstained)' : ''}`;
        counts.set(label, (counts.get(label) ?? 0) + 1);
      }
      const allowed: unknown[] = referenceChoice<string[]>('abstention-status-values', 'values');
      t.observe({
        summary: [...counts].map(([label, count]) => `${label} × ${count}`).join(', ') || 'no choice answers',
        matchesReference: values.size > 0 && [...values].every((value) => allowed.includes(value)),
      });
    },
  },
  {
    id: 'DECIDE-USAGE-INPUT-TOKENS',
    level: 'MUST',
    seedSections: ['1', '2.4'],
    title: 'usage.input_tokens is an integer of at least 0',
    async run(t) {
      for (const body of probeBodies.slice(0, 3)) {
        failOn(inputTokensBreach((await decideOk(t, body)).json));
      }
    },
  },
  {
    id: 'DECIDE-USAGE-NO-OUTPUT-TOKENS',
    level: 'MUST',
    seedSections: ['1', '2.4'],
    title: 'No output-token field: nothing like output_tokens or completion_tokens in usage or at the top level',
    async run(t) {
      const reply = await decideOk(t, decideBody());
      const offending = outputTokenFields(reply.json);
      if (offending.length > 0) t.fail('usage reported as input_tokens only (seed 1: no output tokens)', offending.join(', '));
    },
  },
  {
    id: 'DECIDE-MODEL-STRING',
    level: 'MUST',
    seedSections: ['2.4'],
    title: 'model is a non-empty string',
    async run(t) {
      const model = (await decideOk(t, decideBody())).json?.model;
      if (typeof model !== 'string' || model.length === 0) t.fail('model, the name of the model that answered', JSON.stringify(model));
    },
  },
  {
    id: 'DECIDE-MODEL-KNOWN',
    level: 'SHOULD',
    seedSections: ['2.4', '2.6'],
    title: `model is one of the names of seed 2.6 (${MODEL_NAMES.join(', ')})`,
    async run(t) {
      const model = (await decideOk(t, decideBody())).json?.model;
      if (!MODEL_NAMES.includes(model)) t.fail(`model one of ${MODEL_NAMES.join(', ')}`, JSON.stringify(model));
    },
  },
  {
    id: 'DECIDE-CHOICE-SUM',
    level: 'SHOULD',
    seedSections: ['2.4'],
    title: 'The probabilities of a choice answer add up to 1 (within 1e-6)',
    async run(t) {
      for (const { where, answer } of await choiceAnswers(t, probeBodies)) failOn(choiceSumBreach(answer, where));
    },
  },
  {
    id: 'DECIDE-DETERMINISTIC',
    level: 'SHOULD',
    seedSections: ['2.4'],
    title: 'The same request sent twice gets the same answers',
    // Compares the answers of two requests: a server's other work (a batch it shares) must not be what differs.
    exclusive: true,
    async run(t) {
      for (const body of [decideBody(), abstentionBodies[0]!]) {
        const first = (await decideOk(t, body)).json?.answers;
        const second = (await decideOk(t, body)).json?.answers;
        if (canonical(first) !== canonical(second))
          t.fail('the same answers twice', `${canonical(first).slice(0, 200)} then ${canonical(second).slice(0, 200)}`);
      }
    },
  },
  {
    id: 'DECIDE-PART-ID-ONLY-IN-ERRORS',
    level: 'MUST',
    seedSections: ['2.2'],
    title: 'Part ids are echoed only in errors: a success body does not contain them',
    requires: { capabilities: ['multimodal'] },
    async run(t) {
      const partId = `part-label-${Date.now().toString(36)}`;
      const reply = await decideOk(t, decideBody([textPart(BILLING_CONTEXT, partId)]));
      if (reply.text.includes(partId)) t.fail(`a success body without the part id ${JSON.stringify(partId)}`, 'the id in the body');
    },
  },
  {
    id: 'DECIDE-SUCCESS-STATUS',
    level: 'OBSERVE',
    seedSections: ['4.1'],
    openPoint: 'decide-success-status',
    title: 'The status of a successful decide',
    async run(t) {
      const reply = await t.a.decide(decideBody());
      t.observe({ summary: replyOutcome(reply), matchesReference: reply.status === referenceChoice<number>('decide-success-status', 'status') });
    },
  },
  answerShapeCheck('noul', 'NoulAnswer'),
  answerShapeCheck('multi', 'MultiAnswer'),
  answerShapeCheck('score', 'ScoreAnswer'),
]);

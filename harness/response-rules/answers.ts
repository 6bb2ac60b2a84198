// Seeds 1, 2.1, 2.4 and 3: every answer to a decide that succeeded keeps the answer rules of
// harness/answer-rules.ts, judged against the questions that request really sent. Only choice
// answers have rules beyond their ids: the other answer shapes are open point answer-shapes.
import {
  abstainBreach,
  choiceArgmaxBreach,
  choiceMarginBreach,
  choiceSumBreach,
  inputTokensBreach,
  objectKeys,
  outputTokenFields,
  probabilityRangeBreach,
  sameIdsBreach,
  showId,
  type RuleBreach,
} from '../answer-rules.ts';
import { schemaValidator } from '../../spec/index.ts';
import type { JudgedExchange } from './exchange.ts';
import { isSuccess, type ResponseRule, type ResponseRuleMeta } from './rule.ts';

type Question = { type?: unknown; options?: unknown };
type Body = { questions?: Record<string, Question> };

/** A decide that succeeded, with the questions its request sent as an object (what the rules judge against). */
function isAnsweredDecide(exchange: JudgedExchange): boolean {
  return (
    exchange.operationId === 'decide' &&
    isSuccess(exchange) &&
    objectKeys((exchange.requestJson as Body | undefined)?.questions) !== undefined &&
    objectKeys(exchange.responseJson) !== undefined
  );
}

const questionsOf = (exchange: JudgedExchange) => (exchange.requestJson as Body).questions as Record<string, Question>;
const body = (exchange: JudgedExchange) => exchange.responseJson as Record<string, any>;

/** The choice questions sent whose answer is an object, each with where its answer is. */
function choiceAnswers(exchange: JudgedExchange): Array<{ where: string; optionIds: string[]; answer: Record<string, any> }> {
  const answers = objectKeys(body(exchange).answers) ? body(exchange).answers : {};
  return Object.entries(questionsOf(exchange)).flatMap(([id, question]) => {
    const answer = Object.hasOwn(answers, id) ? answers[id] : undefined;
    const optionIds = objectKeys(question?.options);
    if (question?.type !== 'choice' || !optionIds || objectKeys(answer) === undefined) return [];
    return [{ where: `/answers/${showId(id)}`, optionIds, answer }];
  });
}

const hasChoiceAnswer = (exchange: JudgedExchange) => isAnsweredDecide(exchange) && choiceAnswers(exchange).length > 0;

/** A rule on every choice answer of a decide; its first breach among them. */
function choiceRule(meta: ResponseRuleMeta, breach: (answer: Record<string, any>, where: string, optionIds: string[]) => RuleBreach | undefined): ResponseRule {
  return {
    ...meta,
    applies: hasChoiceAnswer,
    judge(exchange) {
      for (const { where, optionIds, answer } of choiceAnswers(exchange)) {
        const found = breach(answer, where, optionIds);
        if (found) return found;
      }
      return undefined;
    },
  };
}

const choiceAnswerShape = schemaValidator('ChoiceAnswer', 'contract');

/** Seed 2.4: a choice answer meets the ChoiceAnswer schema (type, choice, confidence, probabilities, abstain, abstention_status). */
export function choiceAnswerShapeBreach(answer: unknown, where: string): RuleBreach | undefined {
  const result = choiceAnswerShape(answer);
  return result.valid
    ? undefined
    : {
        expected: `${where} meeting the ChoiceAnswer schema (seed 2.4)`,
        observed: result.issues
          .slice(0, 5)
          .map((issue) => issue.message)
          .join('; '),
      };
}

const CHOICE_ANSWERS = 'every choice answer of a decide that succeeded, against the options its request sent';
const DECIDES = 'every decide that succeeded, against the questions its request sent';

export const answerRules: ResponseRule[] = [
  {
    id: 'answer-ids',
    level: 'MUST',
    seedSections: ['2.1', '2.4'],
    title: 'one answer per question id sent, ids exactly as sent',
    appliesTo: DECIDES,
    applies: isAnsweredDecide,
    judge: (exchange) => sameIdsBreach(Object.keys(questionsOf(exchange)), objectKeys(body(exchange).answers), '/answers'),
  },
  // The spec's Answer is an open point as a whole (answer-shapes), so the contract form does not
  // look inside answers: the choice answer is stated by the seed and judged here.
  choiceRule(
    {
      id: 'choice-answer-shape',
      level: 'MUST',
      seedSections: ['2.4'],
      title: 'every choice answer has type, choice, confidence, probabilities, abstain and abstention_status as the seed states',
      appliesTo: CHOICE_ANSWERS,
    },
    choiceAnswerShapeBreach,
  ),
  choiceRule(
    {
      id: 'option-ids',
      level: 'MUST',
      seedSections: ['2.1', '2.4'],
      title: 'choice probabilities keyed by exactly the option ids sent',
      appliesTo: CHOICE_ANSWERS,
    },
    (answer, where, optionIds) => sameIdsBreach(optionIds, objectKeys(answer.probabilities), `${where}/probabilities`),
  ),
  choiceRule(
    { id: 'probability-range', level: 'MUST', seedSections: ['2.4'], title: 'every choice probability a number from 0 to 1', appliesTo: CHOICE_ANSWERS },
    probabilityRangeBreach,
  ),
  choiceRule(
    { id: 'choice-argmax', level: 'MUST', seedSections: ['2.4'], title: 'a non-null choice is an option with the top probability', appliesTo: CHOICE_ANSWERS },
    choiceArgmaxBreach,
  ),
  choiceRule(
    { id: 'choice-margin', level: 'MUST', seedSections: ['2.4'], title: 'confidence is the top-1 minus the top-2 probability', appliesTo: CHOICE_ANSWERS },
    choiceMarginBreach,
  ),
  choiceRule(
    { id: 'abstain-choice-null', level: 'MUST', seedSections: ['2.4', '3'], title: 'choice is null when abstain is true', appliesTo: CHOICE_ANSWERS },
    abstainBreach,
  ),
  choiceRule(
    {
      id: 'probability-sum',
      level: 'OBSERVE',
      seedSections: ['2.4'],
      title: 'whether the choice probabilities add up to 1',
      appliesTo: CHOICE_ANSWERS,
      openPoint: 'choice-probabilities-sum',
    },
    choiceSumBreach,
  ),
  {
    id: 'input-tokens',
    level: 'MUST',
    seedSections: ['1', '2.4'],
    title: 'usage.input_tokens an integer of at least 0',
    appliesTo: DECIDES,
    applies: isAnsweredDecide,
    judge: (exchange) => inputTokensBreach(body(exchange)),
  },
  {
    id: 'no-output-tokens',
    level: 'MUST',
    seedSections: ['1', '2.4'],
    title: 'usage reported as input tokens only: no output-token field',
    appliesTo: DECIDES,
    applies: isAnsweredDecide,
    judge(exchange) {
      const fields = outputTokenFields(body(exchange));
      return fields.length === 0 ? undefined : { expected: 'usage reported as input_tokens only (seed 1: no output tokens)', observed: fields.join(', ') };
    },
  },
];

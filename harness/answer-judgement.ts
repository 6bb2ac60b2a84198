// Everything the answer to a valid decide must be, judged at once: a success, with a request id,
// a body that meets the contract, one answer per question id sent, and each choice answer keeping
// every rule of answer-rules.ts. The checks that look at one rule each (decide-answers) use the
// rules one by one; a check that judges many answers at once (concurrency) uses this.
import { schemaValidator } from '../spec/index.ts';
import {
  abstainBreach,
  choiceArgmaxBreach,
  choiceMarginBreach,
  inputTokensBreach,
  objectKeys,
  outputTokenFields,
  probabilityRangeBreach,
  sameIdsBreach,
  showId,
  type RuleBreach,
} from './answer-rules.ts';
import { CheckFailure } from './check.ts';
import { expectRequestIdHeader, expectSuccess, expectValidBody } from './expect.ts';
import type { Reply } from './http.ts';

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

/** A question as sent: its id, its type, and for choice questions the option ids. */
export interface SentQuestion {
  id: string;
  type: string;
  optionIds?: readonly string[];
}

/** The questions of a decide body built as an object (requests.ts). */
export function sentQuestions(body: { questions: Record<string, unknown> }): SentQuestion[] {
  return Object.entries(body.questions).map(([id, question]) => {
    const { type, options } = question as { type: string; options?: object };
    return { id, type, ...(type === 'choice' && options ? { optionIds: Object.keys(options) } : {}) };
  });
}

/** Throws a rule's breach, if there is one, as the CheckFailure a check or a property reports. */
export function failOn(breach: RuleBreach | undefined): void {
  if (breach) throw new CheckFailure(breach.expected, breach.observed);
}

/** Seed 1, 2.1, 2.4 and 2.7: the reply to a valid decide of these questions, judged whole; throws CheckFailure. */
export function expectAnswered(reply: Reply, questions: readonly SentQuestion[]): void {
  expectSuccess(reply, 'for a valid decide body');
  expectRequestIdHeader(reply);
  expectValidBody(reply, 'decide');
  failOn(
    sameIdsBreach(
      questions.map(({ id }) => id),
      objectKeys(reply.json.answers),
      'answers',
    ),
  );
  for (const { id, type, optionIds } of questions) {
    if (type !== 'choice' || !optionIds) continue; // other answer shapes are an open point (answer-shapes)
    const where = `/answers/${showId(id)}`;
    const answer = reply.json.answers[id];
    failOn(choiceAnswerShapeBreach(answer, where));
    failOn(sameIdsBreach(optionIds, objectKeys(answer.probabilities), `${where}/probabilities`));
    failOn(probabilityRangeBreach(answer, where));
    failOn(abstainBreach(answer, where));
    failOn(choiceArgmaxBreach(answer, where));
    failOn(choiceMarginBreach(answer, where));
  }
  failOn(inputTokensBreach(reply.json));
  const outputFields = outputTokenFields(reply.json);
  if (outputFields.length > 0) throw new CheckFailure('usage reported as input_tokens only (seed 1: no output tokens)', outputFields.join(', '));
}

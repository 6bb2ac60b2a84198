// Everything the answer to a valid decide must be, judged at once: a success, then every response
// rule of the catalogue on answers (harness/response-rules/: the request id, the contract form,
// one answer per question id sent, and each choice answer keeping every rule of answer-rules.ts).
// A check that judges many answers at once (concurrency, the property suite) throws the first
// breach as its own failure; the checks that look at one rule each (decide-answers) use the rules
// one by one.
import { CheckFailure } from './check.ts';
import { expectSuccess } from './expect.ts';
import type { Reply } from './http.ts';
import type { RuleBreach } from './answer-rules.ts';
import { answerRules } from './response-rules/answers.ts';
import { responseRule } from './response-rules/catalogue.ts';
import type { JudgedExchange } from './response-rules/exchange.ts';

export { choiceAnswerShapeBreach } from './response-rules/answers.ts';

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

/** The MUST rules of the catalogue that judge an answered decide, in catalogue order. */
const ANSWERED_DECIDE_RULES = [responseRule('request-id'), responseRule('contract-body'), ...answerRules].filter((rule) => rule.level === 'MUST');

/** The reply to a decide of these questions, as the response rules see it. */
function answeredDecide(reply: Reply, questions: readonly SentQuestion[]): JudgedExchange {
  const sent = Object.fromEntries(
    questions.map(({ id, type, optionIds }) => [id, { type, ...(optionIds ? { options: Object.fromEntries(optionIds.map((option) => [option, ''])) } : {}) }]),
  );
  return {
    method: 'POST',
    path: '/v1/decide',
    operationId: 'decide',
    credential: 'valid',
    requestHeaders: {},
    requestJson: { questions: sent },
    status: reply.status,
    responseHeaders: reply.headers,
    responseText: reply.text,
    responseJson: reply.json,
  };
}

/** Seed 1, 2.1, 2.4 and 2.7: the reply to a valid decide of these questions, judged whole; throws CheckFailure. */
export function expectAnswered(reply: Reply, questions: readonly SentQuestion[]): void {
  expectSuccess(reply, 'for a valid decide body');
  const exchange = answeredDecide(reply, questions);
  for (const rule of ANSWERED_DECIDE_RULES) if (rule.applies(exchange)) failOn(rule.judge(exchange));
}

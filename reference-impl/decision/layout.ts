// Lays the questions of one request out as rows of probe cells: one row per question, one cell
// per thing the context is compared with. Each cell has a probe text, the polarity its words are
// read with, and an offset subtracted from its similarity (model.ts).
//
// choice  one cell per option: "<option id> <description>". Softmax over the row.
// multi   one cell per option: the option id, offset MULTI_MENTION_SIMILARITY. Sigmoid per cell.
//         The optional instructions are not part of any probe: they are the same for every
//         option, so a lexical model could only add the same overlap to each of them.
// noul    three cells, yes / no / unknown, softmax over the row:
//           yes      the instructions as written;
//           no       the instructions with every word's negation flipped: "does the customer ask
//                    for a refund" then matches "I did not ask for a refund" word for word, while
//                    "yes" only shares character grams with it (features.ts);
//           unknown  no probe (similarity 0) with offset -NOUL_UNKNOWN_SIMILARITY, i.e. a fixed
//                    logit: "yes" or "no" win only when the context is at least that close to
//                    the instructions, so an unrelated context answers "unknown".
// score   one cell: the instructions, offset SCORE_MIDPOINT_SIMILARITY; the score is the cell's
//         sigmoid: 0.5 at that similarity, towards 1 as the context comes closer to what the
//         instructions describe, towards 0 as it has nothing in common with it.
import type { Schemas } from '../../spec/index.ts';
import { MULTI_MENTION_SIMILARITY, NOUL_UNKNOWN_SIMILARITY, SCORE_MIDPOINT_SIMILARITY } from './calibration.ts';
import type { Polarity } from './features.ts';

export interface ProbeCell {
  readonly text: string;
  readonly polarity: Polarity;
  readonly offset: number;
}

export const NOUL_VERDICTS = ['yes', 'no', 'unknown'] as const;
export type NoulVerdict = (typeof NOUL_VERDICTS)[number];

export type QuestionRow =
  | { readonly kind: 'choice'; readonly questionId: string; readonly optionIds: readonly string[]; readonly cells: readonly ProbeCell[] }
  | { readonly kind: 'multi'; readonly questionId: string; readonly optionIds: readonly string[]; readonly cells: readonly ProbeCell[] }
  | { readonly kind: 'noul'; readonly questionId: string; readonly cells: readonly ProbeCell[] }
  | { readonly kind: 'score'; readonly questionId: string; readonly cells: readonly ProbeCell[] };

/** Why a question cannot be scored; the server rejects these before they reach the engine. */
export class UnscorableQuestionError extends Error {
  constructor(
    readonly questionId: string,
    reason: string,
  ) {
    super(`Question ${JSON.stringify(questionId)}: ${reason}`);
    this.name = 'UnscorableQuestionError';
  }
}

/** An own property's value: ids such as "__proto__" or "constructor" are keys like any other. */
function ownValue(record: object, key: string): unknown {
  return Object.getOwnPropertyDescriptor(record, key)?.value;
}

/** Own option ids in the order the request's options object lists them. */
function optionIdsOf(questionId: string, options: unknown): string[] {
  if (typeof options !== 'object' || options === null) throw new UnscorableQuestionError(questionId, 'options must be an object');
  const ids = Object.keys(options);
  if (ids.length === 0) throw new UnscorableQuestionError(questionId, 'a question with options needs at least one option (INVALID_OPTIONS)');
  return ids;
}

function instructionsOf(questionId: string, type: string, instructions: unknown): string {
  if (typeof instructions !== 'string') throw new UnscorableQuestionError(questionId, `a ${type} question needs an instructions string`);
  return instructions;
}

function rowFor(questionId: string, question: Schemas['Question']): QuestionRow {
  switch (question.type) {
    case 'choice': {
      const optionIds = optionIdsOf(questionId, question.options);
      const cells = optionIds.map((id): ProbeCell => {
        const description = ownValue(question.options, id);
        if (typeof description !== 'string') throw new UnscorableQuestionError(questionId, `option ${JSON.stringify(id)} needs a description string`);
        return { text: `${id} ${description}`, polarity: 'as-written', offset: 0 };
      });
      return { kind: 'choice', questionId, optionIds, cells };
    }
    case 'multi': {
      const optionIds = optionIdsOf(questionId, question.options);
      const cells = optionIds.map((id): ProbeCell => ({ text: id, polarity: 'as-written', offset: MULTI_MENTION_SIMILARITY }));
      return { kind: 'multi', questionId, optionIds, cells };
    }
    case 'noul': {
      const instructions = instructionsOf(questionId, 'noul', question.instructions);
      const cells: ProbeCell[] = [
        { text: instructions, polarity: 'as-written', offset: 0 },
        { text: instructions, polarity: 'flipped', offset: 0 },
        { text: '', polarity: 'as-written', offset: -NOUL_UNKNOWN_SIMILARITY },
      ];
      return { kind: 'noul', questionId, cells };
    }
    case 'score': {
      const instructions = instructionsOf(questionId, 'score', question.instructions);
      return { kind: 'score', questionId, cells: [{ text: instructions, polarity: 'as-written', offset: SCORE_MIDPOINT_SIMILARITY }] };
    }
    default: {
      const type = (question as { type?: unknown }).type;
      throw new UnscorableQuestionError(questionId, `unknown question type ${JSON.stringify(type)}`);
    }
  }
}

/** One row per question, in the order of the questions object. */
export function layoutQuestions(questions: Schemas['Questions']): QuestionRow[] {
  if (typeof questions !== 'object' || questions === null) throw new TypeError('questions must be an object of question id to question');
  const questionIds = Object.keys(questions);
  if (questionIds.length === 0) throw new TypeError('A decision needs at least one question');
  return questionIds.map((questionId) => {
    const question = ownValue(questions, questionId) as Schemas['Question'] | undefined;
    if (typeof question !== 'object' || question === null) throw new UnscorableQuestionError(questionId, 'the question must be an object');
    return rowFor(questionId, question);
  });
}

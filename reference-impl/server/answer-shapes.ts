// The compact noul, multi and score answers of open point answer-shapes, made from the scorer's
// full ones (the spec's NoulAnswer, MultiAnswer, ScoreAnswer). Choice answers keep the fields of
// seed 2.4 in every profile.
import type { Schemas } from '../../spec/index.ts';

type Answers = Schemas['DecideResponse']['answers'];
type Answer = Answers[string];

function compactAnswer(answer: Answer): Record<string, unknown> {
  switch (answer.type) {
    case 'noul': {
      const noul = answer as Schemas['NoulAnswer'];
      return { type: 'noul', value: noul.verdict ?? 'unknown', confidence: noul.confidence };
    }
    case 'multi':
      return { type: 'multi', choices: (answer as Schemas['MultiAnswer']).selected };
    case 'score':
      // [0, 1] with 6 decimals becomes 0 to 100 with 4.
      return { type: 'score', score: Number(((answer as Schemas['ScoreAnswer']).score * 100).toFixed(4)) };
    default:
      return answer as Record<string, unknown>;
  }
}

/** The answers in the profile's shapes; keeps the scorer's prototype-free record of caller ids. */
export function shapeAnswers(answers: Answers, shapes: 'full' | 'compact'): Answers {
  if (shapes === 'full') return answers;
  for (const id of Object.keys(answers)) answers[id] = compactAnswer(answers[id]!) as Answer;
  return answers;
}

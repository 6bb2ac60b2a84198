// The profile's choices on abstention (open points abstention-threshold and
// abstention-status-values), applied to the choice answers the scorer built with the reference
// rules. The seed still holds either way: an abstaining answer has choice null and keeps its
// probabilities, and media contexts stay advisory (seed 2.4, 3 rule 4).
import type { Schemas } from '../../spec/index.ts';
import { topTwo } from '../decision/probabilities.ts';
import type { ServerProfile } from './profile.ts';

type Answers = Schemas['DecideResponse']['answers'];

export function applyAbstentionChoices(
  answers: Answers,
  questions: Schemas['DecideRequest']['questions'],
  textOnly: boolean,
  profile: Pick<ServerProfile, 'minTopProbability' | 'textOnlyAbstentionStatus'>,
): Answers {
  for (const [questionId, question] of Object.entries(questions)) {
    const answer = answers[questionId] as Schemas['ChoiceAnswer'] | undefined;
    if (question.type !== 'choice' || answer?.type !== 'choice') continue;
    if (textOnly) answer.abstention_status = profile.textOnlyAbstentionStatus as Schemas['ChoiceAnswer']['abstention_status'];
    if (profile.minTopProbability === null) continue;
    // The scorer's own order of the options, so that a tie goes to the option it would pick.
    const optionIds = Object.keys(question.options);
    const { top } = topTwo(optionIds.map((id) => answer.probabilities[id]!));
    answer.abstain = answer.probabilities[optionIds[top]!]! < profile.minTopProbability;
    answer.choice = answer.abstain ? null : optionIds[top]!;
  }
  return answers;
}

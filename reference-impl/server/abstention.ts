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

/**
 * Open point audio-without-transcript: a context whose only content is audio, read without a
 * transcript (acoustic features only), gives no ground for a choice or a verdict. Every choice
 * and noul answer abstains: choice or verdict null, probabilities kept (seed 3 rule 4), status
 * `advisory` as for any media input (seed 2.4). multi and score answers have no abstention in
 * their shapes (open point answer-shapes) and are left as scored.
 */
export function abstainWithoutReadableContent(answers: Answers): Answers {
  for (const answer of Object.values(answers)) {
    if (answer.type === 'choice') {
      const choice = answer as Schemas['ChoiceAnswer'];
      choice.abstain = true;
      choice.choice = null;
    } else if (answer.type === 'noul') {
      const noul = answer as Schemas['NoulAnswer'];
      noul.abstain = true;
      noul.verdict = null;
    }
  }
  return answers;
}

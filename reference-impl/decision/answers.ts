// Builds each question's answer from its row of the model's outputs, in the spec's reference
// shapes (ChoiceAnswer, NoulAnswer, MultiAnswer, ScoreAnswer in spec/openapi.yaml).
import type { Schemas } from '../../spec/index.ts';
import { NOUL_VERDICTS } from './layout.ts';
import { roundDistribution, roundProbability, topTwo } from './probabilities.ts';

/** Shown in the seed as the only value; the reference server always uses it. */
export const ABSTENTION_STATUS = 'advisory';
/** What a score measures (ScoreAnswer.basis). */
export const SCORE_BASIS = 'instructions_similarity';

/**
 * A record keyed by caller-chosen ids. It has no prototype, so ids such as "__proto__" or
 * "constructor" become own keys (and survive JSON.stringify) instead of touching Object.prototype.
 */
export function idRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

export function choiceAnswer(optionIds: readonly string[], rowProbabilities: ArrayLike<number>, abstainMargin: number): Schemas['ChoiceAnswer'] {
  const rounded = roundDistribution(
    Array.from({ length: optionIds.length }, (_, i) => rowProbabilities[i]!),
    optionIds,
  );
  const probabilities = idRecord<number>();
  optionIds.forEach((id, index) => {
    probabilities[id] = rounded[index]!;
  });
  const { top, margin } = topTwo(rounded);
  const abstain = margin < abstainMargin;
  return {
    type: 'choice',
    choice: abstain ? null : optionIds[top]!,
    confidence: margin,
    probabilities,
    abstain,
    abstention_status: ABSTENTION_STATUS,
  };
}

export function noulAnswer(rowProbabilities: ArrayLike<number>, abstainMargin: number): Schemas['NoulAnswer'] {
  const [yes, no, unknown] = roundDistribution(Array.from(NOUL_VERDICTS, (_, i) => rowProbabilities[i]!)) as [number, number, number];
  const { top, margin } = topTwo([yes, no, unknown]);
  const abstain = margin < abstainMargin;
  return {
    type: 'noul',
    verdict: abstain ? null : NOUL_VERDICTS[top]!,
    confidence: margin,
    probabilities: { yes, no, unknown },
    abstain,
    abstention_status: ABSTENTION_STATUS,
  };
}

export function multiAnswer(optionIds: readonly string[], cellProbabilities: ArrayLike<number>, threshold: number): Schemas['MultiAnswer'] {
  const probabilities = idRecord<number>();
  const selected: string[] = [];
  optionIds.forEach((id, index) => {
    const p = roundProbability(cellProbabilities[index]!);
    probabilities[id] = p;
    // Judged on the rounded value the caller sees, so `selected` always agrees with it.
    if (p >= threshold) selected.push(id);
  });
  return { type: 'multi', selected, probabilities, threshold };
}

export function scoreAnswer(cellProbability: number): Schemas['ScoreAnswer'] {
  return { type: 'score', score: roundProbability(cellProbability), basis: SCORE_BASIS };
}

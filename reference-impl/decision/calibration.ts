// The engine's tunable numbers: the three a caller may set (DecisionEngineOptions) and the fixed
// similarity offsets of the noul, multi and score methods (layout.ts), with why each value.
//
// Cosine similarities of hashed lexical features run small: a short option that the context
// mentions outright scores about 0.1 to 0.3 against a few hundred characters of context, an
// unrelated one 0 to 0.05 (shared common character grams). The defaults below were read off
// such cases (reference-impl/test/decision-scoring.test.ts holds them).

export interface DecisionEngineOptions {
  /** Abstain when top-1 minus top-2 probability is below this (choice and noul). Default 0.1. */
  abstainMargin?: number;
  /** A multi option is selected at or above this probability. Default 0.5. */
  multiThreshold?: number;
  /** Softmax and sigmoid temperature over cosine similarities: logits = similarity / temperature. Default 0.04. */
  temperature?: number;
}

export interface Calibration {
  readonly abstainMargin: number;
  readonly multiThreshold: number;
  readonly temperature: number;
}

export const DEFAULT_ABSTAIN_MARGIN = 0.1;
export const DEFAULT_MULTI_THRESHOLD = 0.5;
// At 0.04 a similarity lead of 0.04 (a shared word or two) is a factor e between two options.
export const DEFAULT_TEMPERATURE = 0.04;
// Below 1e-4 the scale 1 / temperature makes float32 logits of a few hundred thousand, where
// softmax no longer tells cells apart; above 1e4 every answer is uniform.
const TEMPERATURE_RANGE = [1e-4, 1e4] as const;

/** noul: the "unknown" verdict's similarity; "yes" or "no" must beat it to win. */
export const NOUL_UNKNOWN_SIMILARITY = 0.06;
/** multi: the similarity at which an option's probability is 0.5. */
export const MULTI_MENTION_SIMILARITY = 0.06;
/** score: the similarity at which the score is 0.5. */
export const SCORE_MIDPOINT_SIMILARITY = 0.06;

function checkedRange(name: string, value: number, min: number, max: number): number {
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new RangeError(`${name} must be a number from ${min} to ${max}; got ${String(value)}`);
  }
  return value;
}

export function resolveCalibration(options: DecisionEngineOptions = {}): Calibration {
  return {
    abstainMargin: checkedRange('abstainMargin', options.abstainMargin ?? DEFAULT_ABSTAIN_MARGIN, 0, 1),
    multiThreshold: checkedRange('multiThreshold', options.multiThreshold ?? DEFAULT_MULTI_THRESHOLD, 0, 1),
    temperature: checkedRange('temperature', options.temperature ?? DEFAULT_TEMPERATURE, ...TEMPERATURE_RANGE),
  };
}

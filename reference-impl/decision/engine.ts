// The decision engine: text and questions in, one answer per question out, every request scored
// by a run of the ONNX model, shared with the requests that arrived in the same turn (batching.ts).
import type { Schemas } from '../../spec/index.ts';
import { choiceAnswer, idRecord, multiAnswer, noulAnswer, scoreAnswer } from './answers.ts';
import { createBatchingScorer } from './batching.ts';
import { resolveCalibration, type Calibration, type DecisionEngineOptions } from './calibration.ts';
import { contextVector } from './features.ts';
import { layoutQuestions, type QuestionRow } from './layout.ts';
import { buildDecisionModel } from './model.ts';
import { ProbeVectorCache } from './probe-cache.ts';
import { openScoringSession, type ScoringOutputs } from './session.ts';

export interface Decision {
  /** Question id, exactly as sent, to its answer; a null-prototype object, so every id is an own key. */
  answers: Record<string, Schemas['Answer']>;
  /** Features of the context fed to the model (distinct hashed features); at least 1. */
  inputTokens: number;
}

export interface DecisionEngine {
  decide(contextText: string, questions: Schemas['Questions']): Promise<Decision>;
  /** Waits for decisions in flight, then releases the session; later decide calls reject. */
  close(): Promise<void>;
  /** Session runs, and the decisions they scored (more decisions than runs: batching at work). */
  readonly stats: { onnxRuns: number; scoredDecisions: number };
}

function answerFor(row: QuestionRow, outputs: ScoringOutputs, rowIndex: number, calibration: Calibration): Schemas['Answer'] {
  // rowIndex counts the rows of the whole batch: this request's rows start at its first row.
  const start = rowIndex * outputs.width;
  const end = start + row.cells.length;
  switch (row.kind) {
    case 'choice':
      return choiceAnswer(row.optionIds, outputs.groupProbabilities.subarray(start, end), calibration.abstainMargin);
    case 'noul':
      return noulAnswer(outputs.groupProbabilities.subarray(start, end), calibration.abstainMargin);
    case 'multi':
      return multiAnswer(row.optionIds, outputs.cellProbabilities.subarray(start, end), calibration.multiThreshold);
    case 'score':
      return scoreAnswer(outputs.cellProbabilities[start]!);
  }
}

/** An engine on given model bytes: the default model (createDecisionEngine), or another one in tests. */
export async function startDecisionEngine(modelBytes: Uint8Array, options?: DecisionEngineOptions): Promise<DecisionEngine> {
  const calibration = resolveCalibration(options);
  const session = await openScoringSession(modelBytes);
  const probeCache = new ProbeVectorCache();
  const probeVectors = probeCache.vectorOf.bind(probeCache);
  const scorer = createBatchingScorer(session, calibration.temperature, probeVectors);
  const inFlight = new Set<Promise<unknown>>();
  let closing: Promise<void> | undefined;

  const score = async (contextText: string, questions: Schemas['Questions']): Promise<Decision> => {
    if (typeof contextText !== 'string') throw new TypeError('The context must be a string');
    const rows = layoutQuestions(questions);
    const context = contextVector(contextText);
    const { outputs, firstRow } = await scorer.score({ context, rows: rows.map((row) => row.cells) });
    const answers = idRecord<Schemas['Answer']>();
    rows.forEach((row, index) => {
      answers[row.questionId] = answerFor(row, outputs, firstRow + index, calibration);
    });
    return { answers, inputTokens: context.ids.length };
  };

  return {
    async decide(contextText, questions) {
      if (closing) throw new Error('The decision engine is closed');
      const decision = score(contextText, questions);
      inFlight.add(decision);
      try {
        return await decision;
      } finally {
        inFlight.delete(decision);
      }
    },
    close() {
      closing ??= Promise.allSettled([...inFlight]).then(() => session.release());
      return closing;
    },
    stats: {
      get onnxRuns() {
        return session.runs;
      },
      get scoredDecisions() {
        return scorer.stats.requests;
      },
    },
  };
}

/** The engine on the model built by model.ts (in memory, about a millisecond). */
export async function createDecisionEngine(options?: DecisionEngineOptions): Promise<DecisionEngine> {
  return startDecisionEngine(buildDecisionModel(), options);
}

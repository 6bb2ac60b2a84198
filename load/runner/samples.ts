// What the Node runner records while a scenario runs: one sample per request, check tallies,
// iteration counts. Turned into the shared load result by result.ts.
import type { CheckExample, Failure, Judgement } from '../definitions/response-rules.js';

export interface RequestSample {
  name: string;
  /** Milliseconds from the run's start to the request's dispatch. */
  startedMs: number;
  durationMs: number;
  /** 0 for a transport error. */
  status: number;
  /** A 4xx refusing a shape the seed leaves open (feedback-shape): counted apart, not an error. */
  refused?: boolean;
}

export class SampleLog {
  readonly requests: RequestSample[] = [];
  readonly checks = new Map<string, { passes: number; fails: number }>();
  /** The first failed exchange of each check. */
  readonly examples = new Map<string, CheckExample>();
  /** Refusals by open point id. */
  readonly refusals = new Map<string, number>();
  /** Responses whose body and answers were validated. */
  validated = 0;
  iterations = 0;
  droppedIterations = 0;

  recordChecks(results: Record<string, boolean>): void {
    for (const [name, ok] of Object.entries(results)) {
      const tally = this.checks.get(name) ?? { passes: 0, fails: 0 };
      if (ok) tally.passes++;
      else tally.fails++;
      this.checks.set(name, tally);
    }
  }

  /** One response's judgement: its checks, the first example of each failed check, a refusal, a validation. */
  recordJudgement(judgement: Judgement, exampleOf: (failure: Failure) => CheckExample): void {
    this.recordChecks(judgement.checks);
    for (const failure of judgement.failures) if (!this.examples.has(failure.check)) this.examples.set(failure.check, exampleOf(failure));
    if (judgement.refused) this.refusals.set(judgement.refused, (this.refusals.get(judgement.refused) ?? 0) + 1);
    if (judgement.validated) this.validated++;
  }
}

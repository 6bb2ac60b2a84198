// What the Node runner records while a scenario runs: each request's latency into histograms and
// its counts as it completes (no sample is kept, so a long soak's memory stays bounded), check
// tallies, iteration counts. Turned into the shared load result by result.ts.
import type { CheckExample, Failure, Judgement } from '../definitions/response-rules.js';
import { createLatencyRecorder, type LatencyLayout, type LatencyRecorder } from '../percentiles.ts';

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

/**
 * A request failed as k6's http_req_failed counts it: no response, or a status outside 200–399;
 * a refusal of an open-point shape is not a failure (the k6 script marks it expected the same way).
 */
export const failed = (sample: RequestSample) => !sample.refused && (sample.status < 200 || sample.status >= 400);

export class SampleLog {
  /** Requests sent, answered or not. */
  requests = 0;
  readonly requestsByName = new Map<string, number>();
  /** Requests that failed as k6's http_req_failed counts them (result.ts `failed`): the error rate's numerator. */
  failedRequests = 0;
  /** The latency of the answered requests. */
  readonly latency: LatencyRecorder;
  readonly checks = new Map<string, { passes: number; fails: number }>();
  /** The first failed exchange of each check. */
  readonly examples = new Map<string, CheckExample>();
  /** Refusals by open point id. */
  readonly refusals = new Map<string, number>();
  /** Responses whose body and answers were validated. */
  validated = 0;
  iterations = 0;
  droppedIterations = 0;
  /** Most iterations in flight at once: the virtual users busy together. */
  vusPeak = 0;

  constructor(definition: LatencyLayout) {
    this.latency = createLatencyRecorder(definition);
  }

  /** One completed request: counted, and its latency recorded. */
  recordRequest(sample: RequestSample): void {
    this.requests++;
    this.requestsByName.set(sample.name, (this.requestsByName.get(sample.name) ?? 0) + 1);
    if (failed(sample)) this.failedRequests++;
    this.latency.record(sample.name, sample.startedMs, sample.durationMs, sample.status);
  }

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

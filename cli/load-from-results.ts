// `load run --from-results DIR`: what a conformance run observed of the target, so a load run
// sends only what the target takes: the capabilities it claimed, and whether it took feedback of
// the reference shape (open point feedback-shape: the seed shows no feedback body).
import { FEEDBACK_REFERENCE_SHAPE_CHECK } from '../conformance/feedback.ts';
import { REFERENCE_FEEDBACK_SHAPE, NO_FEEDBACK } from '../load/definitions/common.js';
import type { CheckReport, ConformanceRunReport, EvidenceReport } from '../reports/run-report.ts';
import { isSuccess } from '../harness/status.ts';

export interface LearnedTarget {
  capabilities?: string[];
  /** FEEDBACK_SHAPE for the mixed scenario. */
  feedbackShape?: string;
  /** What was learned and from what, one line each, for the terminal. */
  notes: string[];
}

/** The parts of a conformance run's results.json (reports/results.schema.json) read here. */
export interface ConformanceResults {
  target?: Partial<Pick<ConformanceRunReport['target'], 'capabilities'>>;
  checks?: Array<Pick<CheckReport, 'id' | 'status'> & { evidence?: Array<Pick<EvidenceReport, 'request' | 'response'>> }>;
}

/** What a conformance run's results tell a load run about its target. */
export function learnFromResults(results: ConformanceResults): LearnedTarget {
  const learned: LearnedTarget = { notes: [] };
  if (Array.isArray(results.target?.capabilities)) {
    learned.capabilities = results.target.capabilities;
    learned.notes.push(`capabilities claimed in that run: ${learned.capabilities.join(',') || 'none'}`);
  }
  const observed = results.checks?.find((check) => check.id === FEEDBACK_REFERENCE_SHAPE_CHECK);
  const feedback =
    observed?.status === 'observed'
      ? observed.evidence?.filter((exchange) => exchange.request.method === 'POST' && exchange.request.url.endsWith('/v1/feedback')).at(-1)
      : undefined;
  const status = feedback?.response?.status;
  if (status === undefined) {
    learned.notes.push(
      `no observation of feedback-shape (${FEEDBACK_REFERENCE_SHAPE_CHECK} ${observed ? observed.status : 'not in the run'}): feedback shape not learned`,
    );
  } else if (isSuccess({ status })) {
    learned.feedbackShape = REFERENCE_FEEDBACK_SHAPE;
    learned.notes.push(`feedback of the reference shape was answered ${status}: mixed sends it`);
  } else {
    learned.feedbackShape = NO_FEEDBACK;
    learned.notes.push(`feedback of the reference shape was answered ${status}: mixed sends no feedback (the kit knows no other shape)`);
  }
  return learned;
}

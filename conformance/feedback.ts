// Feedback (seed 4.2): its request, response and statuses are open (feedback-shape). What the
// seed does state is that every JSON endpoint answers an invalid request with 400
// INVALID_REQUEST in the error body (seed 7); the rest is observed against the reference shape.
import { randomBytes } from 'node:crypto';
import { errorCode, referenceChoice, schemaValidator } from '../spec/index.ts';
import { statusWithCode } from '../harness/assets-support.ts';
import { area, type Check } from '../harness/check.ts';
import type { CheckContext } from '../harness/context.ts';
import { expectError, expectSuccess, isSuccess } from '../harness/expect.ts';
import { decideBody, referenceFeedbackBody } from '../harness/requests.ts';

const MALFORMED_JSON = '{"request_id": "req_0123abcd", "answers": {"topic": {"correct": tru';
const referenceFeedback = schemaValidator('Feedback', 'reference');
const referenceStatus = referenceChoice<number>('feedback-shape', 'status');

/** The check whose observation tells `load run --from-results` which feedback body a server takes (its id as written below, which verdict tests read). */
export const FEEDBACK_REFERENCE_SHAPE_CHECK = 'FEEDBACK-REFERENCE-SHAPE';

const sendFeedback = (t: CheckContext, body: unknown) => t.a.send({ method: 'POST', path: '/v1/feedback', json: body });

/** A request id of the caller's own (seed 2.7), unique to this run. */
const ownRequestId = () => `conformance-feedback-${randomBytes(8).toString('hex')}`;

export const feedbackChecks: Check[] = area('feedback', [
  {
    id: 'FEEDBACK-MALFORMED-JSON',
    level: 'MUST',
    seedSections: ['4', '4.2', '7'],
    title: 'POST /v1/feedback with a body that is not valid JSON answers 400 INVALID_REQUEST in the error body',
    async run(t) {
      const reply = await t.a.send({ method: 'POST', path: '/v1/feedback', raw: MALFORMED_JSON, contentType: 'application/json' });
      expectError(reply, 400, 'INVALID_REQUEST', 'submitFeedback');
    },
  },
  {
    id: 'FEEDBACK-REFERENCE-SHAPE',
    level: 'OBSERVE',
    seedSections: ['4.2'],
    title: 'What feedback of the reference shape on a fresh decision answers',
    openPoint: 'feedback-shape',
    async run(t) {
      const requestId = ownRequestId();
      const decided = await t.a.decide(decideBody(), { 'x-request-id': requestId });
      expectSuccess(decided, 'for the decision the feedback is about');
      const reply = await sendFeedback(t, referenceFeedbackBody(requestId, ['topic'], true));
      const meetsReference = isSuccess(reply) && referenceFeedback(reply.json).valid;
      t.observe({
        summary: `${statusWithCode(reply)}; the body ${meetsReference ? 'is' : 'is not'} a reference Feedback record`,
        matchesReference: reply.status === referenceStatus && meetsReference,
      });
    },
  },
  {
    id: 'FEEDBACK-UNKNOWN-REQUEST',
    level: 'OBSERVE',
    seedSections: ['4.2', '7'],
    title: 'What feedback for a request id no decision had answers',
    openPoint: 'feedback-shape',
    async run(t) {
      const reply = await sendFeedback(t, referenceFeedbackBody(ownRequestId(), ['topic'], false));
      // The reference answers NOT_FOUND (the open point's summary), with that code's reference status.
      const status = errorCode('NOT_FOUND').referenceStatus;
      t.observe({
        summary: statusWithCode(reply),
        reference: `${status} NOT_FOUND`,
        matchesReference: reply.status === status && reply.json?.error?.code === 'NOT_FOUND',
      });
    },
  },
]);

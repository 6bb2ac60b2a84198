// POST /v1/feedback (seed 4.2; request, response and statuses are open point feedback-shape).
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { requestBodyValidator, type Schemas } from '../../../spec/index.ts';
import type { DecisionLog } from '../decision-log.ts';
import { escapePointer } from '../decide-request.ts';
import { failure, sendFailure } from '../errors.ts';

const validateFeedback = requestBodyValidator('submitFeedback');

export function registerFeedback(app: FastifyInstance, deps: { decisions: DecisionLog; now: () => Date }): void {
  app.post('/v1/feedback', async (request, reply) => {
    const result = validateFeedback(request.body);
    if (!result.valid) {
      const issue = result.issues[0]!;
      return sendFailure(request, reply, failure('INVALID_REQUEST', `${issue.message}.`));
    }
    const body = request.body as Schemas['FeedbackRequest'];
    // Another project's decision is reported as unknown: its existence is not the caller's business.
    const decision = deps.decisions.findDecision(request.projectId, body.request_id);
    if (!decision) {
      return sendFailure(request, reply, failure('NOT_FOUND', `No decision with request id ${body.request_id} in this project.`));
    }
    for (const questionId of Object.keys(body.answers)) {
      const pointer = `/answers/${escapePointer(questionId)}`;
      if (!decision.questionIds.includes(questionId)) {
        return sendFailure(request, reply, failure('INVALID_REQUEST', `${pointer}: the decision ${body.request_id} has no question with this id.`));
      }
      if (deps.decisions.hasFeedback(request.projectId, body.request_id, questionId)) {
        return sendFailure(request, reply, failure('CONFLICT', `Feedback for ${pointer} of ${body.request_id} was already recorded.`));
      }
    }
    const record = {
      id: `fb_${randomBytes(8).toString('hex')}`,
      projectId: request.projectId,
      requestId: body.request_id,
      answers: body.answers,
      ...(typeof body.comment === 'string' ? { comment: body.comment } : {}),
      createdAt: deps.now().toISOString(),
    };
    deps.decisions.recordFeedback(record);
    const response: Schemas['Feedback'] = {
      id: record.id,
      object: 'feedback',
      request_id: record.requestId,
      answers: record.answers,
      ...(record.comment !== undefined ? { comment: record.comment } : {}),
      created_at: record.createdAt,
    };
    return reply.code(app.profile.feedbackStatus).send(response);
  });
}

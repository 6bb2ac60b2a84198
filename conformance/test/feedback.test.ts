import { describe } from 'vitest';
import { isOperation, type ProxiedRequest, type ProxiedResponse } from '../../harness/testing/mutating-proxy.ts';
import { proveChecks } from './support/proof.ts';

const isFeedback = (sent: ProxiedRequest) => isOperation(sent, 'POST', '/v1/feedback');
const answer = (status: number, body: unknown): ProxiedResponse => ({
  status,
  headers: { 'content-type': 'application/json', 'x-request-id': 'req_0000feedbac' },
  body: Buffer.from(JSON.stringify(body)),
});

describe('feedback checks', () => {
  proveChecks('feedback', {
    'FEEDBACK-MALFORMED-JSON': [
      {
        fault: 'fails on malformed feedback with 500 INTERNAL_ERROR',
        mutation: () => ({
          response: (received, sent) =>
            isFeedback(sent) && received.status === 400
              ? answer(500, { error: { code: 'INTERNAL_ERROR', message: 'Internal error.', request_id: 'req_0000feedbac' } })
              : received,
        }),
      },
      {
        fault: 'accepts malformed feedback with 201',
        mutation: () => ({ answer: (sent) => (isFeedback(sent) ? answer(201, { id: 'fb_00', object: 'feedback' }) : undefined) }),
      },
      {
        fault: 'answers malformed feedback with 400 in a bare text body',
        mutation: () => ({
          response: (received, sent) =>
            isFeedback(sent) && received.status === 400
              ? { ...received, headers: { ...received.headers, 'content-type': 'text/plain' }, body: Buffer.from('Bad Request') }
              : received,
        }),
      },
    ],
  });
});

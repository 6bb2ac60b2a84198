import { describe } from 'vitest';
import { isOperation, type ProxiedRequest } from '../../harness/testing/mutating-proxy.ts';
import { proveChecks } from './support/proof.ts';

const withAuthorization = (sent: ProxiedRequest, value: string): ProxiedRequest => ({ ...sent, headers: { ...sent.headers, authorization: value } });
const isV1 = (sent: ProxiedRequest) => sent.path.startsWith('/v1/');

describe('auth checks', () => {
  proveChecks('auth', {
    'AUTH-MISSING-KEY': [
      {
        fault: 'lets requests without a key through on /v1/models',
        mutation: (target) => ({ request: (sent) => (isOperation(sent, 'GET', '/v1/models') && !sent.headers.authorization ? withAuthorization(sent, `Bearer ${target.keyA}`) : sent) }),
      },
      {
        fault: 'answers a missing key with 403 instead of 401',
        mutation: () => ({ response: (received, sent) => (isV1(sent) && !sent.headers.authorization && received.status === 401 ? { ...received, status: 403 } : received) }),
      },
    ],
    'AUTH-INVALID-KEY': [
      {
        fault: 'accepts any svc_live_ key on POST /v1/decide',
        mutation: (target) => ({ request: (sent) => (sent.headers.authorization?.includes('unknown') && isOperation(sent, 'POST', '/v1/decide') ? withAuthorization(sent, `Bearer ${target.keyA}`) : sent) }),
      },
      {
        fault: 'answers 401 with a bare text body',
        mutation: () => ({ response: (received) => (received.status === 401 ? { ...received, headers: { ...received.headers, 'content-type': 'text/plain' }, body: Buffer.from('Unauthorized') } : received) }),
      },
    ],
    'AUTH-MALFORMED-KEY': [
      {
        fault: 'accepts keys without the svc_live_ prefix',
        mutation: (target) => ({ request: (sent) => (sent.headers.authorization?.startsWith('Bearer sk_') ? withAuthorization(sent, `Bearer ${target.keyA}`) : sent) }),
      },
    ],
    'AUTH-VALID-KEY': [
      {
        fault: 'refuses valid keys on /v1/models',
        mutation: () => ({ request: (sent) => (isOperation(sent, 'GET', '/v1/models') ? withAuthorization(sent, 'Bearer svc_live_refused') : sent) }),
      },
    ],
    'AUTH-PUBLIC-ENDPOINTS': [
      {
        fault: 'requires a key on /health',
        mutation: () => ({
          answer: (sent) => (isOperation(sent, 'GET', '/health') ? { status: 401, headers: { 'content-type': 'application/json', 'x-request-id': 'req_1' }, body: Buffer.from('{"error":{"code":"UNAUTHORIZED","message":"key","request_id":"req_1"}}') } : undefined),
        }),
      },
    ],
  });
});

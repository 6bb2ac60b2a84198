import { describe } from 'vitest';
import { isOperation, rewriteJson } from '../../harness/testing/mutating-proxy.ts';
import { proveChecks } from './support/proof.ts';

const isModels = (sent: { method: string; path: string; headers: Record<string, string>; body: Buffer }) => isOperation(sent, 'GET', '/v1/models');

describe('models checks', () => {
  proveChecks('models', {
    'MODELS-LIST-ANSWERS': [
      {
        fault: 'does not implement GET /v1/models (404 NOT_FOUND)',
        mutation: () => ({
          answer: (sent) =>
            isModels(sent)
              ? {
                  status: 404,
                  headers: { 'content-type': 'application/json', 'x-request-id': 'req_0000m0de1' },
                  body: Buffer.from('{"error":{"code":"NOT_FOUND","message":"No route.","request_id":"req_0000m0de1"}}'),
                }
              : undefined,
        }),
      },
      {
        fault: 'answers GET /v1/models with an HTML page',
        mutation: () => ({
          response: (received, sent) =>
            isModels(sent)
              ? {
                  ...received,
                  headers: { ...received.headers, 'content-type': 'text/html' },
                  body: Buffer.from('<html><body><ul><li>svc-one-v1</li></ul></body></html>'),
                }
              : received,
        }),
      },
    ],
    'MODELS-NAMES-ALIASES': [
      {
        fault: 'lists the current model without its aliases',
        mutation: () => ({
          response: (received, sent) =>
            isModels(sent) ? rewriteJson(received, () => ({ object: 'list', data: [{ id: 'svc-one-v1', object: 'model' }] })) : received,
        }),
      },
      {
        fault: 'lists svc-one-v0 but not svc-one-v0.3',
        mutation: () => ({
          response: (received, sent) =>
            isModels(sent) ? rewriteJson(received, () => ({ models: [{ name: 'svc-one-v1', aliases: ['svc-one-v0'] }] })) : received,
        }),
      },
    ],
    'MODELS-NAMES-CURRENT': [
      {
        fault: 'lists only the alias svc-one-v0',
        mutation: () => ({
          response: (received, sent) =>
            isModels(sent) ? rewriteJson(received, () => ({ object: 'list', data: [{ id: 'svc-one-v0', object: 'model', aliases: [] }] })) : received,
        }),
      },
    ],
  });
});

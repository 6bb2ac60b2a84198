import { describe } from 'vitest';
import { isOperation, rewriteJson, type ProxiedRequest } from '../../harness/testing/mutating-proxy.ts';
import { proveChecks } from './support/proof.ts';

const isOpenApi = (sent: ProxiedRequest) => isOperation(sent, 'GET', '/openapi.json');
const isHealth = (sent: ProxiedRequest) => isOperation(sent, 'GET', '/health');

describe('service checks', () => {
  proveChecks('service', {
    'SERVICE-OPENAPI-DOCUMENT': [
      {
        fault: 'serves an OpenAPI 3.0 document',
        mutation: () => ({
          response: (received, sent) => (isOpenApi(sent) ? rewriteJson(received, (document) => ({ ...document, openapi: '3.0.3' })) : received),
        }),
      },
      {
        fault: 'serves the document as YAML',
        mutation: () => ({
          response: (received, sent) =>
            isOpenApi(sent)
              ? {
                  ...received,
                  headers: { ...received.headers, 'content-type': 'application/yaml' },
                  body: Buffer.from('openapi: 3.1.0\ninfo:\n  title: Decision Service API\n'),
                }
              : received,
        }),
      },
      {
        fault: 'requires a key for /openapi.json',
        mutation: () => ({ response: (received, sent) => (isOpenApi(sent) && !sent.headers.authorization ? { ...received, status: 401 } : received) }),
      },
    ],
    'SERVICE-HEALTH-ANSWERS': [
      { fault: 'answers /health with 503', mutation: () => ({ response: (received, sent) => (isHealth(sent) ? { ...received, status: 503 } : received) }) },
    ],
    'SERVICE-OPENAPI-OPERATIONS': [
      {
        fault: 'describes no feedback endpoint',
        mutation: () => ({
          response: (received, sent) =>
            isOpenApi(sent)
              ? rewriteJson(received, (document) => ({
                  ...document,
                  paths: Object.fromEntries(Object.entries(document.paths).filter(([path]) => path !== '/v1/feedback')),
                }))
              : received,
        }),
      },
      {
        fault: 'describes DELETE /v1/assets/{asset_id} as POST',
        mutation: () => ({
          response: (received, sent) =>
            isOpenApi(sent)
              ? rewriteJson(received, (document) => {
                  const { delete: removed, ...rest } = document.paths['/v1/assets/{asset_id}'];
                  return { ...document, paths: { ...document.paths, '/v1/assets/{asset_id}': { ...rest, post: removed } } };
                })
              : received,
        }),
      },
    ],
  });
});

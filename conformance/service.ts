// Service endpoints (seed 4.4): GET /health for liveness and GET /openapi.json with the
// OpenAPI 3.1 description of the API, both without a key. Their bodies are open
// (service-endpoint-bodies), except that the second is an OpenAPI 3.1 document.
import { operations, schemaValidator } from '../spec/index.ts';
import { statusWithCode } from '../harness/assets-support.ts';
import { area, type Check } from '../harness/check.ts';
import type { CheckContext } from '../harness/context.ts';
import { describeReply, expectSuccess } from '../harness/expect.ts';

const referenceHealth = schemaValidator('Health', 'reference');
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const getHealth = (t: CheckContext) => t.anonymous.send({ method: 'GET', path: '/health' });
const getOpenApi = (t: CheckContext) => t.anonymous.send({ method: 'GET', path: '/openapi.json' });

/** "GET /v1/assets/{}": path parameters compare equal whatever their names. */
const operationKey = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, '{}')}`;

/** The operations an OpenAPI document describes, as operationKey strings. */
function describedOperations(document: unknown): Set<string> {
  const paths = (document as { paths?: unknown })?.paths;
  const found = new Set<string>();
  if (typeof paths !== 'object' || paths === null) return found;
  for (const [path, item] of Object.entries(paths)) {
    if (typeof item !== 'object' || item === null) continue;
    for (const method of METHODS) if (method in item) found.add(operationKey(method, path));
  }
  return found;
}

export const serviceChecks: Check[] = area('service', [
  {
    id: 'SERVICE-OPENAPI-DOCUMENT',
    level: 'MUST',
    seedSections: ['4.4'],
    title: 'GET /openapi.json without a key answers 2xx with a JSON OpenAPI 3.1 document',
    async run(t) {
      const reply = await getOpenApi(t);
      expectSuccess(reply, 'for GET /openapi.json');
      const version = reply.json?.openapi;
      if (typeof version !== 'string' || !version.startsWith('3.1')) {
        t.fail('a JSON object whose "openapi" is 3.1.x', version === undefined ? describeReply(reply) : `"openapi": ${JSON.stringify(version)}`);
      }
    },
  },
  {
    id: 'SERVICE-HEALTH-ANSWERS',
    level: 'MUST',
    seedSections: ['4.4'],
    title: 'GET /health without a key answers 2xx',
    async run(t) {
      expectSuccess(await getHealth(t), 'for GET /health');
    },
  },
  {
    id: 'SERVICE-OPENAPI-OPERATIONS',
    level: 'SHOULD',
    seedSections: ['4', '4.4'],
    title: `The document at /openapi.json describes the ${operations.length} operations of the seed`,
    async run(t) {
      const reply = await getOpenApi(t);
      expectSuccess(reply, 'for GET /openapi.json');
      const described = describedOperations(reply.json);
      const missing = operations.map((op) => operationKey(op.method, op.path)).filter((key) => !described.has(key));
      if (missing.length > 0) t.fail(`the ${operations.length} operations of the seed among its paths`, `no ${missing.join(', ')}`);
    },
  },
  {
    id: 'SERVICE-HEALTH-BODY',
    level: 'OBSERVE',
    seedSections: ['4.4'],
    title: 'What GET /health answers',
    openPoint: 'service-endpoint-bodies',
    async run(t) {
      const reply = await getHealth(t);
      const matches = reply.status === 200 && reply.json !== undefined && referenceHealth(reply.json).valid;
      t.observe({ summary: `${statusWithCode(reply)}, body ${JSON.stringify(reply.text.slice(0, 120))}`, matchesReference: matches });
    },
  },
]);

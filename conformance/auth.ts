// Authentication (seed 5): every /v1 operation needs `Authorization: Bearer svc_live_<secret>`;
// /health and /openapi.json need none.
import { operations } from '../spec/index.ts';
import { area, type Check } from '../harness/check.ts';
import type { CheckContext } from '../harness/context.ts';
import { expectError, expectSuccess } from '../harness/expect.ts';

const v1Operations = operations.filter((op) => op.requiresKey);
const publicOperations = operations.filter((op) => !op.requiresKey);

/** A well-formed but unknown asset id, so that path operations reach authentication. */
const PLACEHOLDER_ASSET = 'asset_conformance0000';

function sendTo(t: CheckContext, op: (typeof operations)[number], authorization: string | undefined) {
  return t.anonymous.send({
    method: op.method.toUpperCase(),
    path: op.path.replace('{asset_id}', PLACEHOLDER_ASSET),
    ...(authorization !== undefined ? { headers: { authorization } } : {}),
    ...(op.method === 'post' ? { json: {} } : {}),
  });
}

export const authChecks: Check[] = area('auth', [
  {
    id: 'AUTH-MISSING-KEY',
    level: 'MUST',
    seedSections: ['4', '5', '7'],
    title: 'Every /v1 operation without an Authorization header answers 401 UNAUTHORIZED in the error body',
    async run(t) {
      for (const op of v1Operations) expectError(await sendTo(t, op, undefined), 401, 'UNAUTHORIZED', op.operationId);
    },
  },
  {
    id: 'AUTH-INVALID-KEY',
    level: 'MUST',
    seedSections: ['5', '7'],
    title: 'Every /v1 operation with an unknown svc_live_ key answers 401 UNAUTHORIZED in the error body',
    async run(t) {
      for (const op of v1Operations) expectError(await sendTo(t, op, 'Bearer svc_live_conformance_unknown_key_0000'), 401, 'UNAUTHORIZED', op.operationId);
    },
  },
  {
    id: 'AUTH-MALFORMED-KEY',
    level: 'MUST',
    seedSections: ['5', '7'],
    title: 'A key without the svc_live_ prefix, another scheme, or an empty bearer answers 401 UNAUTHORIZED',
    async run(t) {
      const op = v1Operations.find((candidate) => candidate.operationId === 'listModels') ?? v1Operations[0]!;
      for (const authorization of ['Bearer sk_live_conformance_0000', 'Basic c3ZjX2xpdmVfeDp4', 'Bearer ', 'svc_live_conformance_no_scheme']) {
        expectError(await sendTo(t, op, authorization), 401, 'UNAUTHORIZED', op.operationId);
      }
    },
  },
  {
    id: 'AUTH-VALID-KEY',
    level: 'MUST',
    seedSections: ['5'],
    title: 'The given key is accepted on GET /v1/models',
    async run(t) {
      expectSuccess(await t.a.send({ method: 'GET', path: '/v1/models' }), 'with the key given to the kit');
    },
  },
  {
    id: 'AUTH-PUBLIC-ENDPOINTS',
    level: 'MUST',
    seedSections: ['4.4', '5'],
    title: 'GET /health and GET /openapi.json answer without a key',
    async run(t) {
      for (const op of publicOperations) expectSuccess(await sendTo(t, op, undefined), `for ${op.method.toUpperCase()} ${op.path} without a key`);
    },
  },
]);

// Authentication (seed 5): every /v1 operation needs `Authorization: Bearer svc_live_<secret>`;
// /health and /openapi.json need none. Every negative case is a request that just passed with
// one thing changed, the credential, on a resource that exists (an asset of the key's project,
// a decision just made): a refusal can then only come from the credential.
import { randomBytes } from 'node:crypto';
import { apiKeyPrefix, operations } from '../spec/index.ts';
import { area, CheckFailure, type Check } from '../harness/check.ts';
import type { CheckContext } from '../harness/context.ts';
import { describeReply, expectError, expectSuccess, isSuccess } from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';
import { inOrder } from '../harness/in-flight.ts';
import { KEY_VARIANTS, type KeyVariantName } from '../harness/key-variants.ts';
import { bearer, keyedOperations, NotPrepared, passingRequest, type Credential, type PassingRequest } from '../harness/passing-requests.ts';

const publicOperations = operations.filter((op) => !op.requiresKey);

/** The public start of every key (the bearer scheme's x-key-prefix). */
const KEY_PREFIX = apiKeyPrefix;

/** One thing changed about how the valid key is presented. */
interface CredentialChange {
  what: string;
  credential(key: string): Credential;
}

const UNKNOWN_KEY: CredentialChange = {
  what: `an unknown ${KEY_PREFIX} key`,
  credential: () => bearer(`${KEY_PREFIX}conformance_unknown_${randomBytes(8).toString('hex')}`),
};

const NO_HEADER: CredentialChange = { what: 'no Authorization header', credential: () => ({ headers: {} }) };

/** The header sent, its value emptied: what a client sends when the variable holding the whole header value is unset. */
const EMPTY_VALUE: CredentialChange = { what: 'an empty Authorization header value', credential: () => ({ headers: { authorization: '' } }) };

const MALFORMED_KEYS: CredentialChange[] = [
  { what: `a key without the ${KEY_PREFIX} prefix`, credential: () => bearer('sk_live_conformance_0000') },
  { what: 'an empty bearer credential', credential: () => ({ headers: { authorization: 'Bearer ' } }) },
];

// Changes made from the valid key come from the shared table (harness/key-variants.ts): the
// recording names each by its variant, and replay rebuilds it from the key it is given.
const variants = (...names: KeyVariantName[]): CredentialChange[] => names.map((name) => KEY_VARIANTS[name]);

const WITHOUT_SCHEME: CredentialChange = KEY_VARIANTS['without-scheme'];
const OTHER_SCHEMES = variants('scheme-token', 'scheme-basic', 'scheme-apikey');
const NEAR_MISSES = variants('last-char-changed', 'secret-case-changed', 'char-added', 'last-char-removed', 'first-half');
const OTHER_PLACES = variants('in-query', 'in-x-api-key');
const LOWER_CASE_SCHEMES = variants('scheme-lowercase', 'scheme-uppercase');

/** A refusal of the changed request: 401 UNAUTHORIZED in the error body, said of which request and which change. */
function expectUnauthorized(reply: Reply, request: PassingRequest, change: CredentialChange): void {
  try {
    expectError(reply, 401, 'UNAUTHORIZED', request.operationId);
  } catch (error) {
    if (error instanceof CheckFailure) throw new CheckFailure(`${error.expected} for ${request.label} sent with ${change.what}`, error.observed);
    throw error;
  }
}

const unchangedFailed = (request: PassingRequest, reply: Reply) =>
  [`a 2xx for ${request.label} with the valid key (the request every changed one is derived from)`, describeReply(reply)] as const;

/**
 * For every /v1 operation: the passing request with the valid key must succeed, and the same
 * request with each change must be answered 401 UNAUTHORIZED. When the unchanged request's
 * success rests on an open point (feedback), the operation is skipped with that reason, unless
 * `evenIfUnchangedFails` (a missing key is refused whatever the body).
 */
async function expectEveryChangeRefused(t: CheckContext, changes: readonly CredentialChange[], evenIfUnchangedFails = false): Promise<void> {
  // The operations share nothing (each has resources of its own): up to --workers of them at once.
  const judged = await inOrder(keyedOperations, t.workers, async (op): Promise<boolean> => {
    const request = await passingRequest(t, op);
    if (request instanceof NotPrepared) {
      t.note(`${op.operationId} not checked: ${request.reason}`);
      return false;
    }
    try {
      if (!request.controlLast) {
        const unchanged = await request.send(bearer(t.keyA));
        if (!isSuccess(unchanged)) {
          if (!request.openPoint) t.fail(...unchangedFailed(request, unchanged));
          t.note(
            `${request.label}: the kit's request answered ${describeReply(unchanged)} with the valid key; its shape is open (${request.openPoint}), so ${evenIfUnchangedFails ? 'only the missing key is judged there' : 'it is not checked'}`,
          );
          if (!evenIfUnchangedFails) return false;
        }
      }
      // Each change is refused on its own: sent together, judged in their order.
      const replies = await Promise.all(changes.map(async (change) => [change, await request.send(change.credential(t.keyA))] as const));
      for (const [change, reply] of replies) expectUnauthorized(reply, request, change);
      if (request.controlLast) {
        const unchanged = await request.send(bearer(t.keyA));
        if (!isSuccess(unchanged)) t.fail(...unchangedFailed(request, unchanged));
      }
      return true;
    } finally {
      await request.cleanup();
    }
  });
  if (!judged.includes(true)) t.skip('no /v1 operation could be prepared on this target');
}

/** For every /v1 operation: the passing request with each change must still succeed, for the reason given (SHOULD). */
async function expectEveryChangeAccepted(t: CheckContext, changes: readonly CredentialChange[], because: string): Promise<void> {
  let judged = 0;
  for (const op of keyedOperations) {
    for (const change of changes) {
      const request = await passingRequest(t, op);
      if (request instanceof NotPrepared) {
        t.note(`${op.operationId} not checked: ${request.reason}`);
        break;
      }
      try {
        const changed = await request.send(change.credential(t.keyA));
        if (isSuccess(changed)) {
          judged += 1;
          continue;
        }
        // Refused: only a fresh, unchanged request tells whether the change was the cause.
        const fresh = await passingRequest(t, op);
        if (fresh instanceof NotPrepared) t.fail(`a 2xx for ${request.label} sent with ${change.what}`, describeReply(changed));
        try {
          const unchanged = await fresh.send(bearer(t.keyA));
          if (isSuccess(unchanged)) t.fail(`a 2xx for ${request.label} sent with ${change.what}, as without the change (${because})`, describeReply(changed));
          if (!fresh.openPoint) t.fail(...unchangedFailed(fresh, unchanged));
          t.note(
            `${request.label}: the kit's request answered ${describeReply(unchanged)} with the valid key; its shape is open (${fresh.openPoint}), so it is not checked`,
          );
          break;
        } finally {
          await fresh.cleanup();
        }
      } finally {
        await request.cleanup();
      }
    }
  }
  if (judged === 0) t.skip('no /v1 operation could be prepared on this target');
}

/** A rule of seed 5: a request that just passed, with one of these changes, is refused. */
interface RefusalRule {
  id: string;
  seedSections: string[];
  title: string;
  changes: readonly CredentialChange[];
  /** Judged even where the unchanged request's success rests on an open point. */
  evenIfUnchangedFails?: boolean;
}

const refusalRules: RefusalRule[] = [
  {
    id: 'AUTH-MISSING-KEY',
    seedSections: ['4', '5', '7'],
    title: 'Every /v1 operation, sent as a request that just passed but without an Authorization header, answers 401 UNAUTHORIZED',
    changes: [NO_HEADER],
    evenIfUnchangedFails: true,
  },
  {
    id: 'AUTH-EMPTY-VALUE',
    seedSections: ['5', '7'],
    title: 'Every /v1 operation, sent as a request that just passed but with the Authorization header present and empty, answers 401 UNAUTHORIZED',
    changes: [EMPTY_VALUE],
    // An empty value carries no key at all, so it is refused whatever the body, as a missing header is.
    evenIfUnchangedFails: true,
  },
  {
    id: 'AUTH-INVALID-KEY',
    seedSections: ['5', '7'],
    title: 'Every /v1 operation, sent as a request that just passed but with an unknown svc_live_ key, answers 401 UNAUTHORIZED',
    changes: [UNKNOWN_KEY],
  },
  {
    id: 'AUTH-MALFORMED-KEY',
    seedSections: ['5', '7'],
    title: 'A request that just passed, sent with a key without the svc_live_ prefix or an empty bearer, answers 401 UNAUTHORIZED',
    changes: MALFORMED_KEYS,
  },
  {
    id: 'AUTH-KEY-WITHOUT-SCHEME',
    seedSections: ['5', '7'],
    title: 'Every /v1 operation, sent as a request that just passed but with the valid key and no Bearer scheme, answers 401 UNAUTHORIZED',
    changes: [WITHOUT_SCHEME],
  },
  {
    id: 'AUTH-KEY-OTHER-SCHEME',
    seedSections: ['5', '7'],
    title: 'Every /v1 operation, sent as a request that just passed but with the valid key under Token, Basic or ApiKey, answers 401 UNAUTHORIZED',
    changes: OTHER_SCHEMES,
  },
  {
    id: 'AUTH-KEY-NEAR-MISS',
    seedSections: ['5', '7'],
    title: 'The valid key with one character changed, its case changed, a character added, truncated or halved answers 401 UNAUTHORIZED on every /v1 operation',
    changes: NEAR_MISSES,
  },
  {
    id: 'AUTH-KEY-OTHER-PLACE',
    seedSections: ['5', '7'],
    title: 'The valid key in the query string (?api_key=) or an X-API-Key header, without Authorization, answers 401 UNAUTHORIZED on every /v1 operation',
    changes: OTHER_PLACES,
  },
];

export const authChecks: Check[] = area('auth', [
  ...refusalRules.map(({ changes, evenIfUnchangedFails, ...rule }) => ({
    ...rule,
    level: 'MUST' as const,
    run: (t: CheckContext) => expectEveryChangeRefused(t, changes, evenIfUnchangedFails),
  })),
  {
    id: 'AUTH-SCHEME-CASE-INSENSITIVE',
    level: 'SHOULD',
    seedSections: ['5'],
    title: 'The valid key under "bearer" or "BEARER" is accepted on every /v1 operation (HTTP auth schemes are case-insensitive)',
    async run(t) {
      await expectEveryChangeAccepted(t, LOWER_CASE_SCHEMES, 'HTTP authentication schemes are case-insensitive');
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
      for (const op of publicOperations)
        expectSuccess(await t.anonymous.send({ method: op.method.toUpperCase(), path: op.path }), `for ${op.method.toUpperCase()} ${op.path} without a key`);
    },
  },
]);

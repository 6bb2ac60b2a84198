// Seed 5.1 and 5.5: every /v1 endpoint needs `Authorization: Bearer <key>`; a request without a
// valid key is never served, whatever its method or the spelling of its path.
import { isSuccess, isVersionedPath, type ResponseRule } from './rule.ts';

export const authRules: ResponseRule[] = [
  {
    id: 'auth-required',
    level: 'MUST',
    seedSections: ['5'],
    title: 'no /v1 request served without a valid key, whatever its method or path spelling',
    appliesTo: 'every request to a /v1 path (any spelling) without a key of the run as a bearer credential',
    applies: (exchange) => exchange.credential !== 'valid' && isVersionedPath(exchange.path),
    judge: (exchange) =>
      isSuccess(exchange)
        ? {
            expected: `a refusal (401) of ${exchange.method} ${exchange.path} sent ${exchange.credential === 'none' ? 'without an Authorization header' : 'with an invalid credential'}`,
            observed: `status ${exchange.status}: served`,
          }
        : undefined,
  },
];

// Authentication and rate limiting for every /v1 route (seed 5; open point rate-limits).
// Runs on onRequest, before the body is read, so an unauthenticated upload is refused early.
import type { FastifyInstance } from 'fastify';
import { failure, sendFailure } from './errors.ts';
import { bearerKey, type KeyRing } from './keys.ts';
import type { RateLimiter } from './rate-limit.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The project of the caller's key; set on every authenticated /v1 request. */
    projectId: string;
  }
}

export function installAuth(app: FastifyInstance, keyRing: KeyRing, rateLimiter: RateLimiter): void {
  app.decorateRequest('projectId', '');
  app.addHook('onRequest', async (request, reply) => {
    const key = bearerKey(request.headers.authorization);
    const projectId = key === undefined ? undefined : keyRing.projectOf(key);
    if (key === undefined || projectId === undefined) {
      const message = request.headers.authorization
        ? 'Invalid API key.'
        : 'Missing API key: send Authorization: Bearer svc_live_<secret>.';
      return sendFailure(request, reply, failure('UNAUTHORIZED', message));
    }
    const verdict = rateLimiter.take(key);
    if (!verdict.allowed) {
      return sendFailure(
        request,
        reply,
        failure('RATE_LIMITED', `Rate limit exceeded for this key; retry in ${verdict.retryAfterSeconds} s.`, {
          'retry-after': String(verdict.retryAfterSeconds),
        }),
      );
    }
    request.projectId = projectId;
  });
}

// Authentication for every /v1 route (seed 5). Runs on onRequest, before the body is read, so
// an unauthenticated upload is refused early; the rate limit (rate-limit.ts) runs after it.
import type { FastifyInstance } from 'fastify';
import { failure, sendFailure } from './errors.ts';
import { bearerKey, KEY_PREFIX, type KeyRing } from './keys.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The project of the caller's key; set on every authenticated /v1 request. */
    projectId: string;
  }
}

export function installAuth(app: FastifyInstance, keyRing: KeyRing): void {
  app.decorateRequest('projectId', '');
  app.addHook('onRequest', async (request, reply) => {
    const key = bearerKey(request.headers.authorization);
    const projectId = key === undefined ? undefined : keyRing.projectOf(key);
    if (key === undefined || projectId === undefined) {
      const message = request.headers.authorization ? 'Invalid API key.' : `Missing API key: send Authorization: Bearer ${KEY_PREFIX}<secret>.`;
      return sendFailure(request, reply, failure('UNAUTHORIZED', message));
    }
    request.projectId = projectId;
  });
}

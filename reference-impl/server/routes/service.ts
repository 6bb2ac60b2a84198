// GET /health and GET /openapi.json (seed 4.4): no key needed.
import type { FastifyInstance } from 'fastify';
import { openapiJson } from '../../../spec/index.ts';

export function registerService(app: FastifyInstance): void {
  // The body is the profile's (open point service-endpoint-bodies); the reference's is the spec's Health schema.
  const health = app.profile.healthBody;
  app.get('/health', async (_request, reply) => reply.send(health));
  // The JSON form of spec/openapi.yaml, serialised once at start.
  app.get('/openapi.json', async (_request, reply) => reply.type('application/json').send(openapiJson));
}

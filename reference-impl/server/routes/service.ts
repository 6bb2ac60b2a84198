// GET /health and GET /openapi.json (seed 4.4): no key needed.
import type { FastifyInstance } from 'fastify';
import { openapiJson, type Schemas } from '../../../spec/index.ts';

export function registerService(app: FastifyInstance): void {
  const health: Schemas['Health'] = { status: 'ok' };
  app.get('/health', async (_request, reply) => reply.send(health));
  // The JSON form of spec/openapi.yaml, serialised once at start.
  app.get('/openapi.json', async (_request, reply) => reply.type('application/json').send(openapiJson));
}

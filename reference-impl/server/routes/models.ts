// GET /v1/models (seed 2.6, 4.3; shape and status are open point models-shape).
import type { FastifyInstance } from 'fastify';
import { currentModel, modelAliases, referenceChoice, type Schemas } from '../../../spec/index.ts';

/** The model that answers every decision, and its aliases (seed 2.6). */
export const MODEL_ID = currentModel;

const status = referenceChoice<number>('models-shape', 'status');

export function registerModels(app: FastifyInstance): void {
  const body: Schemas['ModelList'] = { object: 'list', data: [{ id: MODEL_ID, object: 'model', aliases: [...modelAliases] }] };
  app.get('/v1/models', async (_request, reply) => reply.code(status).send(body));
}

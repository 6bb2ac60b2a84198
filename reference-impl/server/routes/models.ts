// GET /v1/models (seed 2.6, 4.3; shape and status are open point models-shape).
import type { FastifyInstance } from 'fastify';
import { currentModel, modelAliases, type Schemas } from '../../../spec/index.ts';

/** The model that answers every decision, and its aliases (seed 2.6). */
export const MODEL_ID = currentModel;

/** The two shapes of the list the profiles choose between (open point models-shape). */
const MODEL_LISTS = {
  'list-object': (): Schemas['ModelList'] => ({ object: 'list', data: [{ id: MODEL_ID, object: 'model', aliases: [...modelAliases] }] }),
  'models-array': () => ({ models: [{ name: MODEL_ID, aliases: [...modelAliases] }] }),
};

export function registerModels(app: FastifyInstance): void {
  const { modelsShape, modelsStatus } = app.profile;
  const body = MODEL_LISTS[modelsShape]();
  app.get('/v1/models', async (_request, reply) => reply.code(modelsStatus).send(body));
}

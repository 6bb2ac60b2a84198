// Models (seed 2.6, 4.3): GET /v1/models lists the available models. Its shape and status are
// open (models-shape), so the contract is a successful JSON answer; the current model's name
// is expected somewhere in it, and its aliases (2.6, 9.5) at SHOULD: the seed lists them as
// model names, but whether the listing shows aliases is left to its open shape.
import { currentModel, modelAliases, referenceChoice, schemaValidator } from '../spec/index.ts';
import { statusWithCode } from '../harness/assets-support.ts';
import { area, type Check } from '../harness/check.ts';
import type { CheckContext } from '../harness/context.ts';
import { describeReply, expectSuccess } from '../harness/expect.ts';

/** Seed 2.6: the current model, and its aliases. */
const CURRENT_MODEL = currentModel;
const ALIASES = modelAliases;
const referenceShape = schemaValidator('ModelList', 'reference');

const listModels = (t: CheckContext) => t.a.send({ method: 'GET', path: '/v1/models' });

export const modelChecks: Check[] = area('models', [
  {
    id: 'MODELS-LIST-ANSWERS',
    level: 'MUST',
    seedSections: ['4', '4.3'],
    title: 'GET /v1/models answers a 2xx status with a JSON body',
    async run(t) {
      const reply = await listModels(t);
      expectSuccess(reply, 'for GET /v1/models');
      if (reply.json === undefined) t.fail('a JSON body listing the models', describeReply(reply));
    },
  },
  {
    id: 'MODELS-NAMES-CURRENT',
    level: 'MUST',
    seedSections: ['2.6', '4.3'],
    title: `The model listing names the current model ${CURRENT_MODEL}`,
    async run(t) {
      const reply = await listModels(t);
      expectSuccess(reply, 'for GET /v1/models');
      // The shape is open: look for the name as a JSON string anywhere in the listing.
      const text = JSON.stringify(reply.json ?? null);
      if (!text.includes(JSON.stringify(CURRENT_MODEL))) t.fail(`the name "${CURRENT_MODEL}" in the listing`, describeReply(reply));
    },
  },
  {
    id: 'MODELS-NAMES-ALIASES',
    level: 'SHOULD',
    seedSections: ['2.6', '4.3', '9'],
    bounds: ['models-shape'],
    title: `The model listing names the aliases ${ALIASES.join(' and ')} of the current model`,
    async run(t) {
      const reply = await listModels(t);
      expectSuccess(reply, 'for GET /v1/models');
      // The shape is open: look for each name as a JSON string anywhere in the listing.
      const text = JSON.stringify(reply.json ?? null);
      const missing = ALIASES.filter((alias) => !text.includes(JSON.stringify(alias)));
      if (missing.length > 0)
        t.fail(
          `the aliases ${ALIASES.join(', ')} named in the listing (seed 2.6, 9.5)`,
          `no ${missing.map((alias) => `"${alias}"`).join(' or ')} in ${describeReply(reply)}`,
        );
    },
  },
  {
    id: 'MODELS-SHAPE',
    level: 'OBSERVE',
    seedSections: ['4.3'],
    title: 'The status and shape of the GET /v1/models answer',
    openPoint: 'models-shape',
    async run(t) {
      const reply = await listModels(t);
      const matchesShape = reply.json !== undefined && referenceShape(reply.json).valid;
      t.observe({
        summary: `${statusWithCode(reply)}, ${matchesShape ? 'a {object: "list", data: [...]} listing' : `body ${JSON.stringify(reply.text.slice(0, 120))}`}`,
        matchesReference: reply.status === referenceChoice<number>('models-shape', 'status') && matchesShape,
      });
    },
  },
]);

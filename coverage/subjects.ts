// The passing request of every operation, on resources that really exist: a decide body, feedback
// on a question of a decision just made (each case its own, since a second report on one question
// may be refused), an upload, reads of an asset the project uploaded, and deletes each of an asset
// of their own. The body schema's hook names real assets of each part's family.
import { randomBytes } from 'node:crypto';
import type { Capability } from '../harness/check.ts';
import type { CheckContext } from '../harness/context.ts';
import { isSuccess } from '../harness/expect.ts';
import { choiceQuestion, decideBody, questionIds, referenceFeedbackBody, SAMPLE_TYPE_OF } from '../harness/requests.ts';
import { pngImage, sampleFor } from '../harness/samples/media.ts';
import { jsonRequestSchema, openPoint, operation, partFamilies, schemaNodes, type MediaFamily, type SchemaStep } from '../spec/index.ts';
import type { CaseRequest } from './case.ts';
import { Unbuildable, type LeafHook } from './instances.ts';
import type { OperationBase } from './request-cases.ts';

/** The component an asset id is (AssetId): where a body names an asset. */
const ASSET_ID = 'AssetId';

/** Why a passing request could not be prepared. */
export class NotPrepared extends Error {}

/** Assets the project uploads for the cases, deleted when the check ends. */
export interface Assets {
  /** An asset of the family, uploaded once. */
  of(family: MediaFamily): Promise<string>;
  /** A new asset (a DELETE uses it up). */
  fresh(): Promise<string>;
  /** Remembers an asset a case created. */
  created(id: string): void;
  /** Forgets an asset a case deleted. */
  gone(id: string): void;
  cleanup(): Promise<void>;
}

export function projectAssets(t: CheckContext): Assets {
  const ids = new Set<string>();
  const byFamily = new Map<MediaFamily, Promise<string>>();
  const upload = async (family: MediaFamily) => {
    const type = SAMPLE_TYPE_OF[family];
    const reply = await t.a.upload(sampleFor(type), type);
    if (!isSuccess(reply) || typeof reply.json?.id !== 'string') throw new NotPrepared(`uploading a ${type} answered status ${reply.status}`);
    ids.add(reply.json.id);
    return reply.json.id;
  };
  return {
    of(family) {
      if (!byFamily.has(family)) byFamily.set(family, upload(family));
      return byFamily.get(family)!;
    },
    fresh: () => upload('image'),
    created: (id) => ids.add(id),
    gone: (id) => ids.delete(id),
    async cleanup() {
      await Promise.all([...ids].map((id) => t.a.deleteAsset(id).catch(() => undefined)));
    },
  };
}

/** The hook that names a real asset of the part's family wherever a body needs an asset id; nothing is uploaded for a body that has none. */
export async function assetHook(t: CheckContext, assets: Assets, operationId: string): Promise<LeafHook> {
  const known = new Map<MediaFamily, string>();
  const root = jsonRequestSchema(operationId);
  const referencesAssets = root !== undefined && schemaNodes(root).some((node) => node.name === ASSET_ID);
  if (referencesAssets && t.target.capabilities.has('assets'))
    for (const family of Object.keys(partFamilies) as MediaFamily[]) known.set(family, await assets.of(family).catch(() => ''));
  return (name: string | undefined, steps: readonly SchemaStep[]) => {
    if (name !== ASSET_ID) return undefined;
    const tag = steps.findLast((step): step is Extract<SchemaStep, { kind: 'branch' }> => step.kind === 'branch' && step.tag !== undefined)?.tag?.value;
    const family = tag && tag in partFamilies ? partFamilies[tag as MediaFamily][0]! : undefined;
    const id = family ? known.get(family) : undefined;
    if (!id) throw new Unbuildable(`no uploaded ${family ?? 'media'} asset to reference`);
    return id;
  };
}

/** Question slots of decisions just made, one per feedback case. */
function feedbackSlots(t: CheckContext): () => Promise<{ requestId: string; questionId: string }> {
  let free: Array<{ requestId: string; questionId: string }> = [];
  let making: Promise<void> | undefined;
  const decide = async () => {
    // Short questions keep the decision's body whole in the results (a replay re-sends it before the feedback on it).
    const questions = Object.fromEntries(questionIds(16).map((id) => [id, choiceQuestion({ yes: '', no: '' })]));
    const requestId = `coverage-${randomBytes(8).toString('hex')}`;
    const reply = await t.a.decide({ context: decideBody().context, questions }, { 'x-request-id': requestId });
    if (!isSuccess(reply)) throw new NotPrepared(`the decision feedback is about answered status ${reply.status}`);
    const id = reply.headers['x-request-id'] ?? requestId;
    free = [...free, ...Object.keys(questions).map((questionId) => ({ requestId: id, questionId }))];
  };
  return async () => {
    while (free.length === 0) {
      making ??= decide().finally(() => {
        making = undefined;
      });
      await making;
    }
    return free.shift()!;
  };
}

/** Feedback bodies name placeholders that each case's request replaces with a slot of its own. */
const REQUEST_ID = 'coverage_request_id';
const QUESTION_ID = 'coverage_question_id';

function fillFeedback(body: unknown, slot: { requestId: string; questionId: string }): string {
  return JSON.stringify(body).replaceAll(`"${REQUEST_ID}"`, JSON.stringify(slot.requestId)).replaceAll(`"${QUESTION_ID}"`, JSON.stringify(slot.questionId));
}

export interface Subject {
  base: OperationBase;
  /** For operations with a JSON body: a passing body and how a body is sent. */
  body?: { root: unknown; request(body: unknown): Promise<CaseRequest> };
}

/** The subject of an operation for this check, or why the kit cannot prepare it on this target. */
export function subjectOf(t: CheckContext, operationId: string, assets: Assets): Subject | string {
  const op = operation(operationId);
  const method = op.method.toUpperCase();
  const requires: Capability[] = op.path.startsWith('/v1/assets') ? ['assets'] : [];
  if (requires.some((capability) => !t.target.capabilities.has(capability))) return 'the target does not claim assets (--capabilities)';
  const base = (prepare: () => Promise<CaseRequest>, openSuccess?: string): OperationBase => ({
    operation: operationId,
    prepare,
    requires,
    ...(openSuccess ? { openSuccess } : {}),
  });
  const filled = (id: string) => op.path.replace('{asset_id}', encodeURIComponent(id));
  switch (operationId) {
    case 'decide': {
      const request = async (body: unknown): Promise<CaseRequest> => ({ method, path: op.path, json: body });
      return { base: base(() => request(decideBody())), body: { root: decideBody(), request } };
    }
    case 'submitFeedback': {
      const slot = feedbackSlots(t);
      const request = async (body: unknown): Promise<CaseRequest> => ({
        method,
        path: op.path,
        raw: fillFeedback(body, await slot()),
        contentType: 'application/json',
      });
      const root = referenceFeedbackBody(REQUEST_ID, [QUESTION_ID], true);
      const feedbackShape = openPoint('feedback-shape').id;
      return {
        base: base(async () => {
          const filledBody = JSON.parse(fillFeedback(root, await slot())) as unknown;
          return { method, path: op.path, json: filledBody };
        }, feedbackShape),
        body: { root, request },
      };
    }
    case 'uploadAsset':
      return { base: base(async () => ({ method, path: op.path, raw: pngImage(), contentType: 'image/png' })) };
    case 'getAsset':
      return { base: base(async () => ({ method, path: filled(await assets.of('image')) })) };
    case 'deleteAsset':
      return { base: base(async () => ({ method, path: filled(await assets.fresh()) })) };
    default:
      if (op.path.includes('{') || op.method !== 'get') return `the kit has no passing request for ${operationId}`;
      return { base: base(async () => ({ method, path: op.path })) };
  }
}

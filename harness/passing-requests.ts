// For every /v1 operation, a request that succeeds with the project's key on a resource that
// really exists: a valid decide body, feedback on a decision just made, an upload of a valid
// file, and reads and deletes of an asset the project just uploaded. Negative cases change one
// thing of such a request (the credential, the project), so that a refusal can only come from
// that one thing and not from a placeholder id or an invalid body.
import { randomBytes } from 'node:crypto';
import { operations, type Operation } from '../spec/index.ts';
import type { CheckContext } from './context.ts';
import { isSuccess } from './expect.ts';
import type { Reply } from './http.ts';
import { decideBody, referenceFeedbackBody } from './requests.ts';
import { pngImage } from './samples/media.ts';

import { bearer, withQuery, type Credential } from './key-variants.ts';

export { bearer, type Credential };

export interface PassingRequest {
  operationId: string;
  /** "GET /v1/assets/asset_…", for messages. */
  label: string;
  /**
   * True when a success uses the resource up (DELETE): the changed requests are sent first and
   * the unchanged one last, so that they all meet a resource that exists.
   */
  controlLast: boolean;
  /**
   * Set when the success of the unchanged request rests on an open point (the feedback body
   * is open, feedback-shape): its failure is then a reason to skip, never a failure.
   */
  openPoint?: string;
  /** Sends the request with this credential and nothing else changed. */
  send(credential: Credential): Promise<Reply>;
  /** Removes what preparing and sending created (assets). */
  cleanup(): Promise<void>;
}

/** Why a request could not be prepared on this target: an operation the target does not claim, or a refused setup step. */
export class NotPrepared {
  constructor(readonly reason: string) {}
}

export const keyedOperations: readonly Operation[] = operations.filter((op) => op.requiresKey);

/** Uploads a small PNG with the first project's key; the id, or why there is none. */
async function uploadedAssetId(t: CheckContext): Promise<string | NotPrepared> {
  const reply = await t.a.upload(pngImage(), 'image/png');
  const id = reply.json?.id;
  return isSuccess(reply) && typeof id === 'string' ? id : new NotPrepared(`uploading a PNG with the key answered status ${reply.status}`);
}

/** A request of `op` that should succeed with the first project's key, with the resource it needs. */
export async function passingRequest(t: CheckContext, op: Operation): Promise<PassingRequest | NotPrepared> {
  const createdAssets = new Set<string>();
  const method = op.method.toUpperCase();
  const send = async (path: string, credential: Credential, body: { json?: unknown; raw?: Uint8Array; contentType?: string }) => {
    const reply = await t.anonymous.send({ method, path: withQuery(path, credential.query), headers: credential.headers, ...body });
    if (op.operationId === 'uploadAsset' && isSuccess(reply) && typeof reply.json?.id === 'string') createdAssets.add(reply.json.id);
    return reply;
  };
  const cleanup = async () => {
    for (const id of createdAssets) await t.a.deleteAsset(id).catch(() => undefined);
  };
  const needsAssets = op.path.startsWith('/v1/assets');
  if (needsAssets && !t.target.capabilities.has('assets')) return new NotPrepared('the target does not claim assets (--capabilities)');

  switch (op.operationId) {
    case 'decide': {
      const body = decideBody();
      return { operationId: op.operationId, label: `${method} ${op.path}`, controlLast: false, send: (c) => send(op.path, c, { json: body }), cleanup };
    }
    case 'submitFeedback': {
      // A decision under a request id of the caller's own (seed 2.7), so that the feedback is about a decision that exists.
      const requestId = `feedback-base-${randomBytes(8).toString('hex')}`;
      const decided = await t.a.decide(decideBody(), { 'x-request-id': requestId });
      if (!isSuccess(decided)) return new NotPrepared(`the decision the feedback is about answered status ${decided.status}`);
      const body = referenceFeedbackBody(decided.headers['x-request-id'] ?? requestId, ['topic'], true);
      return {
        operationId: op.operationId,
        label: `${method} ${op.path}`,
        controlLast: false,
        openPoint: 'feedback-shape',
        send: (c) => send(op.path, c, { json: body }),
        cleanup,
      };
    }
    case 'uploadAsset': {
      const bytes = pngImage();
      return {
        operationId: op.operationId,
        label: `${method} ${op.path} (a PNG)`,
        controlLast: false,
        send: (c) => send(op.path, c, { raw: bytes, contentType: 'image/png' }),
        cleanup,
      };
    }
    case 'getAsset':
    case 'deleteAsset': {
      const id = await uploadedAssetId(t);
      if (id instanceof NotPrepared) return id;
      createdAssets.add(id);
      const path = op.path.replace('{asset_id}', encodeURIComponent(id));
      return { operationId: op.operationId, label: `${method} ${path}`, controlLast: op.method === 'delete', send: (c) => send(path, c, {}), cleanup };
    }
    default: {
      if (op.path.includes('{') || op.method !== 'get') return new NotPrepared(`the kit has no passing request for ${op.operationId}`);
      return { operationId: op.operationId, label: `${method} ${op.path}`, controlLast: false, send: (c) => send(op.path, c, {}), cleanup };
    }
  }
}

// POST /v1/assets, GET and DELETE /v1/assets/{asset_id} (seed 2.5, 3, 4.5 to 4.7).
import type { FastifyInstance } from 'fastify';
import { defaultAssetLifetimeMs, requestBodyLimitBytes, schemaValidator } from '../../../spec/index.ts';
import { isWrittenInLowerCase } from '../../assets/content-type.ts';
import { inspectUpload } from '../../assets/media.ts';
import type { AudioReader } from '../../assets/reading/audio.ts';
import type { AssetReader } from '../../assets/reading/asset-reader.ts';
import { assetFailure, type AssetLookupFailure, type AssetStore } from '../../assets/store.ts';
import { failure, sendFailure, type ApiFailure } from '../errors.ts';

export const UPLOAD_PATH = '/v1/assets';

const isAssetId = schemaValidator('AssetId');

/**
 * Registered in its own encapsulated context: uploads take any Content-Type as raw bytes, and
 * inspectUpload, not the body parser, decides whether the type is acceptable.
 */
/**
 * The lifetime a caller asked for in the profile's TTL header (open point asset-ttl): whole
 * seconds from 1 up to the default lifetime; it can only shorten the project's own.
 */
function requestedTtl(header: string | string[] | undefined, projectTtlMs: number): { ttlMs: number } | { failure: ApiFailure } {
  if (header === undefined) return { ttlMs: projectTtlMs };
  const maxSeconds = defaultAssetLifetimeMs / 1000;
  const text = Array.isArray(header) ? '' : header.trim();
  const seconds = /^[0-9]{1,9}$/.test(text) ? Number(text) : Number.NaN;
  if (!(seconds >= 1 && seconds <= maxSeconds))
    return { failure: failure('INVALID_REQUEST', `The asset lifetime header must be whole seconds from 1 to ${maxSeconds}.`) };
  return { ttlMs: Math.min(seconds * 1000, projectTtlMs) };
}

export async function registerAssets(
  app: FastifyInstance,
  deps: { assets: AssetStore; audio: AudioReader; reader: AssetReader; ttlOf(projectId: string): number },
): Promise<void> {
  const {
    assetReadStatus,
    assetDeleteStatus,
    malformedAssetIdCode,
    assetAfterDeleteCode,
    expiredReadCode,
    sha256LetterCase,
    uploadTypeParameters,
    uploadTypeCase,
    fileSizeLimits,
    assetTtlHeader,
  } = app.profile;
  /** The upload body limit (open point upload-body-limit): the 256 KiB request limit, or the largest file of any family. */
  const maxUploadBytes = app.profile.uploadsWithinBodyLimit ? requestBodyLimitBytes : Math.max(...Object.values(fileSizeLimits));
  /** The asset as the profile shows it (open point sha256-encoding). */
  const shown = <T extends { sha256: string }>(asset: T): T => (sha256LetterCase === 'upper' ? { ...asset, sha256: asset.sha256.toUpperCase() } : asset);
  /** A failed read or delete (open points asset-after-delete and asset-read-after-expiry). */
  const readFailure = (reason: AssetLookupFailure, assetId: string) => {
    const answer = assetFailure(reason, assetId, assetAfterDeleteCode);
    return reason === 'expired' ? failure(expiredReadCode, answer.message) : answer;
  };
  await app.register(async (uploads) => {
    uploads.removeAllContentTypeParsers();
    uploads.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: maxUploadBytes }, (_request, body, done) => done(null, body));
    uploads.post(UPLOAD_PATH, { bodyLimit: maxUploadBytes }, async (request, reply) => {
      const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      if (uploadTypeParameters === 'refuse' && request.headers['content-type']?.includes(';')) {
        return sendFailure(request, reply, failure('UNSUPPORTED_MIME_TYPE', 'Send the bare MIME type of the file as Content-Type, without parameters.'));
      }
      if (uploadTypeCase === 'exact' && !isWrittenInLowerCase(request.headers['content-type'])) {
        return sendFailure(request, reply, failure('UNSUPPORTED_MIME_TYPE', 'Send the MIME type of the file in lower case, as the accepted types are listed.'));
      }
      const verdict = await inspectUpload(bytes, request.headers['content-type'], (family) => fileSizeLimits[family]);
      if (!verdict.ok) return sendFailure(request, reply, failure(verdict.code, verdict.message));
      const ttl =
        assetTtlHeader === null
          ? { ttlMs: deps.ttlOf(request.projectId) }
          : requestedTtl(request.headers[assetTtlHeader.toLowerCase()], deps.ttlOf(request.projectId));
      if ('failure' in ttl) return sendFailure(request, reply, ttl.failure);
      const asset = await deps.assets.put(request.projectId, bytes, verdict.mimeType, ttl.ttlMs);
      // Read off the request path (worker threads, kept by sha256): the upload is answered now,
      // and the first decision referencing the file finds its reading done.
      if (verdict.family === 'audio') void deps.audio.read(bytes, verdict.mimeType, asset.sha256);
      else deps.reader.readSoon(asset, bytes);
      return reply.code(201).send(shown(asset));
    });
  });

  const withAsset =
    (action: 'read' | 'delete') =>
    async (request: import('fastify').FastifyRequest<{ Params: { asset_id: string } }>, reply: import('fastify').FastifyReply) => {
      const assetId = request.params.asset_id;
      if (!isAssetId(assetId).valid) {
        return sendFailure(request, reply, failure(malformedAssetIdCode, `/asset_id must match ^asset_[A-Za-z0-9_-]{8,64}$.`));
      }
      if (action === 'read') {
        const found = deps.assets.lookup(request.projectId, assetId);
        if (!found.ok) return sendFailure(request, reply, readFailure(found.reason, assetId));
        return reply.code(assetReadStatus).send(shown(found.asset));
      }
      const removed = await deps.assets.remove(request.projectId, assetId);
      if (!removed.ok) return sendFailure(request, reply, readFailure(removed.reason, assetId));
      return reply.code(assetDeleteStatus).send(removed.deleted);
    };
  app.get(`${UPLOAD_PATH}/:asset_id`, withAsset('read'));
  app.delete(`${UPLOAD_PATH}/:asset_id`, withAsset('delete'));
}

import { describe } from 'vitest';
import type { EmbeddedTarget } from '../../api/embedded-target.ts';
import { isOperation, rewriteJson, type Mutation, type ProxiedRequest } from '../../harness/testing/mutating-proxy.ts';
import { proveChecks } from './support/proof.ts';

type Project = 'keyA' | 'keyB';
const other = (project: Project): Project => (project === 'keyA' ? 'keyB' : 'keyA');

/**
 * A server that acts on `method` requests under `pathPrefix` as if they came from the owner:
 * the key of `caller` is swapped for the other project's before the request arrives.
 */
const actsAsOwner =
  (caller: Project, method: string, pathPrefix: string) =>
  (target: EmbeddedTarget): Mutation => ({
    request: (sent: ProxiedRequest) =>
      isOperation(sent, method, pathPrefix) && sent.headers.authorization === `Bearer ${target[caller]}`
        ? { ...sent, headers: { ...sent.headers, authorization: `Bearer ${target[other(caller)]}` } }
        : sent,
  });

/** A server that hides other projects' assets: 403 ASSET_FORBIDDEN turned into 404 ASSET_NOT_FOUND. */
const hidesForeignAssets = (): Mutation => ({
  response: (received) =>
    received.status === 403 ? rewriteJson({ ...received, status: 404 }, (body) => ({ error: { ...body.error, code: 'ASSET_NOT_FOUND' } })) : received,
});

/**
 * A server that refuses `method` requests under `pathPrefix` with 403 ASSET_FORBIDDEN whoever
 * sends them, owner included: a refusal that does not come from the project.
 */
const forbidsEveryone = (method: string, pathPrefix: string) => (): Mutation => ({
  answer: (sent: ProxiedRequest) =>
    isOperation(sent, method, pathPrefix)
      ? {
          status: 403,
          headers: { 'content-type': 'application/json', 'x-request-id': 'req_403' },
          body: Buffer.from('{"error":{"code":"ASSET_FORBIDDEN","message":"Forbidden.","request_id":"req_403"}}'),
        }
      : undefined,
});

describe('isolation checks', () => {
  proveChecks('isolation', {
    'ISOLATION-GET-FORBIDDEN': [
      { fault: "lets project B read project A's assets", mutation: actsAsOwner('keyB', 'GET', '/v1/assets/') },
      { fault: 'answers 404 ASSET_NOT_FOUND for assets of other projects', mutation: hidesForeignAssets },
      { fault: "refuses every read of an asset, the owner's too", mutation: forbidsEveryone('GET', '/v1/assets/') },
    ],
    'ISOLATION-DELETE-FORBIDDEN': [
      { fault: "lets project B delete project A's assets", mutation: actsAsOwner('keyB', 'DELETE', '/v1/assets/') },
      { fault: 'answers 404 ASSET_NOT_FOUND for assets of other projects', mutation: hidesForeignAssets },
      { fault: "refuses every delete of an asset, the owner's too", mutation: forbidsEveryone('DELETE', '/v1/assets/') },
    ],
    'ISOLATION-REFERENCE-FORBIDDEN': [
      { fault: "lets project B's decisions use project A's assets", mutation: actsAsOwner('keyB', 'POST', '/v1/decide') },
      { fault: 'answers 404 ASSET_NOT_FOUND for assets of other projects', mutation: hidesForeignAssets },
      { fault: "refuses every decision, the owner's too", mutation: forbidsEveryone('POST', '/v1/decide') },
    ],
    'ISOLATION-OWNER-UNAFFECTED': [
      { fault: "carries out project B's delete of project A's asset", mutation: actsAsOwner('keyB', 'DELETE', '/v1/assets/') },
      {
        fault: "marks an asset as deleted when another project's delete was refused",
        mutation: () => {
          const refused = new Set<string>();
          return {
            response: (received, sent) => {
              const assetId = sent.path.split('/').pop() ?? '';
              if (isOperation(sent, 'DELETE', '/v1/assets/') && received.status === 403) refused.add(assetId);
              if (isOperation(sent, 'GET', '/v1/assets/') && refused.has(assetId))
                return rewriteJson({ ...received, status: 404 }, () => ({
                  error: { code: 'ASSET_NOT_FOUND', message: 'Deleted.', request_id: received.headers['x-request-id'] ?? null },
                }));
              return received;
            },
          };
        },
      },
    ],
    'ISOLATION-REVERSE-GET-DELETE-FORBIDDEN': [
      { fault: "lets project A read project B's assets", mutation: actsAsOwner('keyA', 'GET', '/v1/assets/') },
      { fault: "lets project A delete project B's assets", mutation: actsAsOwner('keyA', 'DELETE', '/v1/assets/') },
      { fault: "refuses every read of an asset, the owner's too", mutation: forbidsEveryone('GET', '/v1/assets/') },
    ],
    'ISOLATION-REVERSE-REFERENCE-FORBIDDEN': [
      { fault: "lets project A's decisions use project B's assets", mutation: actsAsOwner('keyA', 'POST', '/v1/decide') },
      { fault: "refuses every decision, the owner's too", mutation: forbidsEveryone('POST', '/v1/decide') },
    ],
  });
});

// Deliberately broken servers that are right one request at a time and wrong when requests
// overlap. Each keeps one piece of state shared between requests across an await, the way real
// servers get it from batching, caching, pools and id generators. Placed in front of a good
// server with startMutatingProxy, they are what the concurrency checks must catch; a sequential
// run cannot see them, because the shared state only goes wrong when another request passes
// through it in the meantime. Each entry fits a proof's list of broken servers as it is
// (`'CHECK-ID': [overlapBugs.uploadIdRace]`), or runs alone:
// `startMutatingProxy(good.baseUrl, overlapBugs.uploadIdRace.mutation(good))`.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { schemaValidator } from '../../spec/index.ts';
import { isSuccess } from '../expect.ts';
import { forward, isOperation, rewriteJson, type Mutation, type ProxiedRequest, type ProxiedResponse } from './mutating-proxy.ts';

/** The good server behind the proxy and the keys of its two projects. */
export interface OverlapTarget {
  baseUrl: string;
  keyA: string;
  keyB: string;
}

/** Structurally a BrokenServer of the conformance proofs. */
export interface OverlapBug {
  /** What is wrong with the server, in a few words. */
  fault: string;
  mutation(target: OverlapTarget): Mutation;
}

/**
 * How long each broken server holds its shared state across an await (a batch window, a pool
 * acquire, a store write). Requests sent together then dependably overlap inside it even on a
 * busy machine, while a request sent after the previous answer never does.
 */
export const CRITICAL_SECTION_MS = 15;

/** How many decides the broken pool serves at once; one more in flight gets a 5xx. */
export const POOL_SIZE = 3;

const isValidRequestId = schemaValidator('RequestId');

/** The caller's X-Request-ID when it is one the server keeps (seed 2.7), else undefined. */
function keptCallerId(sent: ProxiedRequest): string | undefined {
  const id = sent.headers['x-request-id'];
  return id !== undefined && isValidRequestId(id).valid ? id : undefined;
}

function generatedRequestId(): string {
  return `req_${randomBytes(12).toString('hex')}`;
}

/** The response under another request id: the header, and error.request_id where the body has one. */
function underRequestId(received: ProxiedResponse, id: string): ProxiedResponse {
  const body =
    received.status >= 400
      ? rewriteJson(received, (json) => (typeof json?.error?.request_id === 'string' ? { ...json, error: { ...json.error, request_id: id } } : json))
      : received;
  return { ...body, headers: { ...body.headers, 'x-request-id': id } };
}

const isDecide = (sent: ProxiedRequest) => isOperation(sent, 'POST', '/v1/decide');
const isUpload = (sent: ProxiedRequest) => isOperation(sent, 'POST', '/v1/assets');

/** The decide body's context as a cache key, or undefined when the body has none. */
function contextKey(sent: ProxiedRequest): string | undefined {
  try {
    const context = (JSON.parse(sent.body.toString('utf8')) as { context?: unknown } | null)?.context;
    return context === undefined ? undefined : JSON.stringify(context);
  } catch {
    return undefined;
  }
}

const ASSET_ID_TOKEN = /asset_[A-Za-z0-9_-]{8,64}/g;

/** Replaces every asset id in `text` that `ids` knows. */
function renameAssetIds(text: string, ids: ReadonlyMap<string, string>): string {
  return text.replace(ASSET_ID_TOKEN, (id) => ids.get(id) ?? id);
}

/** renameAssetIds on a body; read as latin1, so that bytes that are not UTF-8 go through unchanged (asset ids are ASCII). */
function renameAssetIdsInBody(body: Buffer, ids: ReadonlyMap<string, string>): Buffer {
  const text = body.toString('latin1');
  const renamed = renameAssetIds(text, ids);
  return renamed === text ? body : Buffer.from(renamed, 'latin1');
}

export const overlapBugs = {
  /**
   * A request-id middleware that keeps "the current request id" in a module-level variable: set
   * when a request arrives, read when its response leaves. Requests sent without an id get a
   * generated one there too, so overlapping requests share one generated id.
   */
  requestIdInSharedState: {
    fault: 'keeps the request id in shared state',
    mutation: () => {
      let currentRequestId = '';
      return {
        async request(sent) {
          // An invalid caller id is left to the good server (kept out of the shared variable).
          if (sent.headers['x-request-id'] !== undefined && keptCallerId(sent) === undefined) return sent;
          const id = keptCallerId(sent) ?? generatedRequestId();
          currentRequestId = id;
          await sleep(CRITICAL_SECTION_MS); // the access log line is written before the request is handled
          return { ...sent, headers: { ...sent.headers, 'x-request-id': id } };
        },
        response(received, sent) {
          const ownId = sent.headers['x-request-id'];
          if (ownId === undefined || received.headers['x-request-id'] !== ownId) return received;
          return underRequestId(received, currentRequestId);
        },
      };
    },
  },

  /**
   * Request coalescing keyed by the context alone: while a decide is in flight, another decide
   * with the same context is answered with the first one's answers, whatever its questions. The
   * entry lives only while the first request is in flight (a batch window), so one request at a
   * time never meets it.
   */
  answerCacheKeyedByContext: {
    fault: 'shares answers between overlapping decides of the same context',
    mutation: ({ baseUrl }) => {
      const inFlight = new Map<string, Promise<ProxiedResponse>>();
      return {
        async answer(sent) {
          if (!isDecide(sent)) return undefined;
          const key = contextKey(sent);
          if (key === undefined) return undefined;
          const first = inFlight.get(key);
          if (first) {
            // Its own response keeps its status and request id; the answers are the first one's.
            const own = await forward(baseUrl, sent);
            const shared = await first;
            return isSuccess(own) && isSuccess(shared) ? { ...own, body: shared.body } : own;
          }
          const answered = sleep(CRITICAL_SECTION_MS).then(() => forward(baseUrl, sent)); // the batch window
          inFlight.set(key, answered);
          try {
            return await answered;
          } finally {
            inFlight.delete(key);
          }
        },
      };
    },
  },

  /**
   * An asset id generator that reads the last id issued, stores the upload, then writes the new
   * last id: uploads that overlap get the same id, and that id then names whichever upload wrote
   * its record last. The proxy hands out its own ids and maps them to the good server's, so that
   * one upload at a time is fully correct.
   */
  uploadIdRace: {
    fault: 'gives overlapping uploads the same asset id',
    mutation: ({ baseUrl }) => {
      let lastIssued = 0;
      const serverIdOf = new Map<string, string>();
      const publicIdOf = new Map<string, string>();
      return {
        async answer(sent) {
          const toServer = {
            ...sent,
            path: renameAssetIds(sent.path, serverIdOf),
            body: isUpload(sent) ? sent.body : renameAssetIdsInBody(sent.body, serverIdOf),
          };
          const issued = isUpload(sent) ? lastIssued + 1 : undefined; // read
          const received = await forward(baseUrl, toServer);
          if (issued !== undefined && received.status === 201) {
            await sleep(CRITICAL_SECTION_MS); // the id record is written to the metadata store
            lastIssued = issued; // write
            const serverId = (JSON.parse(received.body.toString('utf8')) as { id: string }).id;
            const publicId = `asset_seq${String(issued).padStart(10, '0')}`;
            serverIdOf.set(publicId, serverId);
            publicIdOf.set(serverId, publicId);
          }
          const headers = Object.fromEntries(Object.entries(received.headers).map(([name, value]) => [name, renameAssetIds(value, publicIdOf)]));
          return { ...received, headers, body: renameAssetIdsInBody(received.body, publicIdOf) };
        },
      };
    },
  },

  /**
   * An authentication layer that resolves the caller's project into shared state and reads it
   * back after an await: a request sent while another project's requests are in flight is
   * executed as that other project.
   */
  projectInSharedState: {
    fault: 'keeps the caller project in shared state',
    mutation: () => {
      let currentAuthorization: string | undefined;
      return {
        async request(sent) {
          currentAuthorization = sent.headers.authorization;
          await sleep(CRITICAL_SECTION_MS); // the key is looked up in the project store
          const { authorization: _own, ...headers } = sent.headers;
          return { ...sent, headers: currentAuthorization === undefined ? headers : { ...headers, authorization: currentAuthorization } };
        },
      };
    },
  },

  /**
   * A pool of POOL_SIZE inference workers that answers 503 in the seed's error body when a decide
   * arrives while all of them are busy, instead of queueing it.
   */
  errorsUnderOverlap: {
    fault: 'answers 5xx when more than a few decides are in flight',
    mutation: ({ baseUrl }) => {
      let busy = 0;
      return {
        async answer(sent) {
          if (!isDecide(sent)) return undefined;
          if (busy >= POOL_SIZE) return poolExhausted(sent);
          busy += 1;
          try {
            await sleep(CRITICAL_SECTION_MS); // a worker is acquired from the pool
            return await forward(baseUrl, sent);
          } finally {
            busy -= 1;
          }
        },
      };
    },
  },
} satisfies Record<string, OverlapBug>;

export type OverlapBugName = keyof typeof overlapBugs;

function poolExhausted(sent: ProxiedRequest): ProxiedResponse {
  const requestId = keptCallerId(sent) ?? generatedRequestId();
  const body = { error: { code: 'UPSTREAM_UNAVAILABLE', message: 'No inference worker is free.', request_id: requestId } };
  return { status: 503, headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId }, body: Buffer.from(JSON.stringify(body)) };
}

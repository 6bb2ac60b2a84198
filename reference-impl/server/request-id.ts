// X-Request-ID (seed 2.7): keep a valid caller id, otherwise generate `req_<hex>`.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { schemaValidator } from '../../spec/index.ts';
import { failure, sendFailure } from './errors.ts';

const isValidRequestId = schemaValidator('RequestId');

const ID_BYTES = 12;
/** Random bytes for this many ids are drawn at once: one call per id cost more than the id's use. */
const IDS_PER_DRAW = 512;
let pool = Buffer.alloc(0);
let poolAt = 0;

export function generateRequestId(): string {
  if (poolAt + ID_BYTES > pool.length) {
    pool = randomBytes(ID_BYTES * IDS_PER_DRAW);
    poolAt = 0;
  }
  const id = `req_${pool.toString('hex', poolAt, poolAt + ID_BYTES)}`;
  poolAt += ID_BYTES;
  return id;
}

/**
 * Fastify's genReqId. An invalid caller id is never kept: it is replaced by a generated one,
 * and the profile may refuse the request as well (installCallerRequestIdPolicy).
 */
export function requestIdFor(raw: IncomingMessage): string {
  const sent = raw.headers['x-request-id'];
  if (typeof sent === 'string' && isValidRequestId(sent).valid) return sent;
  return generateRequestId();
}

/**
 * Open point invalid-caller-request-id: the reference profile serves the request under a
 * generated id (a tracing header should never make a request fail); the alternate refuses it.
 */
export function installCallerRequestIdPolicy(app: FastifyInstance): void {
  if (app.profile.invalidCallerRequestId !== 'refuse') return;
  app.addHook('onRequest', async (request, reply) => {
    const sent = request.headers['x-request-id'];
    if (sent === undefined || (typeof sent === 'string' && isValidRequestId(sent).valid)) return;
    return sendFailure(request, reply, failure('INVALID_REQUEST', 'X-Request-ID must be 1 to 128 letters, digits, ".", "_", ":" or "-".'));
  });
}

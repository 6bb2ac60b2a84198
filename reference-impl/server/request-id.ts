// X-Request-ID (seed 2.7): keep a valid caller id, otherwise generate `req_<hex>`.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { schemaValidator } from '../../spec/index.ts';

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
 * Fastify's genReqId. An invalid caller id is ignored rather than rejected (open point
 * invalid-caller-request-id): a tracing header should never make a request fail.
 */
export function requestIdFor(raw: IncomingMessage): string {
  const sent = raw.headers['x-request-id'];
  if (typeof sent === 'string' && isValidRequestId(sent).valid) return sent;
  return generateRequestId();
}

// X-Request-ID (seed 2.7): keep a valid caller id, otherwise generate `req_<hex>`.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { schemaValidator } from '../../spec/index.ts';

const isValidRequestId = schemaValidator('RequestId');

export function generateRequestId(): string {
  return `req_${randomBytes(12).toString('hex')}`;
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

// The seed's one error body, and the statuses the reference server answers each code with.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorCode } from '../../spec/index.ts';

export interface ErrorBody {
  error: { code: string; message: string; request_id: string | null };
}

/** A failure a handler reports: the error code and a message naming the offending field. */
export interface ApiFailure {
  code: string;
  message: string;
  /** Extra response headers, e.g. Retry-After. */
  headers?: Record<string, string>;
  /** Leaves error.request_id null (open point error-request-id-null); the header is sent all the same. */
  nullRequestId?: boolean;
}

export function failure(code: string, message: string, headers?: Record<string, string>): ApiFailure {
  return headers ? { code, message, headers } : { code, message };
}

/**
 * A failure thrown rather than sent, by code that only throws (a Fastify plugin's hook): the
 * error handler sends it as it is.
 */
export class RaisedFailure extends Error {
  constructor(readonly failure: ApiFailure) {
    super(failure.message);
  }
}

/**
 * Sends a failure in the seed's error body, with the status the spec states (or the reference
 * status); the server's profile may answer a name-only code with another code (open point name-only-statuses).
 */
export function sendFailure(request: FastifyRequest, reply: FastifyReply, { code: raised, message, headers, nullRequestId }: ApiFailure): FastifyReply {
  const code = request.server.profile.replacedCodes[raised] ?? raised;
  const body: ErrorBody = { error: { code, message, request_id: nullRequestId ? null : request.id } };
  if (headers) reply.headers(headers);
  return reply.code(errorCode(code).referenceStatus).type('application/json').send(body);
}

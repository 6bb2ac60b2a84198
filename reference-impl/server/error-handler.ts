// Every error, from any layer, leaves in the seed's error body: never Fastify's own shape,
// never a stack trace, never request content in the logs.
import type { FastifyError, FastifyInstance } from 'fastify';
import { requestBodyLimitBytes } from '../../spec/index.ts';
import { drainRequestBody } from './drain-request.ts';
import { failure, RaisedFailure, sendFailure, type ApiFailure } from './errors.ts';

/** Maps an error thrown by Fastify or a handler to the failure the caller sees. */
export function failureForError(error: FastifyError, upload: 'not-upload' | 'upload' | 'upload-within-body-limit'): ApiFailure | undefined {
  if (error instanceof RaisedFailure) return error.failure;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      if (upload === 'upload') return failure('ASSET_TOO_LARGE', 'The file is over the largest size limit of any accepted type.');
      if (upload === 'upload-within-body-limit')
        return failure('ASSET_TOO_LARGE', `The file is over ${requestBodyLimitBytes} bytes (256 KiB), the request body limit, which uploads share.`);
      return failure('PAYLOAD_TOO_LARGE', `The request body is over ${requestBodyLimitBytes} bytes (256 KiB).`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      // An upload reaches this only with a Content-Type the parser cannot read at all (an empty one).
      return failure(
        'UNSUPPORTED_MIME_TYPE',
        upload === 'not-upload' ? 'Send Content-Type: application/json.' : 'Content-Type is required: the MIME type of the file.',
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return failure('INVALID_REQUEST', 'The body is empty; send a JSON object.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return failure('INVALID_REQUEST', 'The body is not valid JSON.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return failure('INVALID_REQUEST', 'The Content-Length header does not match the body.');
  }
  // JSON.parse's own SyntaxError quotes the body; its message is never passed on or logged.
  if (error instanceof SyntaxError || (error as { type?: string }).type === 'entity.parse.failed') {
    return failure('INVALID_REQUEST', 'The body is not valid JSON.');
  }
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return failure('INVALID_REQUEST', 'The request could not be read.');
  }
  return undefined;
}

export function installErrorHandlers(app: FastifyInstance, uploadPath: string): void {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const upload = request.routeOptions.url !== uploadPath ? 'not-upload' : app.profile.uploadsWithinBodyLimit ? 'upload-within-body-limit' : 'upload';
    const mapped = failureForError(error, upload);
    // A body the parser refused may still be arriving: read it first (drain-request.ts).
    if (error.code?.startsWith('FST_ERR_CTP_')) await drainRequestBody(request.raw);
    if (mapped) return sendFailure(request, reply, mapped);
    // Log what failed, not what was sent: the error's code and stack, never the body.
    request.log.error({ err: { code: error.code, name: error.name, stack: error.stack } }, 'request failed');
    return sendFailure(request, reply, failure('INTERNAL_ERROR', `Internal error; quote request id ${request.id} when reporting it.`));
  });

  app.setNotFoundHandler((request, reply) => {
    const { unknownRouteCode, nullRequestIdOn } = app.profile;
    const answer = failure(unknownRouteCode, `No route ${request.method} ${request.url.split('?')[0]}.`);
    return sendFailure(request, reply, nullRequestIdOn.includes('unknown-route') ? { ...answer, nullRequestId: true } : answer);
  });
}

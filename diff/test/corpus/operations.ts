// Operation cases: paths, operations, security, parameters, request bodies, responses.
import type { CorpusCase } from './case.ts';

export const operationCases: CorpusCase[] = [
  {
    name: 'operation removed (DELETE /v1/assets/{asset_id})',
    change: (doc) => delete doc.paths['/v1/assets/{asset_id}'].delete,
    forward: ['operation-removed'],
    reverse: ['operation-added'],
  },
  {
    name: 'path removed (/v1/models)',
    change: (doc) => delete doc.paths['/v1/models'],
    forward: ['path-removed'],
    reverse: ['path-added'],
  },
  {
    name: 'operationId changed',
    change: (doc) => (doc.paths['/v1/decide'].post.operationId = 'createDecision'),
    forward: ['operation-id-changed'],
    reverse: ['operation-id-changed'],
  },
  {
    name: 'security added to an open operation (GET /health)',
    change: (doc) => delete doc.paths['/health'].get.security,
    forward: ['security-added'],
    reverse: ['security-removed'],
  },
  {
    name: 'security scheme swapped on an operation',
    change: (doc) => {
      doc.components.securitySchemes.apiKeyHeader = { type: 'apiKey', in: 'header', name: 'X-API-Key' };
      doc.paths['/v1/decide'].post.security = [{ apiKeyHeader: [] }];
    },
    forward: ['security-changed'],
    // Undone, the apiKeyHeader scheme itself disappears too.
    reverse: ['security-changed', 'security-scheme-changed'],
  },
  {
    name: 'security scheme redefined (bearer -> basic)',
    change: (doc) => (doc.components.securitySchemes.bearerAuth.scheme = 'basic'),
    forward: ['security-scheme-changed'],
    reverse: ['security-scheme-changed'],
  },
  {
    name: 'new required header parameter',
    change: (doc) => (doc.paths['/v1/decide'].post.parameters = [{ name: 'X-Tenant', in: 'header', required: true, schema: { type: 'string' } }]),
    forward: ['request-parameter-added-required'],
    reverse: ['request-parameter-removed'],
  },
  {
    name: 'new optional query parameter',
    change: (doc) => (doc.paths['/v1/models'].get.parameters = [{ name: 'limit', in: 'query', required: false, schema: { type: 'integer' } }]),
    forward: ['request-parameter-added'],
    reverse: ['request-parameter-removed'],
  },
  {
    name: 'header parameter became required (X-Request-ID, every operation)',
    change: (doc) => (doc.components.parameters.RequestIdHeader.required = true),
    forward: ['request-parameter-became-required'],
    reverse: ['request-parameter-became-optional'],
  },
  {
    name: 'rename: header parameter renamed (X-Request-ID -> X-Correlation-ID)',
    change: (doc) => (doc.components.parameters.RequestIdHeader.name = 'X-Correlation-ID'),
    forward: ['request-parameter-renamed'],
    reverse: ['request-parameter-renamed'],
  },
  {
    name: 'rename: path parameter renamed ({asset_id} -> {id}); the URL is unchanged',
    change: (doc) => {
      doc.paths['/v1/assets/{id}'] = doc.paths['/v1/assets/{asset_id}'];
      delete doc.paths['/v1/assets/{asset_id}'];
      doc.components.parameters.AssetIdPath.name = 'id';
    },
    forward: ['request-path-parameter-renamed'],
    reverse: ['request-path-parameter-renamed'],
  },
  {
    name: 'parameter moved from header to query',
    change: (doc) => (doc.components.parameters.RequestIdHeader.in = 'query'),
    forward: ['request-parameter-location-changed'],
    reverse: ['request-parameter-location-changed'],
  },
  {
    name: 'request body became optional',
    change: (doc) => (doc.paths['/v1/decide'].post.requestBody.required = false),
    forward: ['request-body-became-optional'],
    reverse: ['request-body-became-required'],
  },
  {
    name: 'request body removed',
    change: (doc) => delete doc.paths['/v1/feedback'].post.requestBody,
    forward: ['request-body-removed'],
    reverse: ['request-body-became-required'],
  },
  {
    name: 'request media type removed (audio/ogg uploads)',
    change: (doc) => delete doc.paths['/v1/assets'].post.requestBody.content['audio/ogg'],
    forward: ['request-media-type-removed'],
    reverse: ['request-media-type-added'],
  },
  {
    name: 'request media type loses its schema (text/plain uploads take any body), then gains it back',
    change: (doc) => delete doc.paths['/v1/assets'].post.requestBody.content['text/plain'].schema,
    forward: ['request-type-widened', 'request-format-removed'],
    reverse: ['request-type-narrowed', 'request-format-changed'],
  },
  {
    name: 'response media type loses its schema (GET /health may answer any JSON), then gains it back',
    change: (doc) => delete doc.paths['/health'].get.responses['200'].content['application/json'].schema,
    forward: ['response-type-widened', 'response-property-removed'],
    reverse: ['response-type-narrowed', 'response-property-added-required'],
  },
  {
    name: 'response status removed (410 of GET /v1/assets/{asset_id})',
    change: (doc) => delete doc.paths['/v1/assets/{asset_id}'].get.responses['410'],
    forward: ['response-status-removed'],
    reverse: ['response-status-added'],
  },
  {
    name: 'response status moved (upload success 201 -> 200)',
    change: (doc) => {
      const responses = doc.paths['/v1/assets'].post.responses;
      responses['200'] = responses['201'];
      delete responses['201'];
    },
    forward: ['response-status-removed', 'response-status-added'],
    reverse: ['response-status-removed', 'response-status-added'],
  },
  {
    name: 'response media type removed',
    change: (doc) => {
      const ok = doc.paths['/health'].get.responses['200'];
      ok.content['text/plain'] = { schema: { type: 'string' } };
    },
    forward: ['response-media-type-added'],
    reverse: ['response-media-type-removed'],
  },
  {
    name: 'response header removed (Retry-After of 429)',
    change: (doc) => delete doc.components.responses.RateLimited.headers['Retry-After'],
    forward: ['response-header-removed'],
    reverse: ['response-header-added'],
  },
  {
    name: 'response header became optional (X-Request-ID)',
    change: (doc) => (doc.components.headers.RequestId.required = false),
    forward: ['response-header-became-optional'],
    reverse: [],
  },
  {
    name: 'a $ref-shared component judged per use: RequestId maxLength 128 -> 64 breaks requests only',
    change: (doc) => (doc.components.schemas.RequestId.maxLength = 64),
    forward: ['request-max-length-decreased', 'response-max-length-decreased'],
    reverse: ['request-max-length-increased', 'response-max-length-increased'],
  },
  {
    // The feedback record's answers have their own open schema (RecordedAnswerFeedback, seed 9.3):
    // a required field added to the request's AnswerFeedback breaks requests and touches no response.
    name: 'a request-only component: AnswerFeedback gains a required field, the response schema is its own',
    change: (doc) => {
      doc.components.schemas.AnswerFeedback.properties.note = { type: 'string' };
      doc.components.schemas.AnswerFeedback.required.push('note');
    },
    forward: ['request-property-added-required'],
    reverse: ['request-property-removed'],
  },
  {
    name: 'several changes at once',
    change: (doc) => {
      delete doc.paths['/v1/models'];
      doc.components.schemas.TextContext.maxLength = 4000;
      doc.components.schemas.Feedback.properties.channel = { type: 'string' };
      doc.components.parameters.RequestIdHeader.required = true;
    },
    forward: ['path-removed', 'request-max-length-decreased', 'response-property-added', 'request-parameter-became-required'],
    reverse: ['path-added', 'request-max-length-increased', 'response-property-removed', 'request-parameter-became-optional'],
  },
];

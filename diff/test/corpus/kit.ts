// Cases for the kit's own extensions (seed limits, open points, error codes, hard rules) and
// for versioning (seed 9).
import type { CorpusCase } from './case.ts';

export const kitCases: CorpusCase[] = [
  {
    name: 'seed limit lowered (request body 256 KiB -> 128 KiB)',
    change: (doc) => (doc['x-seed-limits'].request_body_bytes = 131072),
    forward: ['seed-limit-decreased'],
    reverse: ['seed-limit-increased'],
  },
  {
    name: 'model alias dropped',
    change: (doc) => (doc['x-seed-limits'].model_aliases = ['svc-one-v0']),
    forward: ['seed-limit-value-removed'],
    reverse: ['seed-limit-value-added'],
  },
  {
    name: 'current model renamed',
    change: (doc) => (doc['x-seed-limits'].current_model = 'svc-one-v2'),
    forward: ['seed-limit-changed'],
    reverse: ['seed-limit-changed'],
  },
  {
    name: 'seed limit added',
    change: (doc) => (doc['x-seed-limits'].max_questions = 16),
    forward: ['seed-limit-added'],
    reverse: ['seed-limit-changed'],
  },
  {
    name: 'open point reference choice changed (decide success status 200 -> 201)',
    change: (doc) => {
      const point = doc['x-open-points'].find((p: any) => p.id === 'decide-success-status');
      point['x-reference-choice'] = { summary: '201 Created.', status: 201 };
    },
    forward: ['open-point-reference-choice-changed'],
    reverse: ['open-point-reference-choice-changed'],
  },
  {
    name: 'open point removed',
    change: (doc) => (doc['x-open-points'] = doc['x-open-points'].filter((p: any) => p.id !== 'asset-ttl')),
    forward: ['open-point-removed'],
    reverse: ['open-point-added'],
  },
  {
    name: 'error code moved to another status (INVALID_REQUEST 400 -> 422)',
    change: (doc) => (doc.components.schemas.ErrorCode['x-codes'].INVALID_REQUEST.status = 422),
    forward: ['error-code-status-changed'],
    reverse: ['error-code-status-changed'],
  },
  {
    name: 'name-only error code gets a stated status',
    change: (doc) => (doc.components.schemas.ErrorCode['x-codes'].INVALID_OPTIONS.status = 400),
    forward: ['error-code-status-stated'],
    reverse: ['error-code-status-changed'],
  },
  {
    name: 'error code removed from the table and the enum (RATE_LIMITED)',
    change: (doc) => {
      const schema = doc.components.schemas.ErrorCode;
      schema.enum = schema.enum.filter((code: string) => code !== 'RATE_LIMITED');
      delete schema['x-codes'].RATE_LIMITED;
    },
    forward: ['error-code-removed', 'response-enum-value-removed'],
    reverse: ['error-code-added', 'response-enum-value-added'],
  },
  {
    name: 'error code condition reworded',
    change: (doc) => (doc.components.schemas.ErrorCode['x-codes'].CONFLICT.condition = 'Name only. Reference: duplicate feedback.'),
    forward: ['error-code-condition-changed'],
    reverse: ['error-code-condition-changed'],
  },
  {
    name: 'hard-rule section schema changed in a way no other rule classifies (TextPart description)',
    change: (doc) => (doc.components.schemas.TextPart.description = 'A text part.'),
    forward: ['hard-rule-schema-changed'],
    reverse: ['hard-rule-schema-changed'],
  },
  {
    name: 'hard-rule section schema changed beyond its annotations, judged to admit the same values (Question without `type: object`)',
    change: (doc) => delete doc.components.schemas.Question.type,
    forward: ['hard-rule-schema-equivalent'],
    reverse: ['hard-rule-schema-equivalent'],
  },
  {
    name: 'hard-rule section schema no operation reaches changed beyond its annotations',
    prepare: (doc) => (doc.components.schemas.UnusedLabel = { type: 'string', maxLength: 10, 'x-seed-section': ['2.2'] }),
    change: (doc) => (doc.components.schemas.UnusedLabel.maxLength = 5),
    forward: ['hard-rule-schema-unjudged'],
    reverse: ['hard-rule-schema-unjudged'],
  },
  {
    name: 'seed section gains hard rules (4.2)',
    change: (doc) => (doc['x-seed-sections'].find((s: any) => s.id === '4.2').hard_rules = true),
    forward: ['hard-rule-section-changed'],
    reverse: ['hard-rule-section-changed'],
  },
  {
    name: 'minor version bump',
    change: (doc) => (doc.info.version = '1.1.0'),
    forward: ['info-version-changed'],
    reverse: ['info-version-changed'],
  },
  {
    name: 'major version in info.version only: breaking changes stay breaking',
    change: (doc) => {
      doc.info.version = '2.0.0';
      delete doc.components.schemas.Feedback.properties.comment;
    },
    forward: ['major-version-inconsistent', 'response-property-removed'],
    reverse: ['major-version-inconsistent', 'response-property-added'],
  },
  {
    name: 'major version: /v1 -> /v2 with info.version 2.0.0 turns breaking changes into info',
    change: (doc) => {
      doc.info.version = '2.0.0';
      doc.paths = Object.fromEntries(Object.entries(doc.paths).map(([path, item]) => [path.replace(/^\/v1\//, '/v2/'), item]));
      delete doc.components.schemas.Feedback.properties.comment;
      doc.components.schemas.TextContext.maxLength = 4000;
    },
    forward: ['major-version-changed', 'response-property-removed', 'request-max-length-decreased'],
    // Back from /v2 to /v1 is not a new major version: the /v2 paths are gone and the /v1 paths new.
    // TextContext's maxLength change is then reached by no operation: its direction is not judged.
    reverse: ['major-version-inconsistent', 'path-removed', 'path-added', 'hard-rule-schema-unjudged'],
  },
];

export const mediaLimitCases: CorpusCase[] = [
  {
    name: 'media limit lowered (4 images -> 3 per request)',
    change: (doc) => (doc.components.schemas.ContentParts['x-media-limits'].image.max = 3),
    forward: ['request-media-limit-decreased'],
    reverse: ['request-media-limit-increased'],
  },
  {
    name: 'media limit error code changed',
    change: (doc) => (doc.components.schemas.ContentParts['x-media-limits'].audio.code = 'INVALID_REQUEST'),
    forward: ['media-limit-code-changed'],
    reverse: ['media-limit-code-changed'],
  },
  {
    name: 'upload family: file size lowered (image 10 MB -> 5 MB) and a type dropped (audio/ogg)',
    change: (doc) => {
      const families = doc.components.schemas.AssetMimeType['x-families'];
      families.image.max_file = '5 MB';
      families.audio.types = families.audio.types.filter((t: string) => t !== 'audio/ogg');
      doc.components.schemas.AssetMimeType.enum = doc.components.schemas.AssetMimeType.enum.filter((t: string) => t !== 'audio/ogg');
    },
    forward: ['request-media-limit-decreased', 'upload-type-removed', 'response-enum-value-removed'],
    reverse: ['request-media-limit-increased', 'upload-type-added', 'response-enum-value-added'],
  },
];

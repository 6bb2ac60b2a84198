import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { uploadCheckId } from '../assets.ts';
import { sha256EncodingOf } from '../../harness/assets-support.ts';
import { acceptedMimeTypes, familyOfType, pngImage, sizeLimitReadings, type SampleMimeType } from '../../harness/samples/media.ts';
import {
  isOperation,
  rewriteJson,
  rewriteJsonRequest,
  type Mutation,
  type ProxiedRequest,
  type ProxiedResponse,
} from '../../harness/testing/mutating-proxy.ts';
import { proveChecks, type BrokenServer } from './support/proof.ts';

const PROXY_REQUEST_ID = 'req_0000b40c3e';
const HOUR_MS = 3_600_000;

const answerJson = (status: number, body: unknown): ProxiedResponse => ({
  status,
  headers: { 'content-type': 'application/json', 'x-request-id': PROXY_REQUEST_ID },
  body: Buffer.from(JSON.stringify(body)),
});
const answerError = (status: number, code: string) =>
  answerJson(status, { error: { code, message: 'Answered by the broken server.', request_id: PROXY_REQUEST_ID } });
const fakeAsset = (mimeType: string, sizeBytes: number) => ({
  id: 'asset_brokenServer0001',
  object: 'asset',
  mime_type: mimeType,
  size_bytes: sizeBytes,
  sha256: '0'.repeat(64),
  created_at: '2026-01-01T00:00:00Z',
  expires_at: '2026-01-02T00:00:00Z',
});

const isUpload = (sent: ProxiedRequest) => sent.method === 'POST' && sent.path.split('?')[0] === '/v1/assets';
const isAssetPath = (sent: ProxiedRequest, method: string) => isOperation(sent, method, '/v1/assets/');
const isDecide = (sent: ProxiedRequest) => isOperation(sent, 'POST', '/v1/decide');
const assetIdOf = (sent: ProxiedRequest) => decodeURIComponent(sent.path.split('?')[0]!.split('/').pop()!);
const hasPartOfType = (sent: ProxiedRequest, type: string) => {
  try {
    const context = JSON.parse(sent.body.toString('utf8')).context;
    return Array.isArray(context) && context.some((part: { type?: string }) => part?.type === type);
  } catch {
    return false;
  }
};
const withAuthorization = (sent: ProxiedRequest, key: string): ProxiedRequest => ({ ...sent, headers: { ...sent.headers, authorization: `Bearer ${key}` } });

const FAMILY_OF: Record<string, string> = {
  'image/png': 'image',
  'image/jpeg': 'image',
  'image/webp': 'image',
  'audio/wav': 'audio',
  'audio/mpeg': 'audio',
  'application/pdf': 'document',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'document',
};

const sameFamily = (a: string | undefined, b: string | undefined) =>
  a !== undefined && b !== undefined && FAMILY_OF[a] !== undefined && FAMILY_OF[a] === FAMILY_OF[b];

/** The type of the kit's samples by their first bytes, as a server that sniffs instead of reading the declared type would see it. */
function sniffedType(body: Buffer): string | undefined {
  if (body.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (body.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (body[0] === 0xff && body[1] === 0xd8) return 'image/jpeg';
  if (body.subarray(0, 4).toString('latin1') === 'RIFF' && body.subarray(8, 12).toString('latin1') === 'WAVE') return 'audio/wav';
  if (body.subarray(0, 2).toString('latin1') === 'PK') return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  return undefined;
}

const OCTET_STREAM = 'application/octet-stream';
const plainText = (status: number, text: string): ProxiedResponse => ({
  status,
  headers: { 'content-type': 'text/plain', 'x-request-id': PROXY_REQUEST_ID },
  body: Buffer.from(text),
});

/** A server that reads the type from the content of the uploads `applies` to, whatever they declare. */
const storesAsSniffed = (applies: (sent: ProxiedRequest) => boolean): Mutation => ({
  request: (sent) =>
    isUpload(sent) && applies(sent) && sniffedType(sent.body) !== undefined
      ? { ...sent, headers: { ...sent.headers, 'content-type': sniffedType(sent.body)! } }
      : sent,
});

/** Rewrites the Asset a server answers to the stored uploads `applies` to. */
const onAcceptedReading = (applies: (sent: ProxiedRequest) => boolean, edit: (asset: any) => unknown): Mutation => ({
  response: (received, sent) => (isUpload(sent) && applies(sent) && received.status === 201 ? rewriteJson(received, edit) : received),
});

/** The smaller reading of the upload's family limit ("10 MB" as 10,000,000 bytes). */
const decimalLimitOf = (sent: ProxiedRequest) => {
  const type = sent.headers['content-type'] as SampleMimeType;
  return acceptedMimeTypes.includes(type) ? sizeLimitReadings(familyOfType(type)).decimal : Number.POSITIVE_INFINITY;
};

/** A server that refuses uploads `tooLarge` picks with 413 ASSET_TOO_LARGE. */
const refusingUploads = (tooLarge: (sent: ProxiedRequest) => boolean): Mutation => ({
  answer: (sent) => (isUpload(sent) && tooLarge(sent) ? answerError(413, 'ASSET_TOO_LARGE') : undefined),
});

const atLimitProofs: BrokenServer[] = [
  { fault: 'refuses a file of exactly the limit (< instead of ≤)', mutation: () => refusingUploads((sent) => sent.body.length >= decimalLimitOf(sent)) },
  { fault: 'measures uploads by their base64 size', mutation: () => refusingUploads((sent) => Math.ceil(sent.body.length / 3) * 4 > decimalLimitOf(sent)) },
];

/** Rewrites the Asset of a successful upload. */
const onUploaded = (edit: (asset: any, sent: ProxiedRequest) => unknown): Mutation => ({
  response: (received, sent) => (isUpload(sent) && received.status === 201 ? rewriteJson(received, (asset) => edit(asset, sent)) : received),
});

/** A server whose DELETE answers success without deleting anything. */
const deleteIsNoOp: BrokenServer = {
  fault: 'answers DELETE without deleting the asset',
  mutation: () => ({ answer: (sent) => (isAssetPath(sent, 'DELETE') ? answerJson(200, { id: assetIdOf(sent), object: 'asset', deleted: true }) : undefined) }),
};

/** A server that ignores the media parts of a decision (reads its text parts only). */
const ignoresMediaParts: BrokenServer = {
  fault: 'ignores the media parts of a decision',
  mutation: () => ({
    request: (sent) =>
      isDecide(sent) ? rewriteJsonRequest(sent, (body) => ({ ...body, context: body.context.filter((part: { type: string }) => part.type === 'text') })) : sent,
  }),
};

const otherAcceptedType = (type: string) => acceptedMimeTypes[(acceptedMimeTypes.indexOf(type as never) + 1) % acceptedMimeTypes.length];

const uploadProofs = Object.fromEntries(
  acceptedMimeTypes.map((mimeType): [string, BrokenServer[]] => [
    uploadCheckId(mimeType),
    [
      {
        fault: `refuses ${mimeType} with 415`,
        mutation: () => ({ answer: (sent) => (isUpload(sent) ? answerError(415, 'UNSUPPORTED_MIME_TYPE') : undefined) }),
      },
      {
        fault: 'echoes another accepted type as mime_type',
        mutation: () => onUploaded((asset) => ({ ...asset, mime_type: otherAcceptedType(asset.mime_type) })),
      },
      { fault: 'counts size_bytes one short', mutation: () => onUploaded((asset) => ({ ...asset, size_bytes: asset.size_bytes - 1 })) },
      {
        fault: 'answers the upload with 200 instead of 201',
        mutation: () => ({ response: (received, sent) => (isUpload(sent) && received.status === 201 ? { ...received, status: 200 } : received) }),
      },
    ],
  ]),
);

const tooLargeProofs: BrokenServer[] = [
  {
    fault: 'stores files over the family limit (413 turned into 201)',
    mutation: () => ({
      response: (received, sent) =>
        isUpload(sent) && received.status === 413 ? answerJson(201, fakeAsset(sent.headers['content-type'] ?? 'image/png', sent.body.length)) : received,
    }),
  },
  {
    fault: 'answers an oversize file with 413 PAYLOAD_TOO_LARGE',
    mutation: () => ({ response: (received, sent) => (isUpload(sent) && received.status === 413 ? answerError(413, 'PAYLOAD_TOO_LARGE') : received) }),
  },
];

const rejectsPartType = (type: string): BrokenServer => ({
  fault: `rejects ${type} parts with 400 UNSUPPORTED_MODALITY`,
  mutation: () => ({ answer: (sent) => (isDecide(sent) && hasPartOfType(sent, type) ? answerError(400, 'UNSUPPORTED_MODALITY') : undefined) }),
});

describe('assets checks', () => {
  proveChecks('assets', {
    ...uploadProofs,
    'ASSET-SHA256-MATCHES': [
      { fault: 'sends the SHA-256 of an empty file', mutation: () => onUploaded((asset) => ({ ...asset, sha256: createHash('sha256').digest('hex') })) },
      {
        fault: 'sends an MD5 of the file instead',
        mutation: () => onUploaded((asset, sent) => ({ ...asset, sha256: createHash('md5').update(sent.body).digest('hex') })),
      },
    ],
    'ASSET-SHA256-WHOLE-FILE': [
      {
        fault: 'hashes only the first MiB of a file',
        mutation: () =>
          onUploaded((asset, sent) => ({
            ...asset,
            sha256: createHash('sha256')
              .update(sent.body.subarray(0, 1024 * 1024))
              .digest('hex'),
          })),
      },
      {
        fault: 'hashes only the first MB of a file',
        mutation: () => onUploaded((asset, sent) => ({ ...asset, sha256: createHash('sha256').update(sent.body.subarray(0, 1_000_000)).digest('hex') })),
      },
    ],
    'ASSET-CONTENT-MISMATCH-SAME-FAMILY': [
      {
        fault: 'compares the declared type with the content by family only',
        mutation: () => ({
          request: (sent) =>
            isUpload(sent) && sameFamily(sniffedType(sent.body), sent.headers['content-type'])
              ? { ...sent, headers: { ...sent.headers, 'content-type': sniffedType(sent.body)! } }
              : sent,
        }),
      },
      {
        fault: 'takes a WAV file declared audio/mpeg',
        mutation: () => ({
          request: (sent) =>
            isUpload(sent) && sent.headers['content-type'] === 'audio/mpeg' && sniffedType(sent.body) === 'audio/wav'
              ? { ...sent, headers: { ...sent.headers, 'content-type': 'audio/wav' } }
              : sent,
        }),
      },
    ],
    'ASSET-DEFAULT-LIFETIME': [
      {
        fault: 'sets expires_at 12 hours after created_at',
        mutation: () => onUploaded((asset) => ({ ...asset, expires_at: new Date(Date.parse(asset.created_at) + 12 * HOUR_MS).toISOString() })),
      },
    ],
    'ASSET-UNSUPPORTED-TYPE': [
      {
        fault: 'accepts video/mp4 uploads',
        mutation: () => ({
          answer: (sent) =>
            isUpload(sent) && sent.headers['content-type'] === 'video/mp4' ? answerJson(201, fakeAsset('video/mp4', sent.body.length)) : undefined,
        }),
      },
      {
        fault: 'answers unsupported types with 400 INVALID_REQUEST',
        mutation: () => ({ response: (received, sent) => (isUpload(sent) && received.status === 415 ? answerError(400, 'INVALID_REQUEST') : received) }),
      },
    ],
    'ASSET-GENERIC-BINARY-TYPE': [
      {
        fault: `stores ${OCTET_STREAM} uploads as the type it sniffs`,
        mutation: () => storesAsSniffed((sent) => sent.headers['content-type'] === OCTET_STREAM),
      },
      {
        fault: `stores ${OCTET_STREAM} PDFs only`,
        mutation: () => storesAsSniffed((sent) => sent.headers['content-type'] === OCTET_STREAM && sniffedType(sent.body) === 'application/pdf'),
      },
      {
        fault: `refuses ${OCTET_STREAM} with 400 INVALID_REQUEST`,
        mutation: () => ({
          response: (received, sent) => (isUpload(sent) && sent.headers['content-type'] === OCTET_STREAM ? answerError(400, 'INVALID_REQUEST') : received),
        }),
      },
    ],
    'ASSET-EMPTY-CONTENT-TYPE': [
      {
        fault: 'stores an upload with an empty Content-Type as the type it sniffs',
        mutation: () => storesAsSniffed((sent) => sent.headers['content-type'] === ''),
      },
      {
        fault: 'answers an empty Content-Type with a plain-text 415',
        mutation: () => ({
          response: (received, sent) => (isUpload(sent) && sent.headers['content-type'] === '' ? plainText(415, 'Unsupported Media Type') : received),
        }),
      },
      {
        fault: 'crashes (500) on an empty Content-Type',
        mutation: () => ({
          response: (received, sent) => (isUpload(sent) && sent.headers['content-type'] === '' ? answerError(500, 'INTERNAL_ERROR') : received),
        }),
      },
    ],
    'ASSET-LISTED-TYPE-READINGS-BOUNDED': [
      {
        fault: 'crashes (500) on a Content-Type with parameters',
        mutation: () => ({
          response: (received, sent) => (isUpload(sent) && (sent.headers['content-type'] ?? '').includes(';') ? answerError(500, 'INTERNAL_ERROR') : received),
        }),
      },
      {
        fault: 'refuses an upper-case type with a plain-text 415',
        mutation: () => ({
          response: (received, sent) => (isUpload(sent) && sent.headers['content-type'] === 'IMAGE/PNG' ? plainText(415, 'Unsupported Media Type') : received),
        }),
      },
      {
        fault: 'stores an upper-case type with a size one byte off',
        mutation: () =>
          onAcceptedReading(
            (sent) => sent.headers['content-type'] === 'IMAGE/PNG',
            (asset) => ({ ...asset, size_bytes: asset.size_bytes + 1 }),
          ),
      },
      {
        fault: 'stores a type with parameters as application/octet-stream',
        mutation: () =>
          onAcceptedReading(
            (sent) => (sent.headers['content-type'] ?? '').includes(';'),
            (asset) => ({ ...asset, mime_type: OCTET_STREAM }),
          ),
      },
      {
        fault: 'hashes text declared with a charset after decoding it',
        mutation: () =>
          onAcceptedReading(
            (sent) => sent.headers['content-type'] === 'text/plain; charset=utf-8',
            (asset) => ({ ...asset, sha256: '0'.repeat(64) }),
          ),
      },
      {
        fault: 'answers an accepted reading 200 instead of 201',
        mutation: () => ({
          response: (received, sent) =>
            isUpload(sent) && (sent.headers['content-type'] ?? '').includes(';') && received.status === 201 ? { ...received, status: 200 } : received,
        }),
      },
    ],
    'ASSET-CONTENT-MISMATCH': [
      {
        fault: 'accepts content that does not match the declared type (stores it as what it sniffs)',
        mutation: () => ({
          request: (sent) =>
            isUpload(sent) && sent.headers['content-type'] === 'audio/wav' && sent.body.subarray(0, 8).equals(Buffer.from(pngImage().subarray(0, 8)))
              ? { ...sent, headers: { ...sent.headers, 'content-type': 'image/png' } }
              : sent,
        }),
      },
    ],
    'ASSET-TOO-LARGE-IMAGE': tooLargeProofs,
    'ASSET-TOO-LARGE-DOCUMENT': tooLargeProofs,
    'ASSET-TOO-LARGE-AUDIO': tooLargeProofs,
    'ASSET-SIZE-AT-LIMIT-IMAGE': atLimitProofs,
    'ASSET-SIZE-AT-LIMIT-DOCUMENT': atLimitProofs,
    'ASSET-SIZE-AT-LIMIT-AUDIO': atLimitProofs,
    'ASSET-GET-SAME': [
      {
        fault: 'reads back created_at an hour later',
        mutation: () => ({
          response: (received, sent) =>
            isAssetPath(sent, 'GET') && received.status === 200
              ? rewriteJson(received, (asset) => ({ ...asset, created_at: new Date(Date.parse(asset.created_at) + HOUR_MS).toISOString() }))
              : received,
        }),
      },
      {
        fault: 'reads back another size_bytes',
        mutation: () => ({
          response: (received, sent) =>
            isAssetPath(sent, 'GET') && received.status === 200 ? rewriteJson(received, (asset) => ({ ...asset, size_bytes: asset.size_bytes + 1 })) : received,
        }),
      },
    ],
    'ASSET-CONTENT-NEVER-RETURNED': [
      {
        fault: 'answers GET with the file bytes',
        mutation: () => {
          const files = new Map<string, Buffer>();
          return {
            response: (received, sent) => {
              if (isUpload(sent) && received.status === 201) files.set(JSON.parse(received.body.toString('utf8')).id, sent.body);
              const file = isAssetPath(sent, 'GET') ? files.get(assetIdOf(sent)) : undefined;
              return file ? { status: 200, headers: { ...received.headers, 'content-type': 'text/plain' }, body: file } : received;
            },
          };
        },
      },
      {
        fault: 'adds the file content, base64, to the Asset on GET',
        mutation: () => {
          const files = new Map<string, Buffer>();
          return {
            response: (received, sent) => {
              if (isUpload(sent) && received.status === 201) files.set(JSON.parse(received.body.toString('utf8')).id, sent.body);
              const file = isAssetPath(sent, 'GET') ? files.get(assetIdOf(sent)) : undefined;
              return file ? rewriteJson(received, (asset) => ({ ...asset, content: file.toString('base64') })) : received;
            },
          };
        },
      },
      {
        fault: 'echoes the uploaded text in the upload answer',
        mutation: () => onUploaded((asset, sent) => ({ ...asset, preview: sent.body.toString('utf8') })),
      },
    ],
    'ASSET-DELETE-RESULT': [
      {
        fault: 'answers DELETE with deleted: false',
        mutation: () => ({
          response: (received, sent) =>
            isAssetPath(sent, 'DELETE') && received.status === 200 ? rewriteJson(received, (body) => ({ ...body, deleted: false })) : received,
        }),
      },
      {
        fault: 'answers DELETE with 204 and no body',
        mutation: () => ({
          response: (received, sent) =>
            isAssetPath(sent, 'DELETE') && received.status === 200 ? { ...received, status: 204, body: Buffer.alloc(0) } : received,
        }),
      },
      {
        fault: 'answers DELETE with another id',
        mutation: () => ({
          response: (received, sent) =>
            isAssetPath(sent, 'DELETE') && received.status === 200 ? rewriteJson(received, (body) => ({ ...body, id: 'asset_someOtherAsset01' })) : received,
        }),
      },
    ],
    'ASSET-DELETED-GET-FAILS': [
      {
        fault: 'answers GET from a cache filled at upload, also after DELETE',
        mutation: () => {
          const cache = new Map<string, Buffer>();
          return {
            answer: (sent) => {
              const cached = isAssetPath(sent, 'GET') ? cache.get(assetIdOf(sent)) : undefined;
              return cached ? { status: 200, headers: { 'content-type': 'application/json', 'x-request-id': PROXY_REQUEST_ID }, body: cached } : undefined;
            },
            response: (received, sent) => {
              if (isUpload(sent) && received.status === 201) cache.set(JSON.parse(received.body.toString('utf8')).id, received.body);
              return received;
            },
          };
        },
      },
      deleteIsNoOp,
    ],
    'ASSET-DELETED-REFERENCE-FAILS': [deleteIsNoOp, ignoresMediaParts],
    'ASSET-UNKNOWN-GET': [
      {
        fault: 'turns 404 into 200',
        mutation: () => ({ response: (received, sent) => (isAssetPath(sent, 'GET') && received.status === 404 ? { ...received, status: 200 } : received) }),
      },
      {
        fault: 'answers unknown ids with 404 NOT_FOUND',
        mutation: () => ({ response: (received, sent) => (isAssetPath(sent, 'GET') && received.status === 404 ? answerError(404, 'NOT_FOUND') : received) }),
      },
    ],
    'ASSET-UNKNOWN-DELETE': [
      {
        fault: 'answers DELETE of an unknown id with success (idempotent delete)',
        mutation: () => ({
          response: (received, sent) =>
            isAssetPath(sent, 'DELETE') && received.status === 404 ? answerJson(200, { id: assetIdOf(sent), object: 'asset', deleted: true }) : received,
        }),
      },
    ],
    'ASSET-UNKNOWN-REFERENCE': [
      ignoresMediaParts,
      {
        fault: 'answers unknown references with 400 INVALID_REQUEST',
        mutation: () => ({ response: (received, sent) => (isDecide(sent) && received.status === 404 ? answerError(400, 'INVALID_REQUEST') : received) }),
      },
    ],
    'ASSET-EXPIRED-REFERENCE': [
      {
        fault: 'answers expired references with 404 ASSET_NOT_FOUND',
        mutation: () => ({ response: (received, sent) => (isDecide(sent) && received.status === 410 ? answerError(404, 'ASSET_NOT_FOUND') : received) }),
      },
      {
        fault: 'reports an expires_at it does not enforce',
        mutation: (target) => ({
          // The short-lifetime project's requests reach a project whose assets live 24 hours.
          request: (sent) => (sent.headers.authorization === `Bearer ${target.keyShortTtl}` ? withAuthorization(sent, target.keyA) : sent),
          response: (received, sent) =>
            isUpload(sent) && received.status === 201
              ? rewriteJson(received, (asset) => ({ ...asset, expires_at: new Date(Date.parse(asset.created_at) + target.shortTtlMs).toISOString() }))
              : received,
        }),
      },
    ],
    'ASSET-REFERENCE-OWN-IMAGE': [rejectsPartType('image')],
    'ASSET-REFERENCE-OWN-DOCUMENT': [rejectsPartType('document')],
    'ASSET-REFERENCE-OWN-AUDIO': [rejectsPartType('audio')],
  });
});

describe('sha256 values in the encodings a server may choose (open point sha256-encoding)', () => {
  const bytes = pngImage();
  const digest = createHash('sha256').update(bytes).digest();

  test('hex of either case and base64, padded or not, are recognised', () => {
    expect(sha256EncodingOf(digest.toString('hex'), bytes)).toBe('lowercase hex');
    expect(sha256EncodingOf(digest.toString('hex').toUpperCase(), bytes)).toBe('uppercase hex');
    expect(sha256EncodingOf(digest.toString('base64'), bytes)).toBe('base64');
    expect(sha256EncodingOf(digest.toString('base64').replace(/=+$/, ''), bytes)).toBe('base64');
    expect(sha256EncodingOf(digest.toString('base64url'), bytes)).toBe('base64url');
  });

  test('another hash, another file or no string is not recognised', () => {
    expect(sha256EncodingOf(createHash('sha1').update(bytes).digest('hex'), bytes)).toBeUndefined();
    expect(sha256EncodingOf(createHash('sha256').update(bytes.subarray(1)).digest('hex'), bytes)).toBeUndefined();
    expect(sha256EncodingOf(undefined, bytes)).toBeUndefined();
  });
});

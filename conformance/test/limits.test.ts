import { describe } from 'vitest';
import {
  isOperation,
  rewriteJson,
  rewriteJsonRequest,
  type Mutation,
  type ProxiedRequest,
  type ProxiedResponse,
} from '../../harness/testing/mutating-proxy.ts';
import { proveChecks } from './support/proof.ts';

const isDecide = (sent: ProxiedRequest) => isOperation(sent, 'POST', '/v1/decide');
type Body = Record<string, any>;
type Part = Record<string, any>;

function parsed(sent: ProxiedRequest): Body | undefined {
  try {
    const body: unknown = JSON.parse(sent.body.toString('utf8'));
    return typeof body === 'object' && body !== null ? (body as Body) : undefined;
  } catch {
    return undefined;
  }
}
const partsOf = (body: Body | undefined): Part[] => (Array.isArray(body?.context) ? body.context : []);
const countOf = (body: Body | undefined, type: string) => partsOf(body).filter((part) => part?.type === type).length;

/** A lenient server: edits the decide body before the good server reads it. */
const onDecideBody = (edit: (body: Body) => void): Mutation => ({
  request: (sent) => (isDecide(sent) ? rewriteJsonRequest(sent, (body) => (edit(body), body)) : sent),
});
/** A strict server: refuses decide bodies that `refuses` picks, in the seed's error body. */
const refusing = (refuses: (body: Body | undefined, sent: ProxiedRequest) => boolean, code = 'INVALID_REQUEST', status = 400): Mutation => ({
  answer: (sent) =>
    isDecide(sent) && refuses(parsed(sent), sent)
      ? {
          status,
          headers: { 'content-type': 'application/json', 'x-request-id': 'req_5e7' },
          body: Buffer.from(JSON.stringify({ error: { code, message: 'Limit exceeded.', request_id: 'req_5e7' } })),
        }
      : undefined,
});
const withCode = (received: ProxiedResponse, from: string, code: string): ProxiedResponse =>
  received.body.includes(from) ? rewriteJson(received, (body) => ({ error: { ...body.error, code } })) : received;
/** Keeps the first `max` parts of `type` (and every other part). */
const keepFirst = (type: string, max: number) =>
  onDecideBody((body) => {
    let seen = 0;
    if (Array.isArray(body.context)) body.context = body.context.filter((part: Part) => part?.type !== type || ++seen <= max);
  });

function mediaBrokenServers(type: string, max: number, code: string) {
  return {
    count: [
      { fault: `drops ${type} parts beyond ${max} before reading`, mutation: () => keepFirst(type, max) },
      { fault: `refuses ${max} ${type} part${max === 1 ? '' : 's'} (off by one)`, mutation: () => refusing((body) => countOf(body, type) >= max, code) },
    ],
    code: [
      {
        fault: `answers too many ${type} parts with INVALID_REQUEST`,
        mutation: () => ({ response: (received: ProxiedResponse) => withCode(received, code, 'INVALID_REQUEST') }),
      },
      { fault: `drops ${type} parts beyond ${max} before reading`, mutation: () => keepFirst(type, max) },
    ],
  };
}
const images = mediaBrokenServers('image', 4, 'TOO_MANY_IMAGES');
const documents = mediaBrokenServers('document', 2, 'TOO_MANY_DOCUMENTS');
const audio = mediaBrokenServers('audio', 1, 'TOO_MANY_AUDIO');

const mediaCount = (body: Body | undefined) => countOf(body, 'image') + countOf(body, 'document') + countOf(body, 'audio');

describe('limits checks', () => {
  proveChecks('limits', {
    'LIMIT-QUESTIONS-16-17': [
      {
        fault: 'drops questions beyond 16 before reading',
        mutation: () => onDecideBody((body) => (body.questions = Object.fromEntries(Object.entries(body.questions ?? {}).slice(0, 16)))),
      },
      { fault: 'refuses 16 questions (off by one)', mutation: () => refusing((body) => Object.keys(body?.questions ?? {}).length >= 16) },
      {
        fault: 'answers 17 questions with 413',
        mutation: () => ({ response: (received, sent) => (Object.keys(parsed(sent)?.questions ?? {}).length > 16 ? { ...received, status: 413 } : received) }),
      },
    ],
    'LIMIT-QUESTIONS-0': [
      {
        fault: 'adds a default question to an empty questions object',
        mutation: () =>
          onDecideBody(
            (body) => Object.keys(body.questions ?? {}).length === 0 && (body.questions = { default: { type: 'choice', options: { a: '', b: '' } } }),
          ),
      },
    ],
    'LIMIT-CONTEXT-8000-8001': [
      {
        fault: 'truncates string contexts to 8,000 characters',
        mutation: () => onDecideBody((body) => typeof body.context === 'string' && (body.context = body.context.slice(0, 8000))),
      },
      {
        fault: 'refuses string contexts of 8,000 characters (off by one)',
        mutation: () => refusing((body) => typeof body?.context === 'string' && body.context.length >= 8000),
      },
    ],
    'LIMIT-CONTEXT-EMPTY': [
      { fault: 'fills an empty context with a placeholder', mutation: () => onDecideBody((body) => body.context === '' && (body.context = '(empty)')) },
    ],
    'LIMIT-TEXT-PART-8000-8001': [
      {
        fault: 'truncates text parts to 8,000 characters',
        mutation: () => onDecideBody((body) => partsOf(body).forEach((part) => typeof part.text === 'string' && (part.text = part.text.slice(0, 8000)))),
      },
      {
        fault: 'refuses text parts of 8,000 characters (off by one)',
        mutation: () => refusing((body) => partsOf(body).some((part) => typeof part?.text === 'string' && part.text.length >= 8000)),
      },
    ],
    'LIMIT-TEXT-PART-EMPTY': [
      {
        fault: 'skips empty text parts',
        mutation: () => onDecideBody((body) => Array.isArray(body.context) && (body.context = body.context.filter((part: Part) => part?.text !== ''))),
      },
    ],
    'LIMIT-PARTS-16-17': [
      {
        fault: 'drops parts beyond 16 before reading',
        mutation: () => onDecideBody((body) => Array.isArray(body.context) && (body.context = body.context.slice(0, 16))),
      },
      { fault: 'refuses 16 parts (off by one)', mutation: () => refusing((body) => partsOf(body).length >= 16) },
    ],
    'LIMIT-PARTS-0': [
      {
        fault: 'reads an empty list context as an empty text',
        mutation: () =>
          onDecideBody((body) => Array.isArray(body.context) && body.context.length === 0 && (body.context = [{ type: 'text', text: '(empty)' }])),
      },
    ],
    'LIMIT-PART-ID-100-101': [
      {
        fault: 'truncates part ids to 100 characters',
        mutation: () => onDecideBody((body) => partsOf(body).forEach((part) => typeof part.id === 'string' && (part.id = part.id.slice(0, 100)))),
      },
      {
        fault: 'refuses part ids of 100 characters (off by one)',
        mutation: () => refusing((body) => partsOf(body).some((part) => typeof part?.id === 'string' && part.id.length >= 100)),
      },
    ],
    'LIMIT-BODY-256KIB': [
      {
        fault: 'trims oversize bodies to 256 KiB before reading',
        mutation: () => ({
          request: (sent) =>
            isDecide(sent) && sent.body.length > 262_144
              ? rewriteJsonRequest(
                  sent,
                  (body) => ((body.questions.topic.options.billing = body.questions.topic.options.billing.slice(sent.body.length - 262_144)), body),
                )
              : sent,
        }),
      },
      {
        fault: 'answers oversize bodies with a bare text 413',
        mutation: () => ({
          response: (received) =>
            received.status === 413
              ? { ...received, headers: { ...received.headers, 'content-type': 'text/plain' }, body: Buffer.from('Payload Too Large') }
              : received,
        }),
      },
      { fault: 'limits bodies to 256,000 bytes', mutation: () => refusing((_body, sent) => sent.body.length > 256_000, 'PAYLOAD_TOO_LARGE', 413) },
    ],
    'LIMIT-BODY-KIB-NOT-KB': [
      { fault: 'counts the body limit in kB (256,000 bytes)', mutation: () => refusing((_body, sent) => sent.body.length > 256_000, 'PAYLOAD_TOO_LARGE', 413) },
    ],
    'LIMIT-BODY-BYTES-NOT-CHARACTERS': [
      {
        fault: 'measures the body in characters',
        mutation: () => ({
          request: (sent) =>
            isDecide(sent) && sent.body.length > 262_144 && sent.body.toString('utf8').length <= 262_144
              ? rewriteJsonRequest(sent, (body) => ((body.questions.topic.options.billing = 'Payments and refunds'), body))
              : sent,
        }),
      },
    ],
    'LIMIT-PART-ID-101-IN-EVERY-UNIT': [
      {
        fault: 'truncates part ids to 100 UTF-16 units',
        mutation: () => onDecideBody((body) => partsOf(body).forEach((part) => typeof part.id === 'string' && (part.id = part.id.slice(0, 100)))),
      },
      {
        fault: 'drops non-ASCII characters from part ids before measuring them',
        mutation: () =>
          onDecideBody((body) => partsOf(body).forEach((part) => typeof part.id === 'string' && (part.id = part.id.replace(/[^\x00-\x7f]/gu, '') || 'id'))),
      },
    ],
    'LIMIT-MEDIA-PER-FAMILY': [
      { fault: 'counts every media part against the image limit of 4', mutation: () => refusing((body) => mediaCount(body) > 4, 'TOO_MANY_IMAGES') },
      {
        fault: 'counts images and documents together against 4',
        mutation: () => refusing((body) => countOf(body, 'image') + countOf(body, 'document') > 4, 'TOO_MANY_IMAGES'),
      },
    ],
    'LIMIT-QUESTIONS-DISTINCT-BY-CODE-POINTS': [
      {
        fault: 'normalises question ids (NFC) before counting them',
        mutation: () =>
          onDecideBody(
            (body) => (body.questions = Object.fromEntries(Object.entries(body.questions ?? {}).map(([id, question]) => [id.normalize('NFC'), question]))),
          ),
      },
      // Refusing non-ASCII ids outright is a choice of open point id-format-and-count; counting their bytes is not.
      {
        fault: 'refuses 16 questions with non-ASCII ids (counts id bytes)',
        mutation: () => refusing((body) => Object.keys(body?.questions ?? {}).filter((id) => /[^\x00-\x7f]/.test(id)).length >= 16),
      },
    ],
    'LIMIT-PARTS-16-17-MULTIBYTE': [
      {
        fault: 'joins text parts before counting parts',
        mutation: () =>
          onDecideBody(
            (body) =>
              partsOf(body).length > 1 &&
              partsOf(body).every((part) => part.type === 'text') &&
              (body.context = [
                {
                  type: 'text',
                  text: partsOf(body)
                    .map((part) => part.text)
                    .join('\n'),
                },
              ]),
          ),
      },
      { fault: 'refuses 16 parts (off by one)', mutation: () => refusing((body) => partsOf(body).length >= 16) },
    ],
    'LIMIT-TEXT-8001-IN-EVERY-UNIT': [
      {
        fault: 'truncates string contexts to 8,000 UTF-16 units',
        mutation: () => onDecideBody((body) => typeof body.context === 'string' && (body.context = body.context.slice(0, 8000))),
      },
      {
        fault: 'truncates text parts to 8,000 code points',
        mutation: () =>
          onDecideBody((body) => partsOf(body).forEach((part) => typeof part.text === 'string' && (part.text = [...part.text].slice(0, 8000).join('')))),
      },
    ],
    'LIMIT-IMAGES-4-5': images.count,
    'LIMIT-IMAGES-CODE': images.code,
    'LIMIT-DOCUMENTS-2-3': documents.count,
    'LIMIT-DOCUMENTS-CODE': documents.code,
    'LIMIT-AUDIO-1-2': audio.count,
    'LIMIT-AUDIO-CODE': audio.code,
  });
});

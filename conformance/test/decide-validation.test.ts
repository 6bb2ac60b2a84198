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
const isObject = (value: unknown): value is Record<string, any> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A lenient server: edits the decide body before the good server reads it. */
const onDecideBody = (edit: (body: Record<string, any>) => void): Mutation => ({
  request: (sent) => (isDecide(sent) ? rewriteJsonRequest(sent, (body) => (isObject(body) ? (edit(body), body) : body)) : sent),
});
const eachQuestion = (body: Record<string, any>, edit: (question: Record<string, any>) => void) =>
  Object.values(isObject(body.questions) ? body.questions : {}).forEach((q) => isObject(q) && edit(q));
const eachPart = (body: Record<string, any>, edit: (part: Record<string, any>) => void) =>
  (Array.isArray(body.context) ? body.context : []).forEach((p: unknown) => isObject(p) && edit(p));
const keepOnly = (object: Record<string, any>, keys: string[]) =>
  Object.keys(object)
    .filter((key) => !keys.includes(key))
    .forEach((key) => delete object[key]);

/** A 200 with a plausible decide body, for a server that accepts what it should refuse. */
function plausibleSuccess(sent: ProxiedRequest): ProxiedResponse {
  let questions: unknown;
  try {
    questions = JSON.parse(sent.body.toString('utf8')).questions;
  } catch {
    questions = undefined;
  }
  const ids = isObject(questions) ? Object.keys(questions) : ['topic'];
  const answers = Object.fromEntries(
    ids.map((id) => [id, { type: 'choice', choice: 'a', confidence: 0.5, probabilities: { a: 0.75, b: 0.25 }, abstain: false, abstention_status: 'advisory' }]),
  );
  return {
    status: 200,
    headers: { 'content-type': 'application/json', 'x-request-id': 'req_0a1b2c' },
    body: Buffer.from(JSON.stringify({ model: 'svc-one-v1', answers, usage: { input_tokens: 12 } })),
  };
}
const acceptsRejectedDecides: Mutation = { response: (received, sent) => (isDecide(sent) && received.status === 400 ? plausibleSuccess(sent) : received) };
const withCode = (received: ProxiedResponse, from: string, status: number, code: string): ProxiedResponse =>
  received.headers['content-type']?.includes('json') && received.body.includes(from)
    ? { ...rewriteJson(received, (body) => ({ error: { ...body.error, code } })), status }
    : received;

describe('decide-validation checks', () => {
  proveChecks('decide-validation', {
    'DECIDE-UNKNOWN-FIELD-TOP': [
      { fault: 'drops unknown top-level fields', mutation: () => onDecideBody((body) => keepOnly(body, ['context', 'questions'])) },
      { fault: 'answers unknown fields with 422', mutation: () => ({ response: (received) => withCode(received, 'INVALID_REQUEST', 422, 'INVALID_REQUEST') }) },
      { fault: 'turns every decide 400 into a 200 with a plausible body', mutation: () => acceptsRejectedDecides },
    ],
    'DECIDE-UNKNOWN-FIELD-QUESTION': [
      {
        fault: 'drops unknown question fields',
        mutation: () => onDecideBody((body) => eachQuestion(body, (q) => keepOnly(q, ['type', 'options', 'instructions']))),
      },
    ],
    'DECIDE-UNKNOWN-FIELD-CHOICE-INSTRUCTIONS': [
      {
        fault: 'ignores instructions on choice questions',
        mutation: () => onDecideBody((body) => eachQuestion(body, (q) => q.type === 'choice' && delete q.instructions)),
      },
    ],
    'DECIDE-UNKNOWN-FIELD-NOUL-OPTIONS': [
      { fault: 'ignores options on noul questions', mutation: () => onDecideBody((body) => eachQuestion(body, (q) => q.type === 'noul' && delete q.options)) },
    ],
    'DECIDE-UNKNOWN-FIELD-TEXT-PART': [
      {
        fault: 'drops unknown fields of text parts',
        mutation: () => onDecideBody((body) => eachPart(body, (p) => p.type === 'text' && keepOnly(p, ['type', 'id', 'text']))),
      },
    ],
    'DECIDE-UNKNOWN-FIELD-IMAGE-PART': [
      {
        fault: 'drops unknown fields of image parts',
        mutation: () => onDecideBody((body) => eachPart(body, (p) => p.type === 'image' && keepOnly(p, ['type', 'id', 'asset_id']))),
      },
    ],
    'DECIDE-PART-URL': [{ fault: 'ignores url on media parts', mutation: () => onDecideBody((body) => eachPart(body, (p) => delete p.url)) }],
    'DECIDE-PART-INLINE-DATA': [{ fault: 'ignores inline data on media parts', mutation: () => onDecideBody((body) => eachPart(body, (p) => delete p.data)) }],
    'DECIDE-VIDEO-PART': [
      {
        fault: 'answers video parts with INVALID_REQUEST',
        mutation: () => ({ response: (received) => withCode(received, 'UNSUPPORTED_MODALITY', 400, 'INVALID_REQUEST') }),
      },
      {
        fault: 'answers video parts with 415',
        mutation: () => ({ response: (received) => withCode(received, 'UNSUPPORTED_MODALITY', 415, 'UNSUPPORTED_MODALITY') }),
      },
      {
        fault: 'skips video parts',
        mutation: () => onDecideBody((body) => Array.isArray(body.context) && (body.context = body.context.filter((p: any) => p?.type !== 'video'))),
      },
      {
        fault: 'refuses every media part as an unsupported modality',
        mutation: () => ({
          answer: (sent) =>
            isOperation(sent, 'POST', '/v1/decide') && /"type":"(image|document|audio|video)"/.test(sent.body.toString('utf8'))
              ? {
                  status: 400,
                  headers: { 'content-type': 'application/json', 'x-request-id': 'req_0dd' },
                  body: Buffer.from('{"error":{"code":"UNSUPPORTED_MODALITY","message":"Media are not supported.","request_id":"req_0dd"}}'),
                }
              : undefined,
        }),
      },
    ],
    'DECIDE-UNKNOWN-PART-TYPE': [
      {
        fault: 'skips parts of unknown types',
        mutation: () =>
          onDecideBody(
            (body) => Array.isArray(body.context) && (body.context = body.context.filter((p: any) => ['text', 'image', 'document', 'audio'].includes(p?.type))),
          ),
      },
    ],
    'DECIDE-UNKNOWN-QUESTION-TYPE': [
      {
        fault: 'reads unknown question types as choice',
        mutation: () => onDecideBody((body) => eachQuestion(body, (q) => !['choice', 'noul', 'multi', 'score'].includes(q.type) && (q.type = 'choice'))),
      },
    ],
    'DECIDE-MISSING-CONTEXT': [{ fault: 'defaults a missing context', mutation: () => onDecideBody((body) => (body.context ??= '(no context)')) }],
    'DECIDE-MISSING-QUESTIONS': [
      {
        fault: 'defaults missing questions',
        mutation: () => onDecideBody((body) => (body.questions ??= { default: { type: 'choice', options: { yes: '', no: '' } } })),
      },
    ],
    'DECIDE-TYPE-CONTEXT': [
      {
        fault: 'coerces a number context to a string',
        mutation: () => onDecideBody((body) => typeof body.context === 'number' && (body.context = String(body.context))),
      },
      { fault: 'turns every decide 400 into a 200 with a plausible body', mutation: () => acceptsRejectedDecides },
    ],
    'DECIDE-TYPE-QUESTIONS': [
      {
        fault: 'turns a questions array into an object keyed by index',
        mutation: () => onDecideBody((body) => Array.isArray(body.questions) && (body.questions = { ...body.questions })),
      },
    ],
    'DECIDE-TYPE-OPTIONS': [
      {
        fault: 'splits string options on commas',
        mutation: () =>
          onDecideBody((body) =>
            eachQuestion(
              body,
              (q) => typeof q.options === 'string' && (q.options = Object.fromEntries(q.options.split(',').map((id: string) => [id.trim(), '']))),
            ),
          ),
      },
      {
        fault: 'answers malformed options with 500 INTERNAL_ERROR',
        mutation: () => ({ response: (received) => withCode(received, 'must be object', 500, 'INTERNAL_ERROR') }),
      },
    ],
    'DECIDE-TYPE-CHOICE-DESCRIPTION': [
      {
        fault: 'coerces option descriptions to strings',
        mutation: () =>
          onDecideBody((body) =>
            eachQuestion(
              body,
              (q) => isObject(q.options) && Object.keys(q.options).forEach((id) => q.options[id] !== null && (q.options[id] = String(q.options[id]))),
            ),
          ),
      },
    ],
    'DECIDE-TYPE-MULTI-VALUE': [
      {
        fault: 'ignores multi option values',
        mutation: () =>
          onDecideBody((body) =>
            eachQuestion(body, (q) => q.type === 'multi' && isObject(q.options) && Object.keys(q.options).forEach((id) => (q.options[id] = null))),
          ),
      },
    ],
    'DECIDE-MALFORMED-JSON': [
      {
        fault: 'answers unparsable bodies with a plausible 200',
        mutation: () => ({
          answer: (sent) => {
            if (!isDecide(sent)) return undefined;
            try {
              JSON.parse(sent.body.toString('utf8'));
              return undefined;
            } catch {
              return plausibleSuccess(sent);
            }
          },
        }),
      },
      {
        fault: 'answers unparsable bodies with 500 INTERNAL_ERROR',
        mutation: () => ({ response: (received) => withCode(received, 'not valid JSON', 500, 'INTERNAL_ERROR') }),
      },
    ],
    'DECIDE-ASSET-ID-PATTERN': [
      {
        fault: 'looks malformed asset ids up as unknown assets (404)',
        mutation: () =>
          onDecideBody((body) =>
            eachPart(body, (p) => typeof p.asset_id === 'string' && !/^asset_[A-Za-z0-9_-]{8,64}$/.test(p.asset_id) && (p.asset_id = 'asset_lookedup0000')),
          ),
      },
    ],
    'DECIDE-PART-ID-ECHOED': [
      {
        fault: 'leaves part ids out of error messages',
        mutation: () => ({
          response: (received, sent) =>
            isDecide(sent) && received.status >= 400
              ? rewriteJson(received, (body) => ({ error: { ...body.error, message: String(body.error.message).replace(/ \(id "[^"]*"\)/g, '') } }))
              : received,
        }),
      },
    ],
  });
});

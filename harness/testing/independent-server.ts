// A second, independent Decision Service: the text-only part of the API, written from the seed
// alone (plain node:http, in memory, no framework, nothing taken from reference-impl/). It makes
// its own choice on every point the seed leaves open, inside each point's x-seed-bounds, so that
// running the whole catalogue against it shows the kit fails no server for an open choice.
// The one thing it takes from the kit is the spec it serves at /openapi.json.
//
// It declares no optional capability (open point availability): no multimodal media, no assets,
// no noul, score or multi questions. Text contexts (a string, or a list of text parts) and choice
// questions are served.
//
// | open point                   | this server's choice                                                                                   |
// | ---------------------------- | ------------------------------------------------------------------------------------------------------ |
// | availability                 | text only: string or text-part contexts, choice questions. Media parts are validated, then answered   |
// |                              | 404 ASSET_NOT_FOUND (no asset exists here: seed 3 rule 2); noul/score/multi are 400 INVALID_REQUEST.   |
// | decide-success-status        | 201 Created.                                                                                           |
// | model-selection              | optional `model` naming svc-one-v1, svc-one-v0 or svc-one-v0.3 (else 400); svc-one-v1 always answers. |
// | id-format-and-count          | question and option ids: 1 to 200 UTF-16 units, no control character; 2 to 100 options per question  |
// |                              | (a choice needs an alternative: a single option is refused). *                                         |
// |                              | A bad question id is 400 INVALID_REQUEST, a bad option (id, description, count) 422 INVALID_OPTIONS.   |
// | noul-instructions-required   | n/a: noul questions are not served (400 INVALID_REQUEST).                                              |
// | score-question-fields        | n/a (score not served).                                                                                |
// | answer-shapes                | n/a beyond choice (the seed's choice answer, nothing added).                                           |
// | abstention-status-values     | always `advisory`.                                                                                     |
// | abstention-threshold         | abstain when the margin (top-1 minus top-2) is below 0.1.                                              |
// | audio-without-transcript     | n/a (no media).                                                                                        |
// | choice-probabilities-sum     | softmax over word-overlap scores: they sum to 1 (single options do not occur, see above).             |
// | answers-among-others         | the same answers alone and among others (a pure function of the request).                             |
// | feedback-shape               | request `{request_id, answers: {qid: {correct}}, comment?}`; 204 No Content (nothing to return). *     |
// |                              | An unknown decision or question is 400 INVALID_REQUEST; a second report on a question replaces the    |
// |                              | first (no CONFLICT).                                                                                   |
// | models-shape                 | 200 `{default, available: [{name, kind, of?}]}`.                                                      |
// | service-endpoint-bodies      | /health 200 `{live: true}`; /openapi.json the kit's spec. Both also answer HEAD.                       |
// | asset-read-delete-status,    | n/a: every /v1/assets path, any method, is 404 NOT_FOUND in the error body (after the key check).      |
// | asset-after-delete, -expiry, |                                                                                                        |
// | malformed-asset-id-in-path,  |                                                                                                        |
// | part-asset-family, sha256-…, |                                                                                                        |
// | upload-*, size-units,        |                                                                                                        |
// | asset-ttl                    |                                                                                                        |
// | name-only-statuses           | PAYLOAD_TOO_LARGE 413; INVALID_OPTIONS 422; TOO_MANY_IMAGES/DOCUMENTS/AUDIO 422; NOT_FOUND 404 (assets)|
// |                              | and 405 (a method a known path does not serve); INTERNAL_ERROR 500 (never expected).                  |
// | media-reading-failures       | n/a (no media).                                                                                        |
// | key-management               | keys given at start, one per project; FORBIDDEN and SIGNUP_RESTRICTED never produced.                  |
// | rate-limits                  | at most 64 requests in flight per key; over that 429 RATE_LIMITED with Retry-After: 1.                 |
// | character-counting           | UTF-16 code units (a character outside the BMP counts twice), for texts, part ids and ids.             |
// | json-content-type            | application/json or any application/*+json (parameters ignored); no or an empty Content-Type is read  |
// |                              | as JSON; any other type (text/plain) is 400 INVALID_REQUEST.                                           |
// | invalid-caller-request-id    | refused: 400 INVALID_REQUEST under a generated req_<hex> id (after the key check on /v1).              |
// | error-request-id-null        | null only in that refusal (the caller's id was not usable); otherwise the X-Request-ID.              |
// | unknown-route                | 400 INVALID_REQUEST; a method a known path does not serve is 405 NOT_FOUND with an Allow header.       |
// | head-method                  | HEAD is served on /health and /openapi.json only; on /v1 paths it is 405 (after the key check).        |
// | path-spelling                | served: a trailing slash, a query string. Refused as unknown routes (400): a doubled slash,            |
// |                              | percent-encoded letters, dot segments, /V1. Every spelling of a /v1 path needs a key first.            |
// | request-body-edges           | a byte-order mark is skipped and chunked bodies are read; duplicate member names, bytes that are not   |
// |                              | UTF-8 and unpaired surrogate escapes are 400 INVALID_REQUEST. JSON nested over 64 levels is 400.       |
// | upload-body-limit            | n/a; the 256 KiB limit (262,144 bytes, seed 4.1) applies to every request body: over it, 413.          |
//
// * A choice two checks of the kit once failed, wrongly (DECIDE-SUCCESS-BODY-VALID and the
//   surface-edges checks judging feedback bodies); both were fixed in the checks.
//
// Robustness: bodies are read up to 256 KiB and discarded beyond (up to 4 MiB, then the connection is
// closed); malformed HTTP is answered 400 in the error body from the clientError hook; every answer,
// errors included, carries X-Request-ID; a client's mistake never gets a 5xx.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { openapiJson } from '../../spec/index.ts';

// ---------------------------------------------------------------------------------------------
// Limits (seed 2.1, 2.2, 4.1, 8) and this server's own figures.

const BODY_LIMIT_BYTES = 256 * 1024;
/** Bytes of an over-limit body read and discarded before the connection is closed instead. */
const DRAIN_LIMIT_BYTES = 4 * 1024 * 1024;
const MAX_TEXT_UNITS = 8000;
const MAX_QUESTIONS = 16;
const MAX_PARTS = 16;
const MAX_PART_ID_UNITS = 100;
const MAX_ID_UNITS = 200;
const MIN_OPTIONS = 2;
const MAX_OPTIONS = 100;
const MAX_COMMENT_UNITS = 2000;
const MAX_JSON_DEPTH = 64;
const MEDIA_LIMITS: Record<MediaType, { max: number; code: string }> = {
  image: { max: 4, code: 'TOO_MANY_IMAGES' },
  document: { max: 2, code: 'TOO_MANY_DOCUMENTS' },
  audio: { max: 1, code: 'TOO_MANY_AUDIO' },
};
const ASSET_ID = /^asset_[A-Za-z0-9_-]{8,64}$/;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const KEY_PREFIX = 'svc_live_';
const MODEL = 'svc-one-v1';
const ALIASES = ['svc-one-v0', 'svc-one-v0.3'];
const ABSTAIN_BELOW_MARGIN = 0.1;
/** Scale of the word-overlap score before the softmax. */
const SHARPNESS = 4;
/** The time a decision takes to "infer": answers to overlapping decides are computed together. */
const INFERENCE_MS = 4;
const MAX_IN_FLIGHT_PER_KEY = 64;
/** Decisions remembered per project for feedback (oldest forgotten first). */
const KEPT_DECISIONS = 20_000;

type MediaType = 'image' | 'document' | 'audio';

// ---------------------------------------------------------------------------------------------
// JSON: a strict RFC 8259 reader of its own. Objects become maps (so that "__proto__" and numeric
// keys stay plain keys, in the order sent); duplicate names, unpaired surrogate escapes and
// nesting beyond MAX_JSON_DEPTH are refused.

type Json = null | boolean | number | string | Json[] | JsonObject;
class JsonObject extends Map<string, Json> {}

class BodyRefused extends Error {}

function parseJson(text: string): Json {
  let at = 0;
  const where = () => `(character ${at + 1})`;
  const fail = (what: string): never => {
    throw new BodyRefused(`The body is not valid JSON: ${what} ${where()}.`);
  };
  const skipSpace = () => {
    while (at < text.length) {
      const c = text.charCodeAt(at);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return;
      at += 1;
    }
  };
  const hex4 = (from: number): number => {
    const digits = text.slice(from, from + 4);
    if (!/^[0-9A-Fa-f]{4}$/.test(digits)) fail('an invalid \\u escape');
    return Number.parseInt(digits, 16);
  };
  const readString = (): string => {
    at += 1;
    let out = '';
    let start = at;
    for (;;) {
      if (at >= text.length) fail('a string without its closing quote');
      const c = text.charCodeAt(at);
      if (c === 0x22) {
        out += text.slice(start, at);
        at += 1;
        return out;
      }
      if (c < 0x20) fail('a control character inside a string');
      if (c !== 0x5c) {
        at += 1;
        continue;
      }
      out += text.slice(start, at);
      at += 1;
      const escaped = text[at];
      if (escaped === 'u') {
        const unit = hex4(at + 1);
        at += 4;
        if (unit >= 0xd800 && unit <= 0xdbff) {
          const low = text[at + 1] === '\\' && text[at + 2] === 'u' ? hex4(at + 3) : -1;
          if (low < 0xdc00 || low > 0xdfff) throw new BodyRefused(`The body has an unpaired surrogate escape ${where()}: strings must be Unicode text.`);
          out += String.fromCharCode(unit, low);
          at += 6;
        } else if (unit >= 0xdc00 && unit <= 0xdfff) {
          throw new BodyRefused(`The body has an unpaired surrogate escape ${where()}: strings must be Unicode text.`);
        } else out += String.fromCharCode(unit);
      } else {
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        const decoded = escaped === undefined ? undefined : simple[escaped];
        if (decoded === undefined) fail('an invalid escape');
        out += decoded;
      }
      at += 1;
      start = at;
    }
  };
  const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
  const readValue = (depth: number): Json => {
    skipSpace();
    if (at >= text.length) fail('the input ends where a value was expected');
    const c = text[at];
    if (c === '{' || c === '[') {
      if (depth >= MAX_JSON_DEPTH) throw new BodyRefused(`The body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels ${where()}.`);
      return c === '{' ? readObject(depth + 1) : readArray(depth + 1);
    }
    if (c === '"') return readString();
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, at)) {
        at += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = at;
    const number = NUMBER.exec(text);
    if (!number) return fail('an unexpected character');
    at += number[0].length;
    return Number(number[0]);
  };
  const readObject = (depth: number): JsonObject => {
    at += 1;
    const object = new JsonObject();
    skipSpace();
    if (text[at] === '}') {
      at += 1;
      return object;
    }
    for (;;) {
      skipSpace();
      if (text[at] !== '"') fail('a member name was expected');
      const name = readString();
      if (object.has(name)) throw new BodyRefused(`The body names the member ${JSON.stringify(name)} twice in one object ${where()}.`);
      skipSpace();
      if (text[at] !== ':') fail("':' was expected");
      at += 1;
      object.set(name, readValue(depth));
      skipSpace();
      if (text[at] === ',') {
        at += 1;
        continue;
      }
      if (text[at] === '}') {
        at += 1;
        return object;
      }
      fail("',' or '}' was expected");
    }
  };
  const readArray = (depth: number): Json[] => {
    at += 1;
    const array: Json[] = [];
    skipSpace();
    if (text[at] === ']') {
      at += 1;
      return array;
    }
    for (;;) {
      array.push(readValue(depth));
      skipSpace();
      if (text[at] === ',') {
        at += 1;
        continue;
      }
      if (text[at] === ']') {
        at += 1;
        return array;
      }
      fail("',' or ']' was expected");
    }
  };
  const value = readValue(0);
  skipSpace();
  if (at < text.length) fail('more data follows the JSON value');
  return value;
}

const isObject = (value: Json | undefined): value is JsonObject => value instanceof JsonObject;
const kindOf = (value: Json | undefined): string =>
  value === undefined ? 'nothing' : value === null ? 'null' : Array.isArray(value) ? 'an array' : isObject(value) ? 'an object' : `a ${typeof value}`;

/** A JSON pointer to a member, its names escaped (RFC 6901). */
const pointer = (...names: Array<string | number>) => names.map((name) => `/${String(name).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

// ---------------------------------------------------------------------------------------------
// Errors: the one body of seed 7.

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const invalid = (message: string) => new ApiError(400, 'INVALID_REQUEST', message);
const invalidOptions = (message: string) => new ApiError(422, 'INVALID_OPTIONS', message);

// ---------------------------------------------------------------------------------------------
// Decide: validation (seed 2.1 to 2.3, 8) and scoring.

interface ChoiceInput {
  id: string;
  options: Array<[string, string]>;
}

interface DecideInput {
  text: string;
  questions: ChoiceInput[];
}

const hasControl = (text: string) => /[\u0000-\u001f\u007f-\u009f]/.test(text);

function checkFields(object: JsonObject, allowed: readonly string[], where: string, about = ''): void {
  for (const name of object.keys()) {
    if (!allowed.includes(name)) throw invalid(`Unknown field ${where}${pointer(name)}${about}; allowed: ${allowed.join(', ')}.`);
  }
}

function validateDecide(body: JsonObject): DecideInput {
  checkFields(body, ['context', 'questions', 'model'], '');
  if (!body.has('context')) throw invalid('/context is required.');
  if (!body.has('questions')) throw invalid('/questions is required.');
  const model = body.get('model');
  if (model !== undefined && (typeof model !== 'string' || (model !== MODEL && !ALIASES.includes(model))))
    throw invalid(
      `/model must name ${[MODEL, ...ALIASES].join(', ')} (or be left out); got ${typeof model === 'string' ? JSON.stringify(model) : kindOf(model)}.`,
    );
  const text = validateContext(body.get('context')!);
  const questions = validateQuestions(body.get('questions')!);
  return { text, questions };
}

function validateContext(context: Json): string {
  if (typeof context === 'string') {
    if (context.length < 1 || context.length > MAX_TEXT_UNITS)
      throw invalid(`/context must have 1 to ${MAX_TEXT_UNITS} characters (UTF-16 code units); got ${context.length}.`);
    return context;
  }
  if (!Array.isArray(context)) throw invalid(`/context must be a string or a list of parts; got ${kindOf(context)}.`);
  if (context.length < 1 || context.length > MAX_PARTS) throw invalid(`/context must have 1 to ${MAX_PARTS} parts; got ${context.length}.`);
  const texts: string[] = [];
  const media: Array<{ label: string; assetId: string }> = [];
  const counts: Record<MediaType, number> = { image: 0, document: 0, audio: 0 };
  context.forEach((part, index) => {
    const at = pointer('context', index);
    if (!isObject(part)) throw invalid(`${at} must be a part object; got ${kindOf(part)}.`);
    const id = part.get('id');
    const label = `${at}${typeof id === 'string' ? ` (id ${JSON.stringify(id)})` : ''}`;
    const type = part.get('type');
    if (type === 'video') throw new ApiError(400, 'UNSUPPORTED_MODALITY', `${label}: video parts are not supported.`);
    if (typeof type !== 'string') throw invalid(`${label}: /type is required, one of text, image, document, audio.`);
    if (type !== 'text' && type !== 'image' && type !== 'document' && type !== 'audio')
      throw invalid(`${label}: parts of type ${JSON.stringify(type)} are not accepted (text, image, document, audio).`);
    checkFields(part, type === 'text' ? ['type', 'id', 'text'] : ['type', 'id', 'asset_id'], at, ` in ${label}`);
    if (id !== undefined && (typeof id !== 'string' || id.length > MAX_PART_ID_UNITS))
      throw invalid(`${at}/id must be a string of at most ${MAX_PART_ID_UNITS} characters (UTF-16 code units).`);
    if (type === 'text') {
      const text = part.get('text');
      if (typeof text !== 'string') throw invalid(`${label}: /text must be a string; got ${kindOf(text)}.`);
      if (text.length < 1 || text.length > MAX_TEXT_UNITS)
        throw invalid(`${label}: /text must have 1 to ${MAX_TEXT_UNITS} characters (UTF-16 code units); got ${text.length}.`);
      texts.push(text);
      return;
    }
    const assetId = part.get('asset_id');
    if (typeof assetId !== 'string' || !ASSET_ID.test(assetId)) throw invalid(`${label}: /asset_id must match ${ASSET_ID.source}.`);
    counts[type] += 1;
    const limit = MEDIA_LIMITS[type];
    if (counts[type] > limit.max) throw new ApiError(422, limit.code, `${label}: at most ${limit.max} ${type} part${limit.max === 1 ? '' : 's'} per request.`);
    media.push({ label, assetId });
  });
  // No asset is ever stored here (assets are planned, not current): every reference is unknown (seed 3, rule 2).
  const first = media[0];
  if (first) throw new ApiError(404, 'ASSET_NOT_FOUND', `${first.label}: no asset ${first.assetId} in this project (this service stores no assets).`);
  return texts.join('\n');
}

function validateId(id: string): boolean {
  return id.length >= 1 && id.length <= MAX_ID_UNITS && !hasControl(id);
}

function validateQuestions(questions: Json): ChoiceInput[] {
  if (!isObject(questions)) throw invalid(`/questions must be an object of question id to question; got ${kindOf(questions)}.`);
  if (questions.size < 1 || questions.size > MAX_QUESTIONS) throw invalid(`/questions must have 1 to ${MAX_QUESTIONS} entries; got ${questions.size}.`);
  const out: ChoiceInput[] = [];
  for (const [id, question] of questions) {
    const at = pointer('questions', id);
    if (!validateId(id)) throw invalid(`${at}: question ids have 1 to ${MAX_ID_UNITS} characters (UTF-16 code units) and no control character.`);
    if (!isObject(question)) throw invalid(`${at} must be a question object; got ${kindOf(question)}.`);
    const type = question.get('type');
    if (typeof type !== 'string') throw invalid(`${at}/type is required.`);
    if (type === 'noul' || type === 'multi' || type === 'score')
      throw invalid(`${at}: ${type} questions are planned and not available on this service; ask choice questions.`);
    if (type !== 'choice') throw invalid(`${at}: unknown question type ${JSON.stringify(type)}.`);
    checkFields(question, ['type', 'options'], at);
    const options = question.get('options');
    if (!isObject(options)) throw invalidOptions(`${at}/options must be an object of option id to description; got ${kindOf(options)}.`);
    if (options.size < MIN_OPTIONS || options.size > MAX_OPTIONS)
      throw invalidOptions(`${at}/options must have ${MIN_OPTIONS} to ${MAX_OPTIONS} options (a choice needs an alternative); got ${options.size}.`);
    const pairs: Array<[string, string]> = [];
    for (const [optionId, description] of options) {
      const where = `${at}/options${pointer(optionId)}`;
      if (!validateId(optionId))
        throw invalidOptions(`${where}: option ids have 1 to ${MAX_ID_UNITS} characters (UTF-16 code units) and no control character.`);
      if (typeof description !== 'string') throw invalidOptions(`${where} must be a description string (it may be empty); got ${kindOf(description)}.`);
      pairs.push([optionId, description]);
    }
    out.push({ id, options: pairs });
  }
  return out;
}

const STOPWORDS = new Set(
  'a an and are as at be but by for from has have i in is it its me my of on or our so that the their this to was we were with you your'.split(' '),
);

/** Lower-case words of letters and digits. */
const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

function termsOf(text: string): Set<string> {
  return new Set(
    wordsOf(text)
      .filter((word) => !STOPWORDS.has(word))
      .map(stem),
  );
}

interface ChoiceAnswer {
  choice: string | null;
  confidence: number;
  probabilities: Array<[string, number]>;
  abstain: boolean;
}

/** Word overlap between the context and each option (its id read as words, and its description), through a softmax. */
function answerChoice(contextTerms: ReadonlySet<string>, options: ReadonlyArray<[string, string]>): ChoiceAnswer {
  const scores = options.map(([id, description]) => {
    const terms = termsOf(`${id.replace(/([a-z])([A-Z])/g, '$1 $2')} ${description}`);
    let shared = 0;
    for (const term of terms) if (contextTerms.has(term)) shared += 1;
    return terms.size === 0 ? 0 : shared / Math.sqrt(terms.size);
  });
  const top = Math.max(...scores);
  const weights = scores.map((score) => Math.exp(SHARPNESS * (score - top)));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const probabilities = weights.map((weight) => weight / total);
  let first = 0;
  for (let index = 1; index < probabilities.length; index += 1) if (probabilities[index]! > probabilities[first]!) first = index;
  let second = first === 0 ? 1 : 0;
  for (let index = 0; index < probabilities.length; index += 1) if (index !== first && probabilities[index]! > probabilities[second]!) second = index;
  // At least two options (MIN_OPTIONS): the margin is always defined.
  const confidence = probabilities[first]! - probabilities[second]!;
  const abstain = confidence < ABSTAIN_BELOW_MARGIN;
  return {
    choice: abstain ? null : options[first]![0],
    confidence,
    probabilities: options.map(([id], index) => [id, probabilities[index]!]),
    abstain,
  };
}

function decideResponse(input: DecideInput): string {
  const contextTerms = termsOf(input.text);
  let tokens = wordsOf(input.text).length;
  const answers = input.questions.map(({ id, options }) => {
    for (const [optionId, description] of options) tokens += wordsOf(`${optionId} ${description}`).length;
    const answer = answerChoice(contextTerms, options);
    const probabilities = answer.probabilities.map(([optionId, p]) => `${JSON.stringify(optionId)}:${JSON.stringify(p)}`).join(',');
    return `${JSON.stringify(id)}:{"type":"choice","choice":${JSON.stringify(answer.choice)},"confidence":${JSON.stringify(answer.confidence)},"probabilities":{${probabilities}},"abstain":${answer.abstain},"abstention_status":"advisory"}`;
  });
  return `{"model":${JSON.stringify(MODEL)},"answers":{${answers.join(',')}},"usage":{"input_tokens":${tokens}}}`;
}

// ---------------------------------------------------------------------------------------------
// Projects: keys, decisions remembered for feedback, feedback, requests in flight.

interface Project {
  name: string;
  decisions: Map<string, ReadonlySet<string>>;
  feedback: Map<string, Map<string, boolean>>;
  inFlight: number;
}

function remember(project: Project, requestId: string, questionIds: ReadonlySet<string>): void {
  project.decisions.delete(requestId);
  project.feedback.delete(requestId);
  project.decisions.set(requestId, questionIds);
  if (project.decisions.size > KEPT_DECISIONS) {
    const oldest = project.decisions.keys().next().value;
    if (oldest !== undefined) {
      project.decisions.delete(oldest);
      project.feedback.delete(oldest);
    }
  }
}

/** Records feedback on a decision of the project (open point feedback-shape); throws ApiError for a report it refuses. */
function recordFeedback(project: Project, body: JsonObject): void {
  checkFields(body, ['request_id', 'answers', 'comment'], '');
  const requestId = body.get('request_id');
  if (typeof requestId !== 'string' || !REQUEST_ID.test(requestId))
    throw invalid('/request_id is required: the X-Request-ID of the decision (1 to 128 letters, digits, . _ : -).');
  const answers = body.get('answers');
  if (!isObject(answers) || answers.size < 1 || answers.size > MAX_QUESTIONS)
    throw invalid(`/answers is required: an object of 1 to ${MAX_QUESTIONS} question ids, each {"correct": true or false}.`);
  const comment = body.get('comment');
  if (comment !== undefined && (typeof comment !== 'string' || comment.length > MAX_COMMENT_UNITS))
    throw invalid(`/comment must be a string of at most ${MAX_COMMENT_UNITS} characters.`);
  const decision = project.decisions.get(requestId);
  if (!decision) throw invalid(`/request_id: no decision with request id ${JSON.stringify(requestId)} in this project.`);
  const reports: Array<[string, boolean]> = [];
  for (const [questionId, report] of answers) {
    const at = pointer('answers', questionId);
    if (!isObject(report)) throw invalid(`${at} must be {"correct": true or false}.`);
    checkFields(report, ['correct'], at);
    const correct = report.get('correct');
    if (typeof correct !== 'boolean') throw invalid(`${at}/correct must be true or false.`);
    if (!decision.has(questionId)) throw invalid(`${at}: the decision ${JSON.stringify(requestId)} has no question with this id.`);
    reports.push([questionId, correct]);
  }
  const recorded = project.feedback.get(requestId) ?? new Map<string, boolean>();
  project.feedback.set(requestId, recorded);
  for (const [questionId, correct] of reports) recorded.set(questionId, correct);
}

// ---------------------------------------------------------------------------------------------
// HTTP.

const generatedId = () => `req_${randomBytes(12).toString('hex')}`;
const digest = (text: string) => createHash('sha256').update(text).digest('hex');
const JSON_TYPE = 'application/json; charset=utf-8';

function errorText(code: string, message: string, requestId: string | null): string {
  return JSON.stringify({ error: { code, message, request_id: requestId } });
}

/** Whether a path, however spelt (escapes, dot segments, doubled slashes, backslashes, case), names something under /v1. */
function isUnderV1(path: string): boolean {
  let bare = path;
  for (let round = 0; round < 3; round += 1) {
    try {
      const decoded = decodeURIComponent(bare);
      if (decoded === bare) break;
      bare = decoded;
    } catch {
      break;
    }
  }
  const segments: string[] = [];
  for (const segment of bare.replace(/\\/g, '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return segments[0]?.trim().toLowerCase() === 'v1';
}

/** The path of a request target (origin or absolute form), without query or fragment. */
function pathOf(target: string): string {
  let rest = target;
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/.exec(rest);
  if (scheme) rest = rest.slice(scheme[0].length) || '/';
  return rest.split(/[?#]/, 1)[0]!;
}

type RouteName = 'decide' | 'feedback' | 'models' | 'health' | 'openapi' | 'assets';

interface Route {
  name: RouteName;
  methods: readonly string[];
}

const ROUTES: Record<string, Route> = {
  '/v1/decide': { name: 'decide', methods: ['POST'] },
  '/v1/feedback': { name: 'feedback', methods: ['POST'] },
  '/v1/models': { name: 'models', methods: ['GET'] },
  '/health': { name: 'health', methods: ['GET', 'HEAD'] },
  '/openapi.json': { name: 'openapi', methods: ['GET', 'HEAD'] },
};

/** Exact spellings only; one trailing slash is allowed (open point path-spelling). */
function routeOf(path: string): Route | undefined {
  const bare = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  if (bare === '/v1/assets' || bare.startsWith('/v1/assets/')) return { name: 'assets', methods: [] };
  return Object.hasOwn(ROUTES, bare) ? ROUTES[bare] : undefined;
}

interface ReadBody {
  bytes: Buffer;
  tooLarge: boolean;
  /** The body was left unread past DRAIN_LIMIT_BYTES: the connection is closed after the answer. */
  cut: boolean;
}

/** Reads the body, keeping at most BODY_LIMIT_BYTES (when `keep`) and discarding the rest. */
function readBody(request: IncomingMessage, keep: boolean): Promise<ReadBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (cut: boolean) => {
      if (settled) return;
      settled = true;
      request.off('data', onData);
      resolve({ bytes: Buffer.concat(chunks), tooLarge: size > BODY_LIMIT_BYTES, cut });
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (keep && size <= BODY_LIMIT_BYTES) chunks.push(chunk);
      if (size > DRAIN_LIMIT_BYTES) {
        request.pause();
        finish(true);
      }
    };
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > DRAIN_LIMIT_BYTES) {
      size = declared;
      finish(true);
      return;
    }
    request.on('data', onData);
    request.once('end', () => finish(false));
    request.once('error', () => finish(true));
    request.once('close', () => finish(!request.complete));
  });
}

interface Reply {
  status: number;
  body?: string | Buffer;
  headers?: Record<string, string>;
}

function respond(response: ServerResponse, reply: Reply, closeAfter: boolean): void {
  if (response.headersSent || response.writableEnded || response.destroyed) return;
  const body = reply.body === undefined ? undefined : typeof reply.body === 'string' ? Buffer.from(reply.body, 'utf8') : reply.body;
  for (const [name, value] of Object.entries(reply.headers ?? {})) response.setHeader(name, value);
  response.setHeader('Cache-Control', 'no-store');
  if (body !== undefined) {
    response.setHeader('Content-Type', JSON_TYPE);
    response.setHeader('Content-Length', body.length);
  }
  if (closeAfter) {
    response.setHeader('Connection', 'close');
    response.once('finish', () => response.socket?.destroySoon());
  }
  response.statusCode = reply.status;
  response.end(body);
}

/** Reads whether a JSON endpoint takes this Content-Type: absent or empty is read as JSON, as is application/json or any application/*+json. */
function takesContentType(header: string | undefined): boolean {
  if (header === undefined || header.trim() === '') return true;
  const type = header.split(';', 1)[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(type);
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function jsonBodyOf(bytes: Buffer): JsonObject {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new BodyRefused('The body is not UTF-8 text.');
  }
  const value = parseJson(text);
  if (!isObject(value)) throw new BodyRefused(`The body must be a JSON object; got ${kindOf(value)}.`);
  return value;
}

export interface IndependentServer {
  baseUrl: string;
  keyA: string;
  keyB: string;
  /** The Node HTTP server it listens with (for a burst barrier in front of its handler). */
  server: Server;
  close(): Promise<void>;
}

/** Starts the independent server on a free loopback port, with keys of two projects (given, or made up). */
export async function startIndependentServer(options: { keys?: { a: string; b: string } } = {}): Promise<IndependentServer> {
  const keys = options.keys ?? { a: `${KEY_PREFIX}${randomBytes(16).toString('hex')}`, b: `${KEY_PREFIX}${randomBytes(16).toString('hex')}` };
  for (const key of [keys.a, keys.b]) {
    if (!key.startsWith(KEY_PREFIX) || key.length <= KEY_PREFIX.length || /\s/.test(key)) throw new Error(`Keys have the form ${KEY_PREFIX}<secret>`);
  }
  if (keys.a === keys.b) throw new Error('The two projects need different keys');
  const newProject = (name: string): Project => ({ name, decisions: new Map(), feedback: new Map(), inFlight: 0 });
  const projects = new Map<string, Project>([
    [digest(keys.a), newProject('a')],
    [digest(keys.b), newProject('b')],
  ]);
  const openapiBytes = Buffer.from(openapiJson, 'utf8');

  /** The project of the bearer credential, compared by digest; undefined for anything else. */
  const projectOf = (request: IncomingMessage): Project | undefined => {
    const token = /^bearer +(\S+) *$/i.exec(request.headers.authorization ?? '')?.[1];
    return token === undefined ? undefined : projects.get(digest(token));
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const sentId = request.headers['x-request-id'];
    const callerId = typeof sentId === 'string' ? sentId : undefined;
    const callerIdValid = callerId !== undefined && REQUEST_ID.test(callerId);
    const requestId = callerIdValid ? callerId : generatedId();
    response.setHeader('X-Request-ID', requestId);
    const method = (request.method ?? 'GET').toUpperCase();
    const path = pathOf(request.url ?? '/');
    const route = routeOf(path);
    const keyed = isUnderV1(path);
    const project = keyed ? projectOf(request) : undefined;

    const refuse = async (error: ApiError, bodyId: string | null = requestId) => {
      const body = await readBody(request, false);
      respond(response, { status: error.status, body: errorText(error.code, error.message, bodyId), headers: error.headers }, body.cut);
    };

    if (keyed && !project) {
      const hasHeader = request.headers.authorization !== undefined;
      return refuse(
        new ApiError(
          401,
          'UNAUTHORIZED',
          hasHeader ? 'Invalid API key: send Authorization: Bearer svc_live_<secret>.' : 'Missing API key: send Authorization: Bearer svc_live_<secret>.',
          { 'WWW-Authenticate': 'Bearer' },
        ),
      );
    }
    if (callerId !== undefined && !callerIdValid)
      return refuse(invalid("X-Request-ID must be 1 to 128 characters from letters, digits, '.', '_', ':' and '-'."), null);
    if (project && project.inFlight >= MAX_IN_FLIGHT_PER_KEY)
      return refuse(new ApiError(429, 'RATE_LIMITED', `At most ${MAX_IN_FLIGHT_PER_KEY} requests in flight per key; retry in 1 s.`, { 'Retry-After': '1' }));
    if (project) {
      project.inFlight += 1;
      response.once('close', () => {
        project.inFlight -= 1;
      });
    }
    if (!route) return refuse(invalid(`No route ${method} ${JSON.stringify(path)}.`));
    if (route.name === 'assets') return refuse(new ApiError(404, 'NOT_FOUND', 'Assets are planned and not available on this service.'));
    if (!route.methods.includes(method))
      return refuse(new ApiError(405, 'NOT_FOUND', `${route.methods.join(' and ')} only on this path; no ${method}.`, { Allow: route.methods.join(', ') }));

    const takesBody = route.name === 'decide' || route.name === 'feedback';
    const body = await readBody(request, takesBody);
    const answer = (reply: Reply) => respond(response, reply, body.cut);
    const fail = (error: ApiError) => answer({ status: error.status, body: errorText(error.code, error.message, requestId), headers: error.headers });
    if (body.tooLarge) return fail(new ApiError(413, 'PAYLOAD_TOO_LARGE', `The request body is over ${BODY_LIMIT_BYTES} bytes (256 KiB).`));

    switch (route.name) {
      case 'health':
        return answer({ status: 200, body: '{"live":true}' });
      case 'openapi':
        return answer({ status: 200, body: openapiBytes });
      case 'models':
        return answer({
          status: 200,
          body: JSON.stringify({
            default: MODEL,
            available: [{ name: MODEL, kind: 'current' }, ...ALIASES.map((name) => ({ name, kind: 'alias', of: MODEL }))],
          }),
        });
      default:
        break;
    }
    // decide and feedback: a JSON body.
    try {
      if (!takesContentType(request.headers['content-type']))
        throw invalid(`Send the body as Content-Type: application/json; got ${JSON.stringify(request.headers['content-type'])}.`);
      let json: JsonObject;
      try {
        json = jsonBodyOf(body.bytes);
      } catch (error) {
        if (error instanceof BodyRefused) throw invalid(error.message);
        throw error;
      }
      if (route.name === 'feedback') {
        recordFeedback(project!, json);
        return answer({ status: 204 });
      }
      const input = validateDecide(json);
      const text = decideResponse(input);
      remember(project!, requestId, new Set(input.questions.map(({ id }) => id)));
      await sleep(INFERENCE_MS);
      return answer({ status: 201, body: text });
    } catch (error) {
      if (error instanceof ApiError) return fail(error);
      throw error;
    }
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) {
        const id = String(response.getHeader('X-Request-ID') ?? generatedId());
        respond(response, { status: 500, body: errorText('INTERNAL_ERROR', 'The server failed; the request id identifies the failure.', id) }, true);
      } else response.destroy();
    });
  });
  server.requestTimeout = 60_000;
  server.headersTimeout = 30_000;
  // A client may half-close its side once its request is sent (RFC 9112 section 9.6); by default
  // Node's server then drops the answer still being computed. With this, the answer is sent and the
  // connection closed after it.
  (server as typeof server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;

  /** Answers what Node's HTTP parser refuses (or a CONNECT), in the error body with a request id. */
  const rawRefusal = (socket: Socket, status: string, message: string) => {
    const id = generatedId();
    const body = errorText('INVALID_REQUEST', message, id);
    socket.end(
      `HTTP/1.1 ${status}\r\nContent-Type: ${JSON_TYPE}\r\nX-Request-ID: ${id}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  };
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const pending = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
      socket.destroy();
      return;
    }
    rawRefusal(socket, '400 Bad Request', 'The request could not be read as HTTP/1.1.');
  });
  server.on('connect', (_request: IncomingMessage, socket: Socket) => {
    socket.on('error', () => {});
    rawRefusal(socket, '400 Bad Request', 'CONNECT is not served.');
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    keyA: keys.a,
    keyB: keys.b,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// The edges of the API's surface (seed 2.7, 4, 5, 7, 8, 9), generated from the spec's paths and
// operations: every method a /v1 path does not serve, every /v1 path written another way (a
// trailing or doubled slash, a percent-encoded letter, dot segments, /V1, a query string), and
// request bodies at the edges of JSON and HTTP. Each case is a request that just passed, on a real
// resource, with one thing changed (the method, the path's spelling, the body), sent with the first
// project's key or without a key. Paths go on the wire exactly as written (SentRequest.exactPath).
import { randomBytes } from 'node:crypto';
import { operation, operations, referenceChoice, requestBodyValidator, type Operation } from '../spec/index.ts';
import { area, CheckFailure, type Check } from '../harness/check.ts';
import type { CheckContext } from '../harness/context.ts';
import { describeReply, expectErrorBody, expectRequestIdHeader, expectValidBody, isSuccess } from '../harness/expect.ts';
import type { Reply, SentRequest } from '../harness/http.ts';
import { inOrder } from '../harness/in-flight.ts';
import { BILLING_CONTEXT, choiceQuestions, decideBody, referenceFeedbackBody, replyOutcome } from '../harness/requests.ts';
import { pngImage } from '../harness/samples/media.ts';

/** The methods every /v1 path is tried with; those a path does not serve are its cases. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** The operations that need a key: the /v1 endpoints. */
const keyedOperations: readonly Operation[] = operations.filter((op) => op.requiresKey);

/** Each /v1 path of the spec with the operations it serves. */
const keyedPaths = [...new Set(keyedOperations.map((op) => op.path))].map((path) => ({ path, ops: keyedOperations.filter((op) => op.path === path) }));

/** The operations that take a request body (decide, feedback, upload). */
const bodyOperations = keyedOperations.filter((op) => op.requestMediaTypes.length > 0);

const upper = (method: string) => method.toUpperCase();

interface Body {
  raw: string | Uint8Array;
  contentType: string;
}

/** One passing request of an operation: its path filled with a real resource, and its body. */
interface Instance {
  path: string;
  body?: Body;
}

type As = 'a' | 'anonymous';
const WITHOUT_KEY = 'without a key';
const withOrWithout = (as: As) => (as === 'a' ? 'with key A' : WITHOUT_KEY);

/** What a check sends: every request with its path exactly as written; uploads that succeed are deleted at the end. */
class Session {
  private readonly assets = new Set<string>();
  constructor(readonly t: CheckContext) {}

  async send(as: As, request: Omit<SentRequest, 'key'>): Promise<Reply> {
    const reply = await this.t[as].send({ ...request, exactPath: true });
    if (request.method === 'POST' && isSuccess(reply) && reply.json?.object === 'asset' && typeof reply.json.id === 'string') this.assets.add(reply.json.id);
    if (request.method === 'DELETE' && isSuccess(reply) && typeof reply.json?.id === 'string') this.assets.delete(reply.json.id);
    return reply;
  }

  private readable: Promise<string> | undefined;

  /**
   * An asset of project A to read, uploaded once per session (an upload is the costliest request
   * here) and never deleted by it: operations run at once, and another's assets may be on their
   * way to a DELETE.
   */
  readableAsset(): Promise<string> {
    this.readable ??= this.upload();
    return this.readable;
  }

  /** Uploads a small PNG with key A; its id, or why there is none. */
  async upload(): Promise<string> {
    const reply = await this.send('a', { method: 'POST', path: '/v1/assets', raw: pngImage(), contentType: 'image/png' });
    if (!isSuccess(reply) || typeof reply.json?.id !== 'string') throw new NotPrepared(`uploading a PNG with key A answered ${describeReply(reply)}`);
    return reply.json.id;
  }

  async cleanup(): Promise<void> {
    await Promise.all([...this.assets].map((id) => this.t.a.deleteAsset(id).catch(() => undefined)));
  }
}

async function withSession(t: CheckContext, use: (session: Session) => Promise<void>): Promise<void> {
  const session = new Session(t);
  try {
    await use(session);
  } finally {
    await session.cleanup();
  }
}

class NotPrepared extends Error {}

/** An operation the checks send: how to make passing requests of it, each on a resource of its own where a success uses it. */
interface Subject {
  op: Operation;
  method: string;
  label: string;
  /** True when a success uses the resource up (DELETE): the unchanged request comes after the changed one, on the same resource. */
  consumes: boolean;
  instances(count: number): Promise<Instance[]>;
}

const jsonBody = (value: unknown): Body => ({ raw: JSON.stringify(value), contentType: 'application/json' });

/** Passing feedback bodies, each on a question of its own of a decision just made (a second report on one question may be refused). */
async function feedbackBodies(session: Session, count: number): Promise<Body[]> {
  const bodies: Body[] = [];
  while (bodies.length < count) {
    const size = Math.min(16, count - bodies.length);
    const requestId = `edge-feedback-${randomBytes(8).toString('hex')}`;
    const decided = await session.send('a', {
      method: 'POST',
      path: '/v1/decide',
      json: { context: BILLING_CONTEXT, questions: choiceQuestions(size) },
      headers: { 'x-request-id': requestId },
    });
    if (!isSuccess(decided)) throw new NotPrepared(`the decision the feedback is about answered ${describeReply(decided)}`);
    for (const questionId of Object.keys(choiceQuestions(size)))
      bodies.push(jsonBody(referenceFeedbackBody(decided.headers['x-request-id'] ?? requestId, [questionId], true)));
  }
  return bodies;
}

/** The subject of `op` for this session, or why the kit cannot prepare it on this target. */
function subjectOf(session: Session, op: Operation): Subject | string {
  const method = upper(op.method);
  const label = `${method} ${op.path}`;
  if (op.path.startsWith('/v1/assets') && !session.t.target.capabilities.has('assets')) return 'the target does not claim assets (--capabilities)';
  const subject = (instances: Subject['instances']): Subject => ({ op, method, label, consumes: op.method === 'delete', instances });
  const filled = (id: string) => op.path.replace('{asset_id}', encodeURIComponent(id));
  switch (op.operationId) {
    case 'decide':
      return subject(async (count) => Array.from({ length: count }, () => ({ path: op.path, body: jsonBody(decideBody()) })));
    case 'submitFeedback':
      return subject(async (count) => (await feedbackBodies(session, count)).map((body) => ({ path: op.path, body })));
    case 'uploadAsset':
      return subject(async (count) => Array.from({ length: count }, () => ({ path: op.path, body: { raw: pngImage(), contentType: 'image/png' } })));
    case 'getAsset':
      return subject(async (count) => {
        const path = filled(await session.readableAsset());
        return Array.from({ length: count }, () => ({ path }));
      });
    case 'deleteAsset':
      return subject(async (count) => Promise.all(Array.from({ length: count }, async () => ({ path: filled(await session.upload()) }))));
    default:
      if (op.path.includes('{') || op.method !== 'get') return `the kit has no passing request for ${op.operationId}`;
      return subject(async (count) => Array.from({ length: count }, () => ({ path: op.path })));
  }
}

/** The subject and `count` passing requests of it, or undefined (noted) when they cannot be made on this target. */
async function prepared(session: Session, op: Operation, count: number): Promise<{ subject: Subject; instances: Instance[] } | undefined> {
  const subject = subjectOf(session, op);
  try {
    if (typeof subject === 'string') throw new NotPrepared(subject);
    return { subject, instances: await subject.instances(count) };
  } catch (error) {
    if (!(error instanceof NotPrepared)) throw error;
    session.t.note(`${upper(op.method)} ${op.path} not checked: ${error.message}`);
    return undefined;
  }
}

const bodyFields = (body: Body | undefined) => (body ? { raw: body.raw, contentType: body.contentType } : {});

/**
 * Sends the unchanged request with key A: it must succeed, so that what a changed one gets can
 * come only from the change. Where its success rests on an open point (feedback-shape), a refusal
 * is noted and false returned.
 */
async function unchangedPasses(session: Session, subject: Subject, instance: Instance): Promise<boolean> {
  const reply = await session.send('a', { method: subject.method, path: instance.path, ...bodyFields(instance.body) });
  if (isSuccess(reply)) return true;
  if (!subject.op.openPoint)
    session.t.fail(`a 2xx for ${subject.method} ${instance.path} with key A, unchanged (the request each case changes one thing of)`, describeReply(reply));
  session.t.note(`${subject.label}: the kit's passing request answered ${describeReply(reply)}; its shape is open (${subject.op.openPoint})`);
  return false;
}

interface Rule {
  operationId: string;
  /** A HEAD answer: no body to judge. */
  head?: boolean;
  /** Why the seed refuses the request (no key, an invalid body): never a 2xx. */
  refused?: string;
  /** A 2xx must be the operation's answer (its body meets the operation's contract). */
  servedAsOperation?: boolean;
}

/**
 * The seed's rules on any answer: a well-formed X-Request-ID (2.7), no 5xx for a client's
 * request, no 2xx where the seed refuses it, the error body of section 7 on an error, and the
 * operation's answer on a success where that is asked. Fails naming the case.
 */
function judge(t: CheckContext, label: string, reply: Reply, rule: Rule): void {
  try {
    expectRequestIdHeader(reply);
    if (reply.status >= 500) throw new CheckFailure('no 5xx: the request is a client fault, answered with a 4xx or served', describeReply(reply));
    if (rule.refused && isSuccess(reply)) throw new CheckFailure(`an error status (${rule.refused})`, describeReply(reply));
    if (reply.status >= 400 && !rule.head) expectErrorBody(reply, undefined, rule.operationId);
    // An operation whose whole shape is open (feedback-shape) may answer with no body at all (204).
    const bodyOpen = reply.text === '' && operation(rule.operationId).openPoint !== undefined;
    if (isSuccess(reply) && rule.servedAsOperation && !rule.head && !bodyOpen) expectValidBody(reply, rule.operationId);
  } catch (error) {
    if (error instanceof CheckFailure) t.fail(`${error.expected}, for ${label}`, error.observed);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Methods a path does not serve.

interface MethodReply {
  /** The path as sent (its asset id filled in), and as the spec writes it. */
  path: string;
  template: string;
  method: string;
  /** HEAD on a path served with GET (open point head-method), as opposed to any other unserved method (unknown-route). */
  headOfGet: boolean;
  operationId: string;
  reply: Reply;
}

/**
 * For every /v1 path: the unchanged request of one of its operations (GET where it has one) with
 * key A, then every method the path does not serve, on the same resource (PUT and PATCH carry the
 * passing body), sent as `as`.
 */
async function unservedMethodReplies(session: Session, as: As, options: { headOfGetOnly?: boolean } = {}): Promise<MethodReply[]> {
  // The paths share nothing: up to --workers of them at once.
  const byPath = await inOrder(keyedPaths, session.t.workers, async ({ path: template, ops }): Promise<MethodReply[]> => {
    const served = new Set(ops.map((op) => upper(op.method)));
    const methods = METHODS.filter((method) => !served.has(method) && (!options.headOfGetOnly || (method === 'HEAD' && served.has('GET'))));
    if (methods.length === 0) return [];
    const representative = ops.find((op) => op.method === 'get') ?? ops.find((op) => op.method !== 'delete') ?? ops[0]!;
    const ready = await prepared(session, representative, 1 + methods.length);
    if (!ready) return [];
    const { subject, instances } = ready;
    if (!(await unchangedPasses(session, subject, instances[0]!)) && as === 'a') return [];
    return Promise.all(
      methods.map(async (method, index) => {
        const instance = instances[index + 1]!;
        const withBody = method === 'PUT' || method === 'PATCH';
        const reply = await session.send(as, { method, path: instance.path, ...(withBody ? bodyFields(instance.body) : {}) });
        return { path: instance.path, template, method, headOfGet: method === 'HEAD' && served.has('GET'), operationId: representative.operationId, reply };
      }),
    );
  });
  const replies = byPath.flat();
  if (replies.length === 0) session.t.skip('no /v1 path could be prepared on this target');
  return replies;
}

function judgeUnservedMethods(session: Session, as: As, replies: readonly MethodReply[]): void {
  for (const { path, method, operationId, reply } of replies)
    judge(session.t, `${method} ${path} ${withOrWithout(as)}`, reply, {
      operationId,
      head: method === 'HEAD',
      ...(as === 'anonymous' ? { refused: 'every /v1 request needs a valid key, whatever its method (5.1, 5.5)' } : {}),
    });
}

/** "status 404 with code NOT_FOUND: 22 requests; status 405: PUT /v1/models, …" */
function tally(entries: ReadonlyArray<{ label: string; reply: Reply }>): string {
  const byOutcome = new Map<string, string[]>();
  for (const { label, reply } of entries) byOutcome.set(replyOutcome(reply), [...(byOutcome.get(replyOutcome(reply)) ?? []), label]);
  return [...byOutcome]
    .sort((x, y) => y[1].length - x[1].length)
    .map(([outcome, labels]) => `${outcome} (${labels.length > 3 ? `${labels.length} requests` : labels.join(', ')})`)
    .join('; ');
}

// ---------------------------------------------------------------------------------------------
// Spellings of a path.

interface Spelling {
  /** The id open point path-spelling uses (served_spellings). */
  id: string;
  what: string;
  spell(path: string): string;
}

/** The path's first segment (the version) and the rest, e.g. ["v1", "decide"] of /v1/decide. */
function split(path: string): [string, string] {
  const [version = '', ...rest] = path.slice(1).split('/');
  return [version, rest.join('/')];
}

/** The character at `index` of `segment` percent-encoded (%65 for e): the same segment under RFC 3986 section 2.3. */
const percentEncoded = (segment: string, index: number) =>
  `${segment.slice(0, index)}%${segment.charCodeAt(index).toString(16).toUpperCase()}${segment.slice(index + 1)}`;

const SPELLINGS: readonly Spelling[] = [
  { id: 'trailing-slash', what: 'a trailing slash', spell: (path) => `${path}/` },
  { id: 'doubled-slash', what: 'a doubled slash', spell: (path) => `/${split(path)[0]}//${split(path)[1]}` },
  {
    id: 'percent-encoded-version',
    what: 'a percent-encoded letter in the version',
    spell: (path) => `/${percentEncoded(split(path)[0], 0)}/${split(path)[1]}`,
  },
  {
    id: 'percent-encoded-segment',
    what: 'a percent-encoded letter after the version',
    spell: (path) => `/${split(path)[0]}/${percentEncoded(split(path)[1], 1)}`,
  },
  { id: 'dot-segment', what: 'a dot segment', spell: (path) => `/${split(path)[0]}/./${split(path)[1]}` },
  { id: 'dot-dot-segment', what: 'a segment and a dot-dot segment', spell: (path) => `/${split(path)[0]}/x/../${split(path)[1]}` },
  { id: 'version-case', what: 'the version in upper case', spell: (path) => `/${split(path)[0].toUpperCase()}/${split(path)[1]}` },
  { id: 'query-string', what: 'a query string', spell: (path) => `${path}?x=1` },
];

interface SpellingReply {
  spelling: Spelling;
  subject: Subject;
  /** "POST /v1//decide" */
  label: string;
  reply: Reply;
}

/**
 * For every /v1 operation: the unchanged request with key A, then the same request under every
 * spelling of its path, sent as `as`, each on a resource of its own where a success uses it up
 * (a delete: refused spellings are followed by the unchanged request on the same asset).
 */
async function spellingReplies(session: Session, as: As): Promise<SpellingReply[]> {
  // The operations share nothing (each has resources of its own): up to --workers of them at once.
  const byOperation = await inOrder(keyedOperations, session.t.workers, async (op): Promise<SpellingReply[]> => {
    const consumes = op.method === 'delete';
    const ready = await prepared(session, op, consumes ? 1 : 1 + SPELLINGS.length);
    if (!ready) return [];
    const { subject, instances } = ready;
    const spell = async (spelling: Spelling, instance: Instance): Promise<SpellingReply> => {
      const path = spelling.spell(instance.path);
      return {
        spelling,
        subject,
        label: `${subject.method} ${path}`,
        reply: await session.send(as, { method: subject.method, path, ...bodyFields(instance.body) }),
      };
    };
    if (!consumes) {
      if (!(await unchangedPasses(session, subject, instances[0]!)) && as === 'a') return [];
      return Promise.all(SPELLINGS.map((spelling, index) => spell(spelling, instances[index + 1]!)));
    }
    // A delete uses its asset up: the spellings go one at a time, each refused one leaving the asset
    // to the next; after a served one, a new asset. The unchanged delete then ends on the asset the
    // refused ones met, which must still be there.
    const replies: SpellingReply[] = [];
    let instance: Instance | undefined = instances[0];
    for (const spelling of SPELLINGS) {
      instance ??= (await subject.instances(1))[0]!;
      const sent = await spell(spelling, instance);
      replies.push(sent);
      if (isSuccess(sent.reply)) instance = undefined;
    }
    if (instance) await unchangedPasses(session, subject, instance);
    return replies;
  });
  const replies = byOperation.flat();
  if (replies.length === 0) session.t.skip('no /v1 operation could be prepared on this target');
  return replies;
}

// ---------------------------------------------------------------------------------------------
// Bodies at the edges.

interface Changed {
  raw: string | Uint8Array;
  contentType?: string;
  chunked?: boolean;
}

interface BodyCase {
  /** The id open point request-body-edges uses (served_cases), where the case is one of its. */
  id: string;
  what: string;
  /** Whether the case applies to this passing body (a JSON body, one with a string context, a file). */
  applies(body: Body, op: Operation): boolean;
  change(body: Body): Changed;
  /** Why the seed makes the changed request invalid (then it is never a 2xx), or undefined where it does not. */
  invalid(changed: Changed, op: Operation): string | undefined;
}

const isJson = (op: Operation) => op.requestMediaTypes.includes('application/json');
const textOf = (body: Body) => (typeof body.raw === 'string' ? body.raw : Buffer.from(body.raw).toString('utf8'));
const parsed = (body: Body): Record<string, unknown> => JSON.parse(textOf(body));
const hasStringContext = (body: Body, op: Operation) => isJson(op) && typeof parsed(body).context === 'string';
/** 5,000 levels of arrays: 10,000 bytes, well within the 256 KiB body limit (seed 8). */
const DEEP = `${'['.repeat(5000)}${']'.repeat(5000)}`;

/** The JSON text of `body` with member `name` set to raw JSON text (a nesting or a number no parser need keep). */
function withRawMember(body: Body, name: string, rawValue: string): string {
  const marker = `edge-marker-${randomBytes(6).toString('hex')}`;
  return JSON.stringify({ ...parsed(body), [name]: marker }).replace(JSON.stringify(marker), rawValue);
}

/** The first member of the body written twice, with the same value: duplicate member names. */
function withDuplicateMember(body: Body): string {
  const [name, value] = Object.entries(parsed(body))[0]!;
  return `{${JSON.stringify(name)}:${JSON.stringify(value)},${textOf(body).trimStart().slice(1)}`;
}

/** The context string with `prefix` (raw bytes) at its start. */
function withContextPrefix(body: Body, prefix: Uint8Array | string): Uint8Array {
  const text = textOf(body);
  const at = text.indexOf('"context":"') + '"context":"'.length;
  return Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from(prefix), Buffer.from(text.slice(at))]);
}

/** Refused by the seed: the body leaves the spec's request schema (an unknown field, 4.1), where the operation's shape is not open. */
function outsideClosedSchema(changed: Changed, op: Operation): string | undefined {
  if (op.openPoint) return undefined;
  const text = typeof changed.raw === 'string' ? changed.raw : Buffer.from(changed.raw).toString('utf8');
  return requestBodyValidator(op.operationId)(JSON.parse(text)).valid ? undefined : 'unknown fields are rejected (4.1)';
}

/** A body that is not a JSON object, or for an upload not a file of its declared type. */
const notABody = (_changed: Changed, op: Operation) =>
  isJson(op) ? 'the body is a JSON object (2.1, 4)' : 'the body is the file (required), of the type its Content-Type names (4.5)';
/** A context is a string or a list of parts (2.1). */
const notAContext = () => 'a context is a string of 1 to 8,000 characters or a list of parts (2.1)';
const always = () => true;
const never = () => undefined;
const same = (body: Body, raw: string | Uint8Array): Changed => ({ raw, contentType: body.contentType });

/** The whole body replaced, its Content-Type kept: a body the seed makes invalid (2.1; for an upload, no file or content not of its type, 4.5). */
const WHOLE_BODY_CASES: readonly BodyCase[] = [
  { id: 'empty', what: 'an empty body (an upload: no file)', applies: always, change: (body) => same(body, ''), invalid: notABody },
  { id: 'whitespace', what: 'a body of whitespace only', applies: always, change: (body) => same(body, ' \r\n\t '), invalid: notABody },
  ...['[]', '"x"', '1', 'null'].map((text) => ({
    id: `json-${text}`,
    what: `the JSON ${text} (not an object)`,
    applies: always,
    change: (body: Body) => same(body, text),
    invalid: notABody,
  })),
];

/** Values no parser need keep: deep nesting within the body limit, a number beyond double range. */
const PARSER_CASES: readonly BodyCase[] = [
  {
    id: 'deep-context',
    what: 'a context nested 5,000 arrays deep',
    applies: hasStringContext,
    change: (body) => same(body, withRawMember(body, 'context', DEEP)),
    invalid: notAContext,
  },
  {
    id: 'deep-unknown-field',
    what: 'an unknown field nested 5,000 arrays deep',
    applies: (_body, op) => isJson(op),
    change: (body) => same(body, withRawMember(body, 'edge_nesting', DEEP)),
    invalid: outsideClosedSchema,
  },
  {
    id: 'huge-number-context',
    what: 'the context 1e400 (beyond double range)',
    applies: hasStringContext,
    change: (body) => same(body, withRawMember(body, 'context', '1e400')),
    invalid: notAContext,
  },
  {
    id: 'huge-number-unknown-field',
    what: 'an unknown field 1e400 (beyond double range)',
    applies: (_body, op) => isJson(op),
    change: (body) => same(body, withRawMember(body, 'edge_number', '1e400')),
    invalid: outsideClosedSchema,
  },
];

/** The edges of open point request-body-edges: each case's id is one of its served_cases. */
const JSON_EDGE_CASES: readonly BodyCase[] = [
  {
    id: 'duplicate-names',
    what: 'its first member written twice',
    applies: (_body, op) => isJson(op),
    change: (body) => same(body, withDuplicateMember(body)),
    invalid: never,
  },
  {
    id: 'byte-order-mark',
    what: 'a UTF-8 byte-order mark before it',
    applies: (_body, op) => isJson(op),
    change: (body) => same(body, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(textOf(body))])),
    invalid: never,
  },
  {
    id: 'invalid-utf8',
    what: 'bytes that are not UTF-8 (FF FE) inside the context',
    applies: hasStringContext,
    change: (body) => same(body, withContextPrefix(body, new Uint8Array([0xff, 0xfe]))),
    invalid: never,
  },
  {
    id: 'lone-surrogate',
    what: 'an unpaired surrogate escape \\ud800 inside the context',
    applies: hasStringContext,
    change: (body) => same(body, withContextPrefix(body, '\\ud800')),
    invalid: never,
  },
  {
    id: 'chunked',
    what: 'chunked transfer coding (no Content-Length)',
    applies: always,
    change: (body) => ({ raw: body.raw, contentType: body.contentType, chunked: true }),
    invalid: never,
  },
];

/** The passing body under another Content-Type: open point json-content-type for JSON bodies; for an upload, the file's type is required (4.5). */
const CONTENT_TYPE_CASES: readonly BodyCase[] = [
  {
    id: 'no-content-type',
    what: 'no Content-Type',
    applies: always,
    change: (body) => ({ raw: body.raw }),
    // A JSON body without one is open (json-content-type).
    invalid: (_changed, op) => (isJson(op) ? undefined : "an upload names the file's type in Content-Type (4.5)"),
  },
  {
    id: 'text-plain',
    what: 'Content-Type text/plain',
    applies: always,
    change: (body) => ({ raw: body.raw, contentType: 'text/plain' }),
    invalid: never,
  },
];

interface BodyReply {
  bodyCase: BodyCase;
  subject: Subject;
  /** Why the seed refuses the changed request, if it does. */
  invalid: string | undefined;
  label: string;
  reply: Reply;
}

/**
 * For every operation that takes a body: the unchanged request with key A, then each case that
 * applies to its body, all with key A. Where the unchanged request's success rests on an open
 * point and fails (feedback-shape), the operation is skipped with a note.
 */
async function bodyReplies(session: Session, cases: readonly BodyCase[], options: { jsonOnly?: boolean } = {}): Promise<BodyReply[]> {
  const ops = bodyOperations.filter((candidate) => !options.jsonOnly || isJson(candidate));
  // The operations share nothing: up to --workers of them at once.
  const byOperation = await inOrder(ops, session.t.workers, async (op): Promise<BodyReply[]> => {
    const ready = await prepared(session, op, 1 + cases.length);
    if (!ready) return [];
    const { subject, instances } = ready;
    if (!(await unchangedPasses(session, subject, instances[0]!))) return [];
    const sent = await Promise.all(
      cases.map(async (bodyCase, index) => {
        const body = instances[index + 1]!.body!;
        if (!bodyCase.applies(body, op)) return undefined;
        const changed = bodyCase.change(body);
        const reply = await session.send('a', {
          method: subject.method,
          path: instances[index + 1]!.path,
          raw: changed.raw,
          ...(changed.contentType !== undefined ? { contentType: changed.contentType } : {}),
          ...(changed.chunked ? { chunked: true } : {}),
        });
        return { bodyCase, subject, invalid: bodyCase.invalid(changed, op), label: `${subject.label} with ${bodyCase.what}`, reply };
      }),
    );
    return sent.filter((entry) => entry !== undefined);
  });
  const replies = byOperation.flat();
  if (replies.length === 0) session.t.skip('no operation that takes a body could be prepared on this target');
  return replies;
}

function judgeBodies(session: Session, replies: readonly BodyReply[]): void {
  for (const { subject, invalid, label, reply } of replies)
    judge(session.t, `${label} (key A)`, reply, {
      operationId: subject.op.operationId,
      servedAsOperation: true,
      ...(invalid ? { refused: invalid } : {}),
    });
}

/** "decide status 200, submitFeedback status 201" of one case, per operation. */
function outcomesByCase(replies: readonly BodyReply[]): Map<BodyCase, BodyReply[]> {
  const byCase = new Map<BodyCase, BodyReply[]>();
  for (const entry of replies) byCase.set(entry.bodyCase, [...(byCase.get(entry.bodyCase) ?? []), entry]);
  return byCase;
}

const describeOutcomes = (entries: readonly BodyReply[]) => entries.map(({ subject, reply }) => `${subject.op.operationId} ${replyOutcome(reply)}`).join(', ');

export const surfaceEdgeChecks: Check[] = area('surface-edges', [
  {
    id: 'EDGE-METHOD-NO-KEY',
    level: 'MUST',
    seedSections: ['2.7', '5', '7'],
    bounds: ['unknown-route', 'head-method'],
    title:
      'Every method a /v1 path does not serve (HEAD and OPTIONS included), sent without a key on a real resource: never a 2xx or a 5xx, a well-formed X-Request-ID, and an error in the error body',
    async run(t) {
      await withSession(t, async (session) => judgeUnservedMethods(session, 'anonymous', await unservedMethodReplies(session, 'anonymous')));
    },
  },
  {
    id: 'EDGE-METHOD-WITH-KEY',
    level: 'MUST',
    seedSections: ['2.7', '7'],
    bounds: ['unknown-route', 'head-method'],
    title:
      'Every method a /v1 path does not serve, sent with key A on a real resource: never a 5xx, a well-formed X-Request-ID, and an error in the error body',
    async run(t) {
      await withSession(t, async (session) => judgeUnservedMethods(session, 'a', await unservedMethodReplies(session, 'a')));
    },
  },
  {
    id: 'EDGE-METHOD-STATUS',
    level: 'OBSERVE',
    seedSections: ['7'],
    openPoint: 'unknown-route',
    title: 'Which status a method a /v1 path does not serve gets, with key A and without a key (HEAD on a GET path aside)',
    async run(t) {
      await withSession(t, async (session) => {
        const status = referenceChoice<number>('unknown-route', 'status');
        const code = referenceChoice<string>('unknown-route', 'code');
        const summaries: string[] = [];
        let matches = true;
        for (const as of ['a', 'anonymous'] as const) {
          const replies = (await unservedMethodReplies(session, as)).filter((entry) => !entry.headOfGet);
          summaries.push(`${withOrWithout(as)}: ${tally(replies.map(({ method, template, reply }) => ({ label: `${method} ${template}`, reply })))}`);
          matches &&= replies.every(({ method, reply }) => reply.status === status && (method === 'HEAD' || reply.json?.error?.code === code));
        }
        t.observe({ summary: summaries.join('. '), matchesReference: matches });
      });
    },
  },
  {
    id: 'EDGE-HEAD-STATUS',
    level: 'OBSERVE',
    seedSections: ['4', '5'],
    openPoint: 'head-method',
    title: 'What HEAD answers on a /v1 path served with GET, with key A (beside the GET) and without a key',
    async run(t) {
      await withSession(t, async (session) => {
        const headAsGet = referenceChoice<boolean>('head-method', 'head_as_get');
        const withKey = await unservedMethodReplies(session, 'a', { headOfGetOnly: true });
        const withoutKey = await unservedMethodReplies(session, 'anonymous', { headOfGetOnly: true });
        const summary = withKey
          .map(({ template, reply }, index) => `HEAD ${template}: status ${reply.status} with key A, status ${withoutKey[index]?.reply.status} without a key`)
          .join('; ');
        t.observe({ summary, matchesReference: withKey.every(({ reply }) => isSuccess(reply) === headAsGet) });
      });
    },
  },
  {
    id: 'EDGE-SPELLING-NO-KEY',
    level: 'MUST',
    seedSections: ['2.7', '5', '7', '9'],
    bounds: ['path-spelling', 'unknown-route'],
    title:
      'Every /v1 request that just passed, sent without a key under another spelling of its path (trailing or doubled slash, percent-encoded letter, dot segments, /V1, a query string): never a 2xx or a 5xx, a well-formed X-Request-ID, an error in the error body',
    async run(t) {
      await withSession(t, async (session) => {
        for (const { subject, label, reply } of await spellingReplies(session, 'anonymous'))
          judge(t, `${label} ${WITHOUT_KEY}`, reply, {
            operationId: subject.op.operationId,
            head: subject.method === 'HEAD',
            refused: 'every /v1 endpoint needs a valid key, however its path is written (5.1, 5.5)',
          });
      });
    },
  },
  {
    id: 'EDGE-SPELLING-WITH-KEY',
    level: 'MUST',
    seedSections: ['2.4', '2.5', '2.7', '4', '7', '9'],
    bounds: ['path-spelling', 'unknown-route'],
    title:
      'Every /v1 request that just passed, sent with key A under another spelling of its path: served as the operation (its contract) or refused in the error body, a well-formed X-Request-ID, never a 5xx',
    async run(t) {
      await withSession(t, async (session) => {
        for (const { subject, label, reply } of await spellingReplies(session, 'a'))
          judge(t, `${label} with key A`, reply, { operationId: subject.op.operationId, servedAsOperation: true });
      });
    },
  },
  {
    id: 'EDGE-SPELLING-STATUS',
    level: 'OBSERVE',
    seedSections: ['4', '9'],
    openPoint: 'path-spelling',
    title: 'Which spellings of a /v1 path are served with key A (2xx) and which refused, with what status',
    async run(t) {
      await withSession(t, async (session) => {
        const replies = await spellingReplies(session, 'a');
        const reference = new Set(referenceChoice<string[]>('path-spelling', 'served_spellings'));
        const summaries: string[] = [];
        let matches = true;
        for (const spelling of SPELLINGS) {
          const mine = replies.filter((entry) => entry.spelling === spelling);
          if (mine.length === 0) continue;
          const served = mine.filter(({ reply }) => isSuccess(reply));
          summaries.push(
            `${spelling.what}: ${served.length === mine.length ? `served (${mine.length} of ${mine.length})` : tally(mine.map(({ label, reply }) => ({ label, reply })))}`,
          );
          matches &&= reference.has(spelling.id) ? served.length === mine.length : served.length === 0;
        }
        t.observe({ summary: summaries.join('; '), matchesReference: matches });
      });
    },
  },
  {
    id: 'EDGE-BODY-NOT-AN-OBJECT',
    level: 'MUST',
    seedSections: ['2.1', '2.7', '4', '4.5', '7'],
    title:
      'A decide, feedback or upload that just passed, sent with key A with its body emptied (an upload without a file), whitespace only, or JSON that is not an object ([], "x", 1, null): never a 2xx or a 5xx, an error in the error body with X-Request-ID',
    async run(t) {
      await withSession(t, async (session) => judgeBodies(session, await bodyReplies(session, WHOLE_BODY_CASES)));
    },
  },
  {
    id: 'EDGE-BODY-PARSER-EXTREMES',
    level: 'MUST',
    seedSections: ['2.1', '2.7', '4.1', '7', '8'],
    title:
      'A passing JSON body with a context or an unknown field nested 5,000 arrays deep (within 256 KiB) or set to 1e400: never a 5xx; a 4xx in the error body where the seed refuses it (a context that is no string or parts, an unknown decide field)',
    async run(t) {
      await withSession(t, async (session) => judgeBodies(session, await bodyReplies(session, PARSER_CASES, { jsonOnly: true })));
    },
  },
  {
    id: 'EDGE-BODY-JSON-EDGES',
    level: 'MUST',
    seedSections: ['2.4', '2.5', '2.7', '4', '7'],
    bounds: ['request-body-edges'],
    title:
      'A passing body with duplicate member names, a byte-order mark, bytes that are not UTF-8 or a lone surrogate in the context, or sent chunked: served as the operation (its contract) or refused in the error body, with X-Request-ID, never a 5xx',
    async run(t) {
      await withSession(t, async (session) => judgeBodies(session, await bodyReplies(session, JSON_EDGE_CASES)));
    },
  },
  {
    id: 'EDGE-BODY-JSON-EDGES-OUTCOME',
    level: 'OBSERVE',
    seedSections: ['4'],
    openPoint: 'request-body-edges',
    title: 'What duplicate member names, a byte-order mark, bytes that are not UTF-8, a lone surrogate and a chunked body lead to',
    async run(t) {
      await withSession(t, async (session) => {
        const served = new Set(referenceChoice<string[]>('request-body-edges', 'served_cases'));
        const byCase = outcomesByCase(await bodyReplies(session, JSON_EDGE_CASES));
        t.observe({
          summary: [...byCase].map(([bodyCase, entries]) => `${bodyCase.what}: ${describeOutcomes(entries)}`).join('; '),
          matchesReference: [...byCase].every(([bodyCase, entries]) => entries.every(({ reply }) => isSuccess(reply) === served.has(bodyCase.id))),
        });
      });
    },
  },
  {
    id: 'EDGE-BODY-CONTENT-TYPE',
    level: 'MUST',
    seedSections: ['2.7', '4', '4.5', '7'],
    bounds: ['json-content-type'],
    title:
      'A passing body sent with no Content-Type or as text/plain: a JSON body served only as if sent as application/json (its contract), an upload without a Content-Type never stored; refusals in the error body with X-Request-ID, never a 5xx',
    async run(t) {
      await withSession(t, async (session) => judgeBodies(session, await bodyReplies(session, CONTENT_TYPE_CASES)));
    },
  },
  {
    id: 'EDGE-BODY-CONTENT-TYPE-OUTCOME',
    level: 'OBSERVE',
    seedSections: ['4'],
    openPoint: 'json-content-type',
    title: 'What a passing decide or feedback body sent with no Content-Type or as text/plain leads to',
    async run(t) {
      await withSession(t, async (session) => {
        const status = referenceChoice<number>('json-content-type', 'status');
        const code = referenceChoice<string>('json-content-type', 'code');
        const byCase = outcomesByCase(await bodyReplies(session, CONTENT_TYPE_CASES, { jsonOnly: true }));
        t.observe({
          summary: [...byCase].map(([bodyCase, entries]) => `${bodyCase.what}: ${describeOutcomes(entries)}`).join('; '),
          matchesReference: [...byCase.values()].flat().every(({ reply }) => reply.status === status && reply.json?.error?.code === code),
        });
      });
    },
  },
]);

// What every scenario definition shares: settings read from `-e NAME=value` (k6) or the
// environment (Node), a seeded generator of decide bodies, the response checks, and the
// thresholds. Plain ES-module JavaScript with no imports, so k6 and Node load the same file.

/**
 * @typedef {Record<string, string | undefined>} Settings  k6's __ENV, or process.env.
 * @typedef {{ name: string, method: string, path: string, headers?: Record<string, string>, body?: string | ArrayBuffer, expect: Expectation }} LoadRequest
 * @typedef {{ status: number[], json?: string[] }} Expectation  Accepted statuses, and top-level JSON fields the body must have.
 * @typedef {{ status: number, headers: Record<string, string>, body: string }} LoadResponse  Header names in lower case; status 0 for a transport error.
 * @typedef {(request: LoadRequest) => Promise<LoadResponse>} Send
 * @typedef {{ send: Send, pause: (seconds: number) => Promise<void> }} LoadIo  What a runner gives an iteration: one request at a time, and a pause.
 * @typedef {{ p95Ms: number, p99Ms: number, errorRate: number, checkRate: number }} Thresholds
 * @typedef {{ executor: 'constant-arrival-rate', rate: number, timeUnit: string, duration: string, preAllocatedVUs: number, maxVUs: number }
 *   | { executor: 'ramping-arrival-rate', startRate: number, timeUnit: string, stages: { target: number, duration: string }[], preAllocatedVUs: number, maxVUs: number }
 *   | { executor: 'constant-vus', vus: number, duration: string }
 *   | { executor: 'per-vu-iterations', vus: number, iterations: number, maxDuration: string }} Executor  k6's own option names, so the k6 script passes it on as is.
 * @typedef {{ name: string, description: string, executor: Executor, thresholds: Thresholds, requestNames: string[],
 *   timelineWindowS: number, drift?: import('./drift.js').DriftLimits, iteration: (index: number, io: LoadIo) => Promise<void> }} ScenarioDefinition
 *   `drift`: the scenario judges its last timeline window against its first (soak).
 */

/** A positive number from the settings, or the default; anything else is a clear error. */
export function setting(/** @type {Settings} */ env, /** @type {string} */ name, /** @type {number} */ fallback) {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number; got "${text}"`);
  return value;
}

/** Thresholds with their defaults, each overridable: P95_MS, P99_MS, ERROR_RATE, CHECK_RATE. */
export function thresholds(/** @type {Settings} */ env, /** @type {Thresholds} */ defaults) {
  return {
    p95Ms: setting(env, 'P95_MS', defaults.p95Ms),
    p99Ms: setting(env, 'P99_MS', defaults.p99Ms),
    errorRate: env.ERROR_RATE === '0' ? 0 : setting(env, 'ERROR_RATE', defaults.errorRate),
    checkRate: setting(env, 'CHECK_RATE', defaults.checkRate),
  };
}

/** Virtual users an arrival-rate executor needs: rate × a generous latency, within bounds. */
export function vusFor(/** @type {number} */ ratePerSecond) {
  return Math.min(200, Math.max(4, Math.ceil(ratePerSecond * 0.5)));
}

/** The same small generator (mulberry32) in k6 and Node: one iteration index, one body. */
export function seededRandom(/** @type {number} */ seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const QUESTION_TYPES = ['choice', 'noul', 'score', 'multi'];

const SENTENCES = [
  'I was charged twice for order 1182 and the payment must be refunded to my card.',
  'The parcel has not arrived after ten days and the tracking page shows no movement.',
  'Please change the delivery address of my next order to the office.',
  'The invoice lists a product I never ordered; I need a corrected copy.',
  'The item arrived broken and I would like a replacement rather than a refund.',
];

/** A customer message of about `chars` characters (whole sentences). */
export function contextText(/** @type {() => number} */ random, /** @type {number} */ chars) {
  let text = SENTENCES[Math.floor(random() * SENTENCES.length)];
  while (text.length + 1 + SENTENCES[0].length <= chars) text += ` ${SENTENCES[Math.floor(random() * SENTENCES.length)]}`;
  return text;
}

/** One question of each type, in the shapes the seed shows (score and noul: the reference shapes). */
export function question(/** @type {string} */ type) {
  switch (type) {
    case 'choice':
      return { type, options: { billing: 'Payments, refunds and invoices', shipping: 'Delivery and tracking', other: '' } };
    case 'noul':
      return { type, instructions: 'Does the customer ask for money back?' };
    case 'score':
      return { type, instructions: 'How urgent is the message?' };
    case 'multi':
      return { type, options: { billing: null, shipping: null, returns: null }, instructions: 'Every topic the message touches.' };
    default:
      throw new Error(`unknown question type ${type}`);
  }
}

/** `count` questions q01, q02, … cycling through the four types from `firstType`. */
export function questions(/** @type {number} */ count, /** @type {number} */ firstType) {
  /** @type {Record<string, unknown>} */
  const result = {};
  for (let i = 0; i < count; i++) result[`q${String(i + 1).padStart(2, '0')}`] = question(QUESTION_TYPES[(firstType + i) % QUESTION_TYPES.length]);
  return result;
}

/**
 * Part of every request id: the same id twice in one project could be refused (feedback on a
 * decision is linked by it), so runs differ. RUN_ID fixes it; otherwise start time, in base 36.
 */
export function runId(/** @type {Settings} */ env) {
  return env.RUN_ID ?? Date.now().toString(36);
}

/** Headers of an authenticated JSON call; a request id that names the scenario and iteration. */
export function jsonHeaders(/** @type {string} */ apiKey, /** @type {string} */ requestId) {
  return { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'x-request-id': requestId };
}

/** Check names per request name, made once: the runners call checkResponse for every response. */
const checkNames = new Map();

function namesFor(/** @type {LoadRequest} */ request) {
  let names = checkNames.get(request.name);
  if (!names) {
    names = {
      status: `${request.name} status ${request.expect.status.join('|')}`,
      hasId: `${request.name} has X-Request-ID`,
      keepsId: `${request.name} keeps the sent X-Request-ID`,
      fields: new Map((request.expect.json ?? []).map((field) => [field, `${request.name} body has ${field}`])),
    };
    checkNames.set(request.name, names);
  }
  return names;
}

/** Response checks, by name: the same names in k6's `checks` and in the Node runner's tally. */
export function checkResponse(/** @type {LoadRequest} */ request, /** @type {LoadResponse} */ response) {
  const names = namesFor(request);
  const requestId = response.headers['x-request-id'];
  /** @type {Record<string, boolean>} */
  const results = {
    [names.status]: request.expect.status.includes(response.status),
    [names.hasId]: typeof requestId === 'string' && requestId.length > 0,
  };
  const sentId = request.headers?.['x-request-id'];
  if (sentId !== undefined) results[names.keepsId] = requestId === sentId;
  if (request.expect.json) {
    const body = jsonBody(response);
    for (const field of request.expect.json) {
      results[names.fields.get(field) ?? `${request.name} body has ${field}`] = typeof body === 'object' && body !== null && !Array.isArray(body) && body[field] !== undefined && body[field] !== null;
    }
  }
  return results;
}

/** The body of a JSON response, or undefined. */
export function jsonBody(/** @type {LoadResponse} */ response) {
  try {
    return JSON.parse(response.body);
  } catch {
    return undefined;
  }
}

/** 2xx: for operations whose success status the seed leaves open (decide, models, feedback). */
export const SUCCESS = [200, 201, 202, 203, 204];

/** Bodies made once per (variant, size, count): generating them is most of a runner's work per request. */
const decideBodies = new Map();

/** Distinct contexts per size and question count: enough variety, bounded generation cost. */
const CONTEXT_VARIANTS = 64;

/** The JSON text of a decide body: context and question types follow the iteration index. */
export function decideBody(/** @type {number} */ index, /** @type {number} */ contextChars, /** @type {number} */ questionCount) {
  const variant = index % CONTEXT_VARIANTS;
  const key = `${variant}|${contextChars}|${questionCount}`;
  let text = decideBodies.get(key);
  if (text === undefined) {
    text = JSON.stringify({ context: contextText(seededRandom(variant + 1), contextChars), questions: questions(questionCount, variant % QUESTION_TYPES.length) });
    decideBodies.set(key, text);
  }
  return text;
}

/** A decide request of one of the steady mix's shapes, chosen by the iteration index. */
export function decideRequest(/** @type {{ apiKey: string, requestId: string, index: number, contextChars: number, questionCount: number }} */ options) {
  return {
    name: 'decide',
    method: 'POST',
    path: '/v1/decide',
    headers: jsonHeaders(options.apiKey, options.requestId),
    body: decideBody(options.index, options.contextChars, options.questionCount),
    expect: { status: SUCCESS, json: ['model', 'answers', 'usage'] },
  };
}

/** Settings every scenario needs: where the server is and the key (checked by targetProblem before a run). */
export function target(/** @type {Settings} */ env) {
  return { baseUrl: (env.BASE_URL ?? '').replace(/\/+$/, ''), apiKey: env.API_KEY ?? '' };
}

/** Why the target settings cannot work, in one line; undefined when they can. */
export function targetProblem(/** @type {Settings} */ env) {
  const { baseUrl, apiKey } = target(env);
  if (!/^https?:\/\/[^/\s]+/.test(baseUrl)) return `BASE_URL must be an http(s) URL (-e BASE_URL=http://127.0.0.1:8080); got "${baseUrl}"`;
  if (apiKey === '') return 'API_KEY is required (-e API_KEY=svc_live_...)';
  return undefined;
}

// What every scenario definition shares: settings read from `-e NAME=value` (k6) or the
// environment (Node), a seeded generator of decide bodies made of the harness's questions, the
// capabilities a target claims, and the thresholds. Plain ES-module JavaScript importing only
// files of this folder (response-rules.js: the harness's request bodies and the response judge,
// bundled), so k6 and Node load the same files.
import { ALL_CAPABILITIES, questionIds, questionOfType } from './response-rules.js';

export {
  choiceQuestion,
  exampleOf,
  mediaPart,
  referenceFeedbackBody,
  REFUSABLE_OPEN_POINTS,
  responseJudge,
  ruleLabel,
  specIdentity,
  textPart,
} from './response-rules.js';

/**
 * @typedef {Record<string, string | undefined>} Settings  k6's __ENV, or process.env.
 * @typedef {(typeof ALL_CAPABILITIES)[number]} Capability  What a target may claim beyond the core (`run --capabilities`).
 * @typedef {import('./response-rules.js').QuestionType} QuestionType
 * @typedef {readonly [QuestionType, ...QuestionType[]]} QuestionTypes  Types to cycle through: never none (choice is always asked).
 * @typedef {import('./response-rules.js').LoadRequest} LoadRequest  What a request is judged by travels with it (expect: the operation, the questions sent).
 * @typedef {import('./response-rules.js').LoadResponse} LoadResponse  Header names in lower case; status 0 for a transport error.
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

/**
 * The item of a non-empty list at `index`, counting round: how an iteration index picks a
 * request's shape. The index is taken modulo the length, so it is always in range.
 * @template T
 * @param {readonly [T, ...T[]]} list
 * @param {number} index a non-negative integer
 * @returns {T}
 */
export function cycled(list, index) {
  return /** @type {T} */ (list[index % list.length]);
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

/** @type {readonly [string, ...string[]]} */
const SENTENCES = [
  'I was charged twice for order 1182 and the payment must be refunded to my card.',
  'The parcel has not arrived after ten days and the tracking page shows no movement.',
  'Please change the delivery address of my next order to the office.',
  'The invoice lists a product I never ordered; I need a corrected copy.',
  'The item arrived broken and I would like a replacement rather than a refund.',
];

/** A customer message of about `chars` characters (whole sentences). */
export function contextText(/** @type {() => number} */ random, /** @type {number} */ chars) {
  // random() is in [0, 1), so the index is already below the length.
  const sentence = () => cycled(SENTENCES, Math.floor(random() * SENTENCES.length));
  let text = sentence();
  while (text.length + 1 + SENTENCES[0].length <= chars) text += ` ${sentence()}`;
  return text;
}

/**
 * What the target claims (CAPABILITIES, comma-separated; default all, as `run --capabilities`):
 * scenarios send nothing it does not claim.
 */
export function capabilities(/** @type {Settings} */ env) {
  const text = env.CAPABILITIES;
  if (text === undefined) return new Set(ALL_CAPABILITIES);
  /** @type {Set<Capability>} */
  const claimed = new Set();
  for (const name of text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)) {
    if (!isCapability(name)) throw new Error(`CAPABILITIES: unknown capability "${name}"; known: ${ALL_CAPABILITIES.join(', ')}`);
    claimed.add(name);
  }
  return claimed;
}

/** @returns {name is Capability} */
function isCapability(/** @type {string} */ name) {
  return /** @type {readonly string[]} */ (ALL_CAPABILITIES).includes(name);
}

/** The question types a target answers: choice always, noul, score and multi when claimed. */
export function questionTypes(/** @type {Settings} */ env) {
  const claimed = capabilities(env);
  /** @type {readonly ('noul' | 'score' | 'multi')[]} */
  const claimable = ['noul', 'score', 'multi'];
  /** @type {[QuestionType, ...QuestionType[]]} */
  const types = ['choice', ...claimable.filter((type) => claimed.has(type))];
  return types;
}

/** `count` of the harness's questions, ids q01, q02, …, cycling through `types` from `firstType`. */
export function questions(/** @type {number} */ count, /** @type {QuestionTypes} */ types, /** @type {number} */ firstType) {
  /** @type {Record<string, Record<string, unknown>>} */
  const result = {};
  questionIds(count).forEach((id, i) => (result[id] = questionOfType(cycled(types, firstType + i))));
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

/** The body of a JSON response, or undefined. */
export function jsonBody(/** @type {LoadResponse} */ response) {
  try {
    return JSON.parse(response.body);
  } catch {
    return undefined;
  }
}

/**
 * Bodies made once per (variant, size, count, types): generating them is most of a runner's work per request.
 * @type {Map<string, { text: string, questions: Record<string, Record<string, unknown>> }>}
 */
const decideBodies = new Map();

/** Distinct contexts per size and question count: enough variety, bounded generation cost. */
const CONTEXT_VARIANTS = 64;

/**
 * The JSON text and questions of the decide body an iteration sends, made once per shape and kept
 * (its questions are the harness's, through the bundle; the harness's decideBody builds the suites' bodies).
 */
function cachedDecideBody(
  /** @type {number} */ index,
  /** @type {number} */ contextChars,
  /** @type {number} */ questionCount,
  /** @type {QuestionTypes} */ types,
) {
  const variant = index % CONTEXT_VARIANTS;
  const key = `${variant}|${contextChars}|${questionCount}|${types.join(',')}`;
  let body = decideBodies.get(key);
  if (body === undefined) {
    const asked = questions(questionCount, types, variant % types.length);
    body = { text: JSON.stringify({ context: contextText(seededRandom(variant + 1), contextChars), questions: asked }), questions: asked };
    decideBodies.set(key, body);
  }
  return body;
}

/** A decide request of one of the steady mix's shapes, chosen by the iteration index; its answers are judged against the questions sent. */
export function decideRequest(
  /** @type {{ apiKey: string, requestId: string, index: number, contextChars: number, questionCount: number, types: QuestionTypes }} */ options,
) {
  const body = cachedDecideBody(options.index, options.contextChars, options.questionCount, options.types);
  return {
    name: 'decide',
    method: 'POST',
    path: '/v1/decide',
    headers: jsonHeaders(options.apiKey, options.requestId),
    body: body.text,
    expect: { operation: 'decide', questions: body.questions },
  };
}

/**
 * Feedback bodies the mixed scenario can send (FEEDBACK_SHAPE; open point feedback-shape, seed 4.2):
 * `reference`, the reference server's body (its alternate profile takes the same body and
 * answers 200 instead of 201); `none`, no feedback, for a server that takes no body the kit
 * knows. `load run --from-results` picks one from what a conformance run observed.
 */
export const REFERENCE_FEEDBACK_SHAPE = 'reference';
export const NO_FEEDBACK = 'none';
export const FEEDBACK_SHAPES = [REFERENCE_FEEDBACK_SHAPE, NO_FEEDBACK];

/** Every how many responses a generator validates body and answers (VALIDATE_EVERY, default 1: every one). */
export function validateEvery(/** @type {Settings} */ env) {
  return Math.max(1, Math.round(setting(env, 'VALIDATE_EVERY', 1)));
}

/** The line a k6 virtual user logs for the first failure of each check: the kit's k6 runner reads these into the report. */
export const CHECK_EXAMPLE_MARK = 'load-check-example ';

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

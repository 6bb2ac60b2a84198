// How a load generator judges each response: by the rules the conformance suite applies one
// request at a time (the contract form of the spec's schemas, the answer rules of
// harness/answer-rules.ts, the request id of seed 2.7 and 7), so that a server right alone but
// wrong under load fails the load run and the report names the rule. Bundled with the spec's
// validators into load/definitions/response-rules.js, which k6 and the Node runner both import.
import {
  abstainBreach,
  choiceArgmaxBreach,
  choiceMarginBreach,
  inputTokensBreach,
  objectKeys,
  probabilityRangeBreach,
  sameIdsBreach,
  type RuleBreach,
} from '../../harness/answer-rules.ts';
import { responseRuleMeta } from '../../harness/response-rules/catalogue.ts';
import { isSuccess } from '../../harness/status.ts';

/** What a request expects, as plain data: the operation judges status and body; questions judge answers. */
export interface Expectation {
  /** The spec's operationId (decide, uploadAsset, submitFeedback, listModels, getHealth). */
  operation: string;
  /** The questions a decide sent, by id: its answers are judged against them. */
  questions?: Record<string, { type?: unknown; options?: unknown }>;
  /**
   * The open point whose shape the request follows (feedback-shape): a 4xx other than 401 and
   * 429 is then the server refusing a shape the seed leaves open, counted apart and not failed.
   */
  openPoint?: string;
}

export interface LoadRequest {
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | ArrayBuffer;
  expect: Expectation;
}

/** Header names in lower case; status 0 for a transport error. */
export interface LoadResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface Rule {
  title: string;
  seed: string;
}

/**
 * The response rules of the catalogue (harness/response-rules/) a load response is judged by,
 * by their catalogue ids: their titles and seed sections come from there.
 */
const CATALOGUE_RULES = [
  'request-id',
  'contract-body',
  'error-request-id',
  'answer-ids',
  'option-ids',
  'probability-range',
  'choice-argmax',
  'choice-margin',
  'abstain-choice-null',
  'input-tokens',
] as const;

function fromCatalogue(id: string): Rule {
  const meta = responseRuleMeta.find((rule) => rule.id === id);
  if (!meta) throw new Error(`No response rule ${id} in the catalogue`);
  return { title: meta.title, seed: meta.seedSections.join(', ') };
}

/**
 * Every rule a load response is judged by; a check is named `<request name> <rule id>`. `status`
 * is the load scenarios' own expectation (each request they send is one that succeeds), not a
 * rule of every response; the rest are the catalogue's.
 */
export const RULES: Readonly<Record<string, Rule>> = Object.freeze({
  status: { title: 'a status the operation answers on success (or a refusal of an open-point shape)', seed: '4' },
  ...Object.fromEntries(CATALOGUE_RULES.map((id) => [id, fromCatalogue(id)])),
});

/** The rule a check name ends with, e.g. "decide choice-margin" -> "choice-margin". */
export function ruleOfCheck(check: string): string | undefined {
  const rule = check.slice(check.lastIndexOf(' ') + 1);
  return Object.hasOwn(RULES, rule) ? rule : undefined;
}

/** An ajv standalone validator: true when valid, its errors otherwise. */
export type SchemaValidator = ((value: unknown) => boolean) & { errors?: Array<{ instancePath: string; message?: string }> | null };

/** Per operation, [first status, last status, schema name] ranges: which schema a response must meet (spec/validators.ts responseSchemaFor, contract mode). */
export type ResponseSchemaTable = Record<string, Array<[number, number, string]>>;

/** One failed check, with what the rule expected and what the response had. */
export interface Failure {
  check: string;
  expected: string;
  observed: string;
}

export interface Judgement {
  /** Check name -> held. */
  checks: Record<string, boolean>;
  /** The failed checks, each with its breach (an empty array when all held). */
  failures: Failure[];
  /** True when body and answers were validated (every response, or the stated sample). */
  validated: boolean;
  /** The open point whose shape the server refused (a 4xx on a request of an open-point shape). */
  refused?: string;
}

/** "choice-margin: confidence is the top-1 minus the top-2 probability (seed 2.4)" for a check name ending in a rule id. */
export function ruleLabel(check: string): string | undefined {
  const rule = ruleOfCheck(check);
  return rule === undefined ? undefined : `${rule}: ${RULES[rule]!.title} (seed ${RULES[rule]!.seed})`;
}

/** One failed exchange as the load report shows it under the check it failed. */
export interface CheckExample {
  /** "POST /v1/decide (X-Request-ID load.decide-capacity.x.12)". */
  request: string;
  status: number;
  body_excerpt: string;
  expected: string;
  observed: string;
}

export function exampleOf(failure: Failure, request: LoadRequest, response: LoadResponse): CheckExample {
  const sentId = request.headers?.['x-request-id'];
  return {
    request: `${request.method} ${request.path}${sentId === undefined ? '' : ` (X-Request-ID ${sentId})`}`,
    status: response.status,
    body_excerpt: bodyExcerpt(response.body),
    expected: failure.expected,
    observed: failure.observed,
  };
}

/** Open points whose shape a load request may follow: refusals of them are counted apart (k6 needs the list up front). */
export const REFUSABLE_OPEN_POINTS: readonly string[] = ['feedback-shape'];

/** An excerpt of a response body for a report: at most `limit` characters. */
export function bodyExcerpt(body: string, limit = 300): string {
  return body.length <= limit ? body : `${body.slice(0, limit)}… (${body.length} characters)`;
}

const NO_FAILURES: Failure[] = [];

/**
 * A judge with its own response count: status and request id are checked on every response;
 * body and answers on every `validateEvery`-th response it sees (1: every one), so that a
 * generator that cannot afford full validation validates a stated, deterministic sample.
 */
export function createJudge(validators: Readonly<Record<string, SchemaValidator>>, schemas: ResponseSchemaTable, validateEvery = 1) {
  let seen = 0;
  const names = new Map<string, Record<string, string>>();
  const checkNames = (requestName: string) => {
    let byRule = names.get(requestName);
    if (!byRule) {
      byRule = Object.fromEntries(Object.keys(RULES).map((rule) => [rule, `${requestName} ${rule}`]));
      names.set(requestName, byRule);
    }
    return byRule;
  };
  // Index loops here and below: k6's runtime runs for-of and destructuring several times slower, on every response.
  const schemaFor = (operation: string, status: number) => {
    const ranges = schemas[operation] ?? [];
    for (let index = 0; index < ranges.length; index++) {
      const range = ranges[index]!;
      if (status >= range[0] && status <= range[1]) return range[2];
    }
    return undefined;
  };

  return function judgeResponse(request: LoadRequest, response: LoadResponse): Judgement {
    const name = checkNames(request.name);
    const checks: Record<string, boolean> = {};
    let failures = NO_FAILURES;
    const verdict = (rule: string, breach: RuleBreach | undefined) => {
      checks[name[rule]!] = breach === undefined;
      if (breach) {
        if (failures === NO_FAILURES) failures = [];
        failures.push({ check: name[rule]!, ...breach });
      }
    };
    const { operation, openPoint } = request.expect;
    const { status } = response;
    const schema = schemaFor(operation, status);
    const success = isSuccess(response) && schema !== undefined;
    const refused = openPoint !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 429 ? openPoint : undefined;
    verdict(
      'status',
      success || refused
        ? undefined
        : { expected: `a success status of ${operation}`, observed: status === 0 ? 'no response (transport error)' : `status ${status}` },
    );

    const header = response.headers['x-request-id'];
    const sent = request.headers?.['x-request-id'];
    verdict(
      'request-id',
      sent === undefined
        ? header
          ? undefined
          : { expected: 'an X-Request-ID header', observed: 'none' }
        : header === sent
          ? undefined
          : { expected: `X-Request-ID ${JSON.stringify(sent)}`, observed: header === undefined ? 'none' : JSON.stringify(header) },
    );

    seen += 1;
    const validated = status !== 0 && seen % validateEvery === 0;
    if (validated && schema !== undefined) {
      let body: any;
      try {
        body = JSON.parse(response.body);
      } catch {
        body = undefined;
      }
      const validate = validators[schema];
      if (body === undefined) verdict('contract-body', { expected: `a JSON ${schema} body`, observed: 'a body that is not JSON' });
      else if (validate && !validate(body))
        verdict('contract-body', {
          expected: `a ${schema} body (contract form)`,
          observed: (validate.errors ?? [])
            .slice(0, 3)
            .map((error) => `${error.instancePath || '(root)'} ${error.message ?? 'is invalid'}`)
            .join('; '),
        });
      else verdict('contract-body', undefined);
      if (status >= 400 && body?.error !== undefined) {
        const id = body.error?.request_id;
        verdict(
          'error-request-id',
          id === null || id === header
            ? undefined
            : { expected: `error.request_id ${JSON.stringify(header)} (the X-Request-ID header)`, observed: JSON.stringify(id) },
        );
      }
      if (success && request.expect.questions) judgeAnswers(request.expect.questions, body, verdict);
    }
    return { checks, failures, validated, ...(refused ? { refused } : {}) };
  };
}

/** The rules judged on every choice answer of a decide, in the order the report lists them. */
const CHOICE_RULES = ['option-ids', 'probability-range', 'choice-argmax', 'choice-margin', 'abstain-choice-null'] as const;

/** The answer rules of the conformance suite on one decide body, question by question; each rule keeps its first breach. */
function judgeAnswers(questions: NonNullable<Expectation['questions']>, body: any, verdict: (rule: string, breach: RuleBreach | undefined) => void): void {
  const questionIds = Object.keys(questions);
  verdict('answer-ids', sameIdsBreach(questionIds, objectKeys(body?.answers), '/answers'));
  verdict('input-tokens', inputTokensBreach(body));
  const breaches: Array<RuleBreach | undefined> = [undefined, undefined, undefined, undefined, undefined];
  let choices = 0;
  for (let index = 0; index < questionIds.length; index++) {
    const questionId = questionIds[index]!;
    const question = questions[questionId]!;
    const answer = body?.answers?.[questionId];
    if (question.type !== 'choice' || typeof answer !== 'object' || answer === null) continue;
    choices += 1;
    const where = `/answers/${questionId}`;
    breaches[0] ??= sameIdsBreach(Object.keys(question.options ?? {}), objectKeys(answer.probabilities), `${where}/probabilities`);
    breaches[1] ??= probabilityRangeBreach(answer, where);
    breaches[2] ??= choiceArgmaxBreach(answer, where);
    breaches[3] ??= choiceMarginBreach(answer, where);
    breaches[4] ??= abstainBreach(answer, where);
  }
  // A decide without a choice answer gives the choice rules nothing to judge: no check, no pass.
  if (choices > 0) for (let index = 0; index < CHOICE_RULES.length; index++) verdict(CHOICE_RULES[index]!, breaches[index]);
}

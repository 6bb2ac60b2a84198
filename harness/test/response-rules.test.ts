// The proof that every response rule can fail, and fails alone: one sender check makes one
// exchange of each kind the rules judge and asserts nothing itself; it runs against the reference
// server (in both open-point profiles: no rule breached) and against broken servers, each with
// one bug, that every rule of the catalogue is caught by — and only the rules that bug breaks.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../api/embedded-target.ts';
import { ALL_CAPABILITIES, type Check } from '../check.ts';
import { decideBody } from '../request-bodies.ts';
import { responseRules } from '../response-rules/catalogue.ts';
import { createRuleLedger } from '../response-rules/ledger.ts';
import { runCheck } from '../runner.ts';
import {
  emptyFileAsset,
  isOperation,
  rewriteJson,
  startMutatingProxy,
  type Mutation,
  type ProxiedRequest,
  type ProxiedResponse,
} from '../testing/mutating-proxy.ts';

const CALLER_ID = 'rules-proof:1';
const TWO_QUESTIONS = {
  ...decideBody(),
  questions: {
    topic: { type: 'choice', options: { billing: 'Payments and refunds', shipping: 'Delivery', other: '' } },
    urgent: { type: 'choice', options: { yes: '', no: '' } },
  },
};

/** Sends one exchange of each kind the rules judge; it judges nothing itself (the ledger does). */
const sender: Check = {
  id: 'RULES-PROOF-SENDER',
  level: 'OBSERVE',
  area: 'rules-proof',
  seedSections: [],
  title: 'one exchange of each kind the response rules judge',
  async run(t) {
    await t.a.decide(TWO_QUESTIONS, { 'x-request-id': CALLER_ID });
    await t.a.send({ method: 'GET', path: '/v1/models' });
    await t.a.send({ method: 'GET', path: '/v1/no-such-route' });
    await t.a.decide([]);
    await t.a.upload(new Uint8Array(0), 'image/png');
    await t.anonymous.send({ method: 'GET', path: '/V1/models' });
    t.observe({ summary: 'sent' });
  },
};

const isDecide = (sent: ProxiedRequest) => isOperation(sent, 'POST', '/v1/decide');
const isAnswer = (sent: ProxiedRequest, received: ProxiedResponse) => isDecide(sent) && received.status < 300 && sent.body.toString().startsWith('{');
const editTopic = (edit: (answer: any) => void) => (received: ProxiedResponse, sent: ProxiedRequest) =>
  isAnswer(sent, received)
    ? rewriteJson(received, (body) => {
        edit(body.answers.topic);
        return body;
      })
    : received;
const ranked = (answer: any) => Object.entries(answer.probabilities as Record<string, number>).sort(([, x], [, y]) => y - x);
const errorAnswer = (status: number, code: string, requestId: string): ProxiedResponse => ({
  status,
  headers: { 'content-type': 'application/json', 'x-request-id': requestId },
  body: Buffer.from(JSON.stringify({ error: { code, message: 'broken on purpose', request_id: requestId } })),
});

interface BrokenServer {
  fault: string;
  /** The rules it must break, and no other MUST or SHOULD rule. */
  breaks: string[];
  mutation(target: EmbeddedTarget): Mutation;
}

const brokenServers: BrokenServer[] = [
  {
    fault: 'drops X-Request-ID on GET /v1/models',
    breaks: ['request-id'],
    mutation: () => ({
      response: (received, sent) => {
        if (!isOperation(sent, 'GET', '/v1/models')) return received;
        const { 'x-request-id': _dropped, ...headers } = received.headers;
        return { ...received, headers };
      },
    }),
  },
  {
    fault: "replaces a caller's valid X-Request-ID on a decide",
    breaks: ['request-id'],
    mutation: () => ({
      response: (received, sent) =>
        sent.headers['x-request-id'] === CALLER_ID ? { ...received, headers: { ...received.headers, 'x-request-id': 'req_0abc' } } : received,
    }),
  },
  {
    fault: 'serves /V1/models (the version in upper case) without a key',
    breaks: ['auth-required'],
    mutation: (target) => ({
      request: (sent) =>
        sent.path.startsWith('/V1/')
          ? { ...sent, path: `/v1/${sent.path.slice(4)}`, headers: { ...sent.headers, authorization: `Bearer ${target.keyA}` } }
          : sent,
    }),
  },
  {
    fault: 'answers 500 to a decide whose body is a JSON array',
    breaks: ['not-a-server-error'],
    mutation: () => ({ answer: (sent) => (isDecide(sent) && sent.body.toString() === '[]' ? errorAnswer(500, 'INTERNAL_ERROR', 'req_5000') : undefined) }),
  },
  {
    fault: 'accepts an upload with no file',
    breaks: ['invalid-rejected'],
    mutation: () => ({
      answer: (sent) =>
        isOperation(sent, 'POST', '/v1/assets') && sent.body.length === 0
          ? {
              status: 201,
              headers: { 'content-type': 'application/json', 'x-request-id': 'req_201' },
              body: Buffer.from(JSON.stringify(emptyFileAsset())),
            }
          : undefined,
    }),
  },
  {
    fault: "answers an unknown route with a framework's plain-text page",
    breaks: ['error-body'],
    mutation: () => ({
      response: (received, sent) =>
        sent.path.startsWith('/v1/no-such-route')
          ? { ...received, headers: { ...received.headers, 'content-type': 'text/plain' }, body: Buffer.from('Not Found') }
          : received,
    }),
  },
  {
    fault: 'puts another id in error.request_id than in X-Request-ID',
    breaks: ['error-request-id'],
    mutation: () => ({
      response: (received) => (received.status >= 400 ? rewriteJson(received, (body) => ({ error: { ...body.error, request_id: 'req_other' } })) : received),
    }),
  },
  {
    fault: 'labels the model list text/plain',
    breaks: ['json-labelled'],
    mutation: () => ({
      response: (received, sent) =>
        isOperation(sent, 'GET', '/v1/models') ? { ...received, headers: { ...received.headers, 'content-type': 'text/plain' } } : received,
    }),
  },
  {
    fault: 'leaves `model` out of a decide answer',
    breaks: ['contract-body'],
    mutation: () => ({
      response: (received, sent) => (isAnswer(sent, received) ? rewriteJson(received, ({ model: _model, ...rest }) => rest) : received),
    }),
  },
  {
    fault: 'answers a decide with 204 and no body',
    breaks: ['contract-body'],
    mutation: () => ({
      response: (received, sent) => (isAnswer(sent, received) ? { ...received, status: 204, body: Buffer.alloc(0) } : received),
    }),
  },
  {
    fault: 'leaves abstention_status out of a choice answer',
    breaks: ['choice-answer-shape'],
    mutation: () => ({
      response: editTopic((answer) => {
        delete answer.abstention_status;
      }),
    }),
  },
  {
    fault: 'leaves one question id out of the answers',
    breaks: ['answer-ids'],
    mutation: () => ({
      response: (received, sent) =>
        isAnswer(sent, received)
          ? rewriteJson(received, (body) => {
              delete body.answers.urgent;
              return body;
            })
          : received,
    }),
  },
  {
    fault: 'adds a probability for an option that was not sent',
    breaks: ['option-ids'],
    mutation: () => ({
      response: editTopic((answer) => {
        answer.probabilities.extra = 0;
      }),
    }),
  },
  {
    fault: 'answers a probability below 0 for the least likely option',
    // ChoiceAnswer's schema bounds each probability too.
    breaks: ['probability-range', 'choice-answer-shape'],
    mutation: () => ({
      response: editTopic((answer) => {
        answer.probabilities[ranked(answer).at(-1)![0]] = -0.001;
      }),
    }),
  },
  {
    fault: 'chooses the least likely option',
    breaks: ['choice-argmax'],
    mutation: () => ({
      response: editTopic((answer) => {
        answer.abstain = false;
        answer.choice = ranked(answer).at(-1)![0];
      }),
    }),
  },
  {
    fault: 'reports a confidence off the margin by 0.1',
    breaks: ['choice-margin'],
    mutation: () => ({
      response: editTopic((answer) => {
        const [[, first], [, second]] = ranked(answer) as [[string, number], [string, number]];
        answer.confidence = first - second > 0.5 ? first - second - 0.1 : first - second + 0.1;
      }),
    }),
  },
  {
    fault: 'abstains with a choice',
    // ChoiceAnswer's schema ties a null choice to abstain too.
    breaks: ['abstain-choice-null', 'choice-answer-shape'],
    mutation: () => ({
      response: editTopic((answer) => {
        answer.abstain = true;
        answer.choice = ranked(answer)[0]![0];
      }),
    }),
  },
  {
    fault: 'reports input_tokens as a fraction',
    breaks: ['input-tokens', 'contract-body'],
    mutation: () => ({
      response: (received, sent) =>
        isAnswer(sent, received)
          ? rewriteJson(received, (body) => {
              body.usage.input_tokens = 1.5;
              return body;
            })
          : received,
    }),
  },
  {
    fault: 'reports an output-token count in usage',
    breaks: ['no-output-tokens'],
    mutation: () => ({
      response: (received, sent) =>
        isAnswer(sent, received)
          ? rewriteJson(received, (body) => {
              body.usage.output_token_count = 3;
              return body;
            })
          : received,
    }),
  },
  {
    fault: 'answers probabilities that add up to less than 1 (an open point: observed, never failed)',
    breaks: [],
    mutation: () => ({
      response: editTopic((answer) => {
        const [lowest, p] = ranked(answer).at(-1)!;
        answer.probabilities[lowest] = p / 2;
      }),
    }),
  },
];

async function judgedBy(target: EmbeddedTarget, baseUrl: string) {
  const ledger = createRuleLedger();
  const result = await runCheck(sender, {
    target: { baseUrl, capabilities: new Set(ALL_CAPABILITIES), hasSecondKey: false },
    keyA: target.keyA,
    timeoutMs: 10_000,
    ruleLedger: ledger,
  });
  expect(result.status, result.message).toBe('observed');
  return ledger.results();
}

const failedRules = (results: Awaited<ReturnType<typeof judgedBy>>) => results.filter((rule) => rule.status === 'fail').map((rule) => rule.id);

describe('response rules', () => {
  let target: EmbeddedTarget;
  beforeAll(async () => {
    target = await startEmbeddedTarget();
  });
  afterAll(async () => target.stop());

  test('every rule of the catalogue has a broken server that makes it fail', () => {
    const proven = new Set(brokenServers.flatMap((broken) => broken.breaks));
    for (const rule of responseRules.filter((r) => r.level !== 'OBSERVE')) expect(proven, `${rule.id} has no broken server`).toContain(rule.id);
  });

  test.each(['reference', 'alternate'] as const)('the reference server in its %s profile breaks no rule, and every rule judged something', async (profile) => {
    const server = profile === 'reference' ? target : await startEmbeddedTarget({ profile });
    try {
      const results = await judgedBy(server, server.baseUrl);
      expect(failedRules(results)).toEqual([]);
      const unjudged = results.filter((rule) => rule.status === 'skip').map((rule) => rule.id);
      expect(unjudged).toEqual([]);
      expect(results.find((rule) => rule.id === 'probability-sum')?.status).toBe('observed');
    } finally {
      if (server !== target) await server.stop();
    }
  });

  describe.each(brokenServers.map((broken) => [broken.fault, broken] as const))('a server that %s', (_fault, broken) => {
    test(`breaks ${broken.breaks.join(', ') || 'no MUST or SHOULD rule'}, and no other rule; each breach names its sender, count and curl line`, async () => {
      const proxy = await startMutatingProxy(target.baseUrl, broken.mutation(target));
      try {
        const results = await judgedBy(target, proxy.baseUrl);
        expect(failedRules(results).sort()).toEqual([...broken.breaks].sort());
        for (const id of broken.breaks) {
          const rule = results.find((r) => r.id === id)!;
          expect(rule.rule!.breached).toBeGreaterThan(0);
          expect(rule.rule!.breachedBy[sender.id]).toBe(rule.rule!.breached);
          expect(rule.message).toContain(`sent by ${sender.id}`);
          expect(rule.exchanges).toHaveLength(1);
          expect(rule.exchanges[0]!.curl).toMatch(/^curl /);
        }
        if (broken.breaks.length === 0) {
          const sum = results.find((r) => r.id === 'probability-sum')!;
          expect(sum.status).toBe('observed');
          expect(sum.rule!.breached).toBeGreaterThan(0);
        }
      } finally {
        await proxy.close();
      }
    });
  });
});

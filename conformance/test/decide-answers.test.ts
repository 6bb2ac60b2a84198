import { describe } from 'vitest';
import { isOperation, rewriteJson, type Mutation, type ProxiedRequest } from '../../harness/testing/mutating-proxy.ts';
import { proveChecks } from './support/proof.ts';

const isDecide = (sent: ProxiedRequest) => isOperation(sent, 'POST', '/v1/decide');
type Answer = Record<string, any>;

/** Rewrites successful decide bodies. */
const onDecideBody = (edit: (body: Record<string, any>, sent: ProxiedRequest) => unknown): Mutation => ({
  response: (received, sent) => (isDecide(sent) && received.status === 200 ? rewriteJson(received, (body) => edit(body, sent)) : received),
});
/** Rewrites every choice answer of successful decide bodies in place. */
const onChoiceAnswers = (edit: (answer: Answer) => void): Mutation =>
  onDecideBody((body) => {
    for (const answer of Object.values(body.answers ?? {}) as Answer[]) if (answer?.type === 'choice') edit(answer);
    return body;
  });
const renameKeys = (object: Record<string, unknown>, rename: (key: string) => string) =>
  Object.fromEntries(Object.entries(object).map(([key, value]) => [rename(key), value]));
const renameAnswerKeys = (rename: (key: string) => string) => onDecideBody((body) => ({ ...body, answers: renameKeys(body.answers, rename) }));
const renameOptionKeys = (rename: (key: string) => string) => onChoiceAnswers((answer) => (answer.probabilities = renameKeys(answer.probabilities, rename)));
const ranked = (answer: Answer) => (Object.entries(answer.probabilities) as Array<[string, number]>).sort((x, y) => y[1] - x[1]);
const cyrillicToLatin = (key: string) => key.replace(/\u0430/g, 'a');
/** Refuses any decide body that mentions "__proto__", so the checks fall back to one id per request. */
const refusingProto = (mutation: Mutation): Mutation => ({
  ...mutation,
  answer: (sent) =>
    isDecide(sent) && sent.body.includes('"__proto__"')
      ? {
          status: 400,
          headers: { 'content-type': 'application/json', 'x-request-id': 'req_0bad' },
          body: Buffer.from('{"error":{"code":"INVALID_REQUEST","message":"Reserved id.","request_id":"req_0bad"}}'),
        }
      : undefined,
});

describe('decide-answers checks', () => {
  proveChecks('decide-answers', {
    'DECIDE-SUCCESS-BODY-VALID': [
      { fault: 'leaves usage out', mutation: () => onDecideBody(({ usage: _usage, ...body }) => body) },
      { fault: 'sends confidence as a string', mutation: () => onChoiceAnswers((answer) => (answer.confidence = String(answer.confidence))) },
      { fault: 'sends abstain as 0 or 1', mutation: () => onChoiceAnswers((answer) => (answer.abstain = answer.abstain ? 1 : 0)) },
    ],
    'DECIDE-ONE-ANSWER-PER-QUESTION': [
      {
        fault: 'answers at most 15 questions',
        mutation: () => onDecideBody((body) => ({ ...body, answers: Object.fromEntries(Object.entries(body.answers).slice(0, 15)) })),
      },
      {
        fault: 'adds a summary answer',
        mutation: () => onDecideBody((body) => ({ ...body, answers: { ...body.answers, summary: { type: 'score', score: 0.5, basis: 'all' } } })),
      },
    ],
    'DECIDE-QUESTION-IDS-EXACT': [
      { fault: 'NFC-normalises question ids', mutation: () => renameAnswerKeys((key) => key.normalize('NFC')) },
      { fault: 'folds Cyrillic "а" into Latin "a" in question ids', mutation: () => renameAnswerKeys(cyrillicToLatin) },
      { fault: 'trims question ids', mutation: () => renameAnswerKeys((key) => key.trim()) },
      { fault: 'NFKC-normalises question ids (ligatures unfold)', mutation: () => renameAnswerKeys((key) => key.normalize('NFKC')) },
      { fault: 'refuses the id "__proto__" and NFC-normalises the others', mutation: () => refusingProto(renameAnswerKeys((key) => key.normalize('NFC'))) },
      { fault: 'lower-cases question ids', mutation: () => renameAnswerKeys((key) => key.toLowerCase()) },
      { fault: 'drops trailing spaces of question ids', mutation: () => renameAnswerKeys((key) => key.trimEnd()) },
      { fault: 'removes zero-width characters from question ids', mutation: () => renameAnswerKeys((key) => key.replace(/\u200B/g, '')) },
    ],
    'DECIDE-OPTION-IDS-EXACT': [
      { fault: 'NFC-normalises option ids', mutation: () => renameOptionKeys((key) => key.normalize('NFC')) },
      { fault: 'folds Cyrillic "а" into Latin "a" in option ids', mutation: () => renameOptionKeys(cyrillicToLatin) },
      {
        fault: 'loses the option "__proto__" (assigned on a plain object)',
        // biome-ignore lint/suspicious/noProto lint/complexity/useLiteralKeys: the option id "__proto__" is the subject; the quoted key says so.
        mutation: () => onChoiceAnswers((answer) => delete answer.probabilities['__proto__']),
      },
      { fault: 'refuses the option "__proto__" and folds Cyrillic into Latin in the others', mutation: () => refusingProto(renameOptionKeys(cyrillicToLatin)) },
      { fault: 'compares option ids case-insensitively (lower-cases them)', mutation: () => renameOptionKeys((key) => key.toLowerCase()) },
      { fault: 'NFD-normalises option ids', mutation: () => renameOptionKeys((key) => key.normalize('NFD')) },
      { fault: 'removes zero-width characters from option ids', mutation: () => renameOptionKeys((key) => key.replace(/\u200B/g, '')) },
    ],
    'DECIDE-CHOICE-ANSWER-TYPE': [
      { fault: 'tags choice answers "single_choice"', mutation: () => onChoiceAnswers((answer) => (answer.type = 'single_choice')) },
    ],
    'DECIDE-PROBABILITIES-PER-OPTION': [
      {
        fault: 'drops the last option from probabilities',
        mutation: () => onChoiceAnswers((answer) => delete answer.probabilities[Object.keys(answer.probabilities).at(-1)!]),
      },
      {
        fault: 'prunes probabilities below 0.01',
        mutation: () =>
          onChoiceAnswers(
            (answer) => (answer.probabilities = Object.fromEntries(Object.entries(answer.probabilities).filter(([, p]) => (p as number) >= 0.01))),
          ),
      },
      { fault: 'adds a "none of these" entry', mutation: () => onChoiceAnswers((answer) => (answer.probabilities.none_of_these = 0)) },
    ],
    'DECIDE-PROBABILITY-RANGE': [
      {
        fault: 'reports probabilities as percentages',
        mutation: () => onChoiceAnswers((answer) => Object.keys(answer.probabilities).forEach((id) => (answer.probabilities[id] *= 100))),
      },
      {
        fault: 'reports log-probabilities',
        mutation: () =>
          onChoiceAnswers((answer) =>
            Object.keys(answer.probabilities).forEach((id) => (answer.probabilities[id] = Math.log(answer.probabilities[id] || 1e-9))),
          ),
      },
    ],
    'DECIDE-CHOICE-ARGMAX': [
      {
        fault: 'chooses the least likely option',
        mutation: () => onChoiceAnswers((answer) => answer.choice !== null && (answer.choice = ranked(answer).at(-1)![0])),
      },
    ],
    'DECIDE-CHOICE-MARGIN': [
      { fault: 'reports the top-1 probability as confidence', mutation: () => onChoiceAnswers((answer) => (answer.confidence = ranked(answer)[0]![1])) },
      {
        fault: 'reports top-1 minus the lowest probability as confidence',
        mutation: () => onChoiceAnswers((answer) => (answer.confidence = ranked(answer)[0]![1] - ranked(answer).at(-1)![1])),
      },
    ],
    'DECIDE-ABSTAIN-IMPLIES-NULL': [
      {
        fault: 'sets abstain true while keeping a choice',
        mutation: () => onChoiceAnswers((answer) => ((answer.abstain = true), (answer.choice ??= ranked(answer)[0]![0]))),
      },
      { fault: 'drops probabilities when abstaining', mutation: () => onChoiceAnswers((answer) => answer.abstain === true && delete answer.probabilities) },
    ],
    'DECIDE-ABSTENTION-STATUS-STRING': [
      {
        fault: 'sends abstention_status null on confident answers',
        mutation: () => onChoiceAnswers((answer) => answer.abstain === false && (answer.abstention_status = null)),
      },
      {
        fault: 'leaves abstention_status out when abstaining',
        mutation: () => onChoiceAnswers((answer) => answer.abstain === true && delete answer.abstention_status),
      },
    ],
    'DECIDE-ABSTENTION-STATUS-ADVISORY': [
      { fault: 'sends abstention_status "validated"', mutation: () => onChoiceAnswers((answer) => (answer.abstention_status = 'validated')) },
    ],
    'DECIDE-USAGE-INPUT-TOKENS': [
      {
        fault: 'sends input_tokens as a string',
        mutation: () => onDecideBody((body) => ({ ...body, usage: { input_tokens: String(body.usage.input_tokens) } })),
      },
      { fault: 'sends fractional input_tokens', mutation: () => onDecideBody((body) => ({ ...body, usage: { input_tokens: body.usage.input_tokens + 0.5 } })) },
      { fault: 'sends negative input_tokens', mutation: () => onDecideBody((body) => ({ ...body, usage: { input_tokens: -1 } })) },
    ],
    'DECIDE-USAGE-NO-OUTPUT-TOKENS': [
      { fault: 'adds usage.output_tokens', mutation: () => onDecideBody((body) => ({ ...body, usage: { ...body.usage, output_tokens: 0 } })) },
      { fault: 'adds usage.completion_tokens', mutation: () => onDecideBody((body) => ({ ...body, usage: { ...body.usage, completion_tokens: 1 } })) },
      {
        fault: 'adds usage.reasoning_output_tokens',
        mutation: () => onDecideBody((body) => ({ ...body, usage: { ...body.usage, reasoning_output_tokens: 0 } })),
      },
      { fault: 'adds a top-level output_tokens', mutation: () => onDecideBody((body) => ({ ...body, output_tokens: 0 })) },
    ],
    'DECIDE-MODEL-STRING': [
      { fault: 'sends model null', mutation: () => onDecideBody((body) => ({ ...body, model: null })) },
      { fault: 'sends an empty model name', mutation: () => onDecideBody((body) => ({ ...body, model: '' })) },
    ],
    'DECIDE-MODEL-KNOWN': [{ fault: 'names a model the seed does not list', mutation: () => onDecideBody((body) => ({ ...body, model: 'svc-two-v2' })) }],
    'DECIDE-CHOICE-SUM': [
      {
        fault: 'scales probabilities by 0.9',
        mutation: () => onChoiceAnswers((answer) => Object.keys(answer.probabilities).forEach((id) => (answer.probabilities[id] *= 0.9))),
      },
    ],
    'DECIDE-DETERMINISTIC': [
      {
        fault: 'answers every second request slightly differently',
        mutation: () => {
          let count = 0;
          return onDecideBody((body) => {
            count += 1;
            if (count % 2 === 0)
              for (const answer of Object.values(body.answers) as Answer[]) if (typeof answer.confidence === 'number') answer.confidence += 0.001;
            return body;
          });
        },
      },
    ],
    'DECIDE-PART-ID-ONLY-IN-ERRORS': [
      {
        fault: 'echoes part ids in success bodies',
        mutation: () =>
          onDecideBody((body, sent) => {
            const context: unknown = JSON.parse(sent.body.toString('utf8')).context;
            return Array.isArray(context) ? { ...body, parts: context.map((part: { id?: string }) => part.id ?? null) } : body;
          }),
      },
    ],
  });
});

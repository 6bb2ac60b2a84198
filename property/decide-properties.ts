// Property-based checks of POST /v1/decide: generated valid requests must be answered as the
// seed says (PROP-DECIDE-VALID), requests with one rule broken must be refused as the seed says
// (PROP-DECIDE-INVALID), and the SHOULD-level invariants are reported apart so that they never
// muddy a MUST result (PROP-CHOICE-SUM, PROP-OPTION-ORDER, PROP-DETERMINISM).
import fc from 'fast-check';
import { canonical, choiceSumBreach, showId } from '../harness/answer-rules.ts';
import { expectAnswered, failOn } from '../harness/answer-judgement.ts';
import { area, CheckFailure, type Check } from '../harness/check.ts';
import type { CheckContext } from '../harness/context.ts';
import { describeReply, expectErrorBody, expectRequestIdHeader, isSuccess } from '../harness/expect.ts';
import type { Reply } from '../harness/http.ts';
import { postDecideText } from '../harness/requests.ts';
import { pooledIdsIn, releaseAssetPool, uploadAssetPool, type AssetPool } from './arbitraries/asset-pool.ts';
import { decideRequestArbitrary, hasOnlyPlainIds, optionIdsOf, questionsOf, questionType, withPlainIds } from './arbitraries/decide-request.ts';
import { showWire, toJsonText, WireObject } from './arbitraries/wire.ts';
import {
  decideMutations,
  describeExpectation,
  mutatedText,
  mutationApplies,
  mutationDraw,
  showMutated,
  type DecideMutation,
  type MutatedBody,
} from './mutations.ts';
import { checkProperty, DEFAULT_TIME_BUDGET_MS, failWithCounterexample, type PropertyFailed, type PropertySpec, type SentDecide } from './run-property.ts';

/** Default case budgets (--num-runs overrides them): the whole property suite stays well under a minute against the reference server. */
export const PROPERTY_DEFAULTS = {
  valid: 200,
  /** Cases per mutation; --num-runs N spreads N cases over the mutations. */
  invalidPerMutation: 4,
  choiceSum: 80,
  optionOrder: 50,
  determinism: 50,
} as const;

/** Two probabilities of one option, sent in two orders, may differ by this much. */
export const ORDER_TOLERANCE = 1e-9;

export interface PropertyCheckOptions {
  /**
   * fast-check paths to replay, by check id, with the run's seed: only the shrunk case runs.
   * For PROP-DECIDE-INVALID the value is "<mutation name>@<path>".
   */
  replay?: Readonly<Record<string, string>>;
}

const JSON_TYPE = 'application/json';

function send(t: CheckContext, sent: SentDecide): Promise<Reply> {
  return postDecideText(t.a, sent.text, sent.contentType);
}

const asSent = (body: WireObject): SentDecide => ({ text: toJsonText(body), contentType: JSON_TYPE });

/** Seed 2.1, 2.4, 2.7 and 1: everything a valid request's answer must be, judged per answer (the harness's one judgement). */
function judgeAnswered(reply: Reply, body: WireObject): void {
  const questions = questionsOf(body).map(([id, question]) => {
    const type = questionType(question) ?? '';
    return { id, type, ...(type === 'choice' ? { optionIds: optionIdsOf(question) } : {}) };
  });
  expectAnswered(reply, questions);
}

/**
 * Seed 7 and the mutation's rule: the stated status and code in the seed's error body; never a
 * 5xx, and never a 2xx unless whether to refuse is open (then the answer is judged as valid).
 */
function judgeRefused(reply: Reply, mutated: MutatedBody & { mutation: DecideMutation }): void {
  const { mutation } = mutated;
  if (mutation.expected.status === 'refused-or-answered' && isSuccess(reply)) {
    if (!mutated.answeredAs) throw new Error(`Mutation ${mutation.name} gives no request to judge its answer by`);
    judgeAnswered(reply, mutated.answeredAs);
    return;
  }
  const wanted = `${describeExpectation(mutation.expected)} for ${mutation.name} (${mutation.rule}; seed ${mutation.seedSections.join(', ')})`;
  if (reply.status < 400 || reply.status >= 500) throw new CheckFailure(wanted, describeReply(reply));
  const code = reply.json?.error?.code;
  if (mutation.expected.codes && !mutation.expected.codes.includes(code)) throw new CheckFailure(wanted, describeReply(reply));
  expectRequestIdHeader(reply);
  try {
    expectErrorBody(reply, mutation.expected.codes ? [...mutation.expected.codes] : undefined);
  } catch (error) {
    if (error instanceof CheckFailure) throw new CheckFailure(`${error.expected} for ${mutation.name}`, error.observed);
    throw error;
  }
}

/** The same body with every choice question's options in another order: ranks first, then reversed. */
export function reorderOptions(body: WireObject, ranks: readonly number[]): WireObject {
  const questions = questionsOf(body).map(([id, question]) => {
    const options = question.get('options');
    if (questionType(question) !== 'choice' || !(options instanceof WireObject)) return [id, question] as const;
    const order = options.entries.map((_, index) => index).sort((x, y) => (ranks[x] ?? 0) - (ranks[y] ?? 0) || y - x);
    return [id, question.with('options', new WireObject(order.map((index) => options.entries[index]!)))] as const;
  });
  return body.with('questions', new WireObject(questions));
}

/** Choice questions whose option order can change (two options or more). */
const reorderableChoices = (body: WireObject) =>
  questionsOf(body).filter(([, question]) => questionType(question) === 'choice' && optionIdsOf(question).length >= 2);

/**
 * Uploads the asset pool, runs the property, and on failure keeps the assets the shrunk case
 * references (its curl needs them), deletes the rest, and fails with the counterexample — sent
 * once more, as the check's last exchange.
 */
async function runDecideProperty<T>(t: CheckContext, build: (pool: AssetPool) => PropertySpec<T>, summarise?: () => string | undefined): Promise<void> {
  const pool = await uploadAssetPool(t);
  let failure: PropertyFailed<T> | undefined;
  let spec: PropertySpec<T> | undefined;
  try {
    spec = build(pool);
    const outcome = await checkProperty(t, spec);
    if (outcome.passed) {
      t.note(`${outcome.numRuns} generated cases passed (seed ${t.seed})${outcome.interrupted ? '; the time budget ended the run early' : ''}.`);
    } else {
      failure = outcome;
    }
    const summary = summarise?.();
    if (summary) t.note(summary);
  } finally {
    const keep =
      failure && spec
        ? pooledIdsIn(
            pool,
            spec
              .requestsOf(failure.value)
              .map((sent) => sent.text)
              .join('\n'),
          )
        : new Set<string>();
    await releaseAssetPool(t, pool, keep);
  }
  if (failure && spec) await failWithCounterexample(t, spec, failure);
}

function validCheck(options: PropertyCheckOptions): Omit<Check, 'area'> {
  return {
    id: 'PROP-DECIDE-VALID',
    level: 'MUST',
    seedSections: ['1', '2.1', '2.2', '2.3', '2.4', '2.7', '8'],
    title: 'Generated valid decide requests (unicode, emoji and look-alike ids, sizes at every limit, real assets) are answered as the seed says',
    async run(t) {
      // Id formats are an open point (id-format-and-count): a request refused with a 4xx is sent
      // again with plain ids, and a refusal that only the ids caused is noted, not failed.
      const refusedOnIds = new Set<string>();
      await runDecideProperty<WireObject>(
        t,
        (pool) => ({
          checkId: 'PROP-DECIDE-VALID',
          arbitrary: decideRequestArbitrary({ capabilities: t.target.capabilities, pool }),
          numRuns: PROPERTY_DEFAULTS.valid,
          ...(options.replay?.['PROP-DECIDE-VALID'] ? { replayPath: options.replay['PROP-DECIDE-VALID'] } : {}),
          requestsOf: (body) => [asSent(body)],
          show: (body) => showWire(body),
          async run(body) {
            const reply = await send(t, asSent(body));
            if (reply.status >= 400 && reply.status < 500 && !hasOnlyPlainIds(body)) {
              const plain = await send(t, asSent(withPlainIds(body)));
              if (isSuccess(plain)) {
                refusedOnIds.add(toJsonText(body));
                return;
              }
            }
            judgeAnswered(reply, body);
          },
        }),
        () =>
          refusedOnIds.size > 0
            ? `${refusedOnIds.size} generated requests were refused only for their ids (answered once the ids were plain); id formats are open point id-format-and-count.`
            : undefined,
      );
    },
  };
}

function choiceSumCheck(options: PropertyCheckOptions): Omit<Check, 'area'> {
  return {
    id: 'PROP-CHOICE-SUM',
    level: 'SHOULD',
    seedSections: ['2.4'],
    title: 'For generated valid requests, the probabilities of every choice answer add up to 1 (within 1e-6)',
    async run(t) {
      await runDecideProperty<WireObject>(t, (pool) => ({
        checkId: 'PROP-CHOICE-SUM',
        arbitrary: decideRequestArbitrary({ capabilities: t.target.capabilities, pool }),
        numRuns: PROPERTY_DEFAULTS.choiceSum,
        ...(options.replay?.['PROP-CHOICE-SUM'] ? { replayPath: options.replay['PROP-CHOICE-SUM'] } : {}),
        requestsOf: (body) => [asSent(body)],
        show: (body) => showWire(body),
        async run(body) {
          const reply = await send(t, asSent(body));
          if (!isSuccess(reply)) return; // PROP-DECIDE-VALID judges refusals
          for (const [id, question] of questionsOf(body)) {
            if (questionType(question) === 'choice') failOn(choiceSumBreach(reply.json?.answers?.[id] ?? {}, `/answers/${showId(id)}`));
          }
        },
      }));
    },
  };
}

interface ReorderedCase {
  body: WireObject;
  ranks: number[];
}

function optionOrderCheck(options: PropertyCheckOptions): Omit<Check, 'area'> {
  return {
    id: 'PROP-OPTION-ORDER',
    level: 'SHOULD',
    seedSections: ['2.3', '2.4'],
    title: "Reordering a choice question's options in the JSON text changes no option's probability (within 1e-9)",
    // Compares the answers of two requests: a server's other work (a batch it shares) must not be what differs.
    exclusive: true,
    async run(t) {
      let judged = 0;
      await runDecideProperty<ReorderedCase>(
        t,
        (pool) => ({
          checkId: 'PROP-OPTION-ORDER',
          arbitrary: fc.record({
            body: decideRequestArbitrary({ capabilities: t.target.capabilities, pool }),
            ranks: fc.array(fc.nat({ max: 1000 }), { maxLength: 24 }),
          }),
          numRuns: PROPERTY_DEFAULTS.optionOrder,
          ...(options.replay?.['PROP-OPTION-ORDER'] ? { replayPath: options.replay['PROP-OPTION-ORDER'] } : {}),
          requestsOf: ({ body, ranks }: ReorderedCase) => [asSent(body), asSent(reorderOptions(body, ranks))],
          show: ({ body, ranks }: ReorderedCase) => `As sent first:\n${showWire(body)}\nThen, options reordered:\n${showWire(reorderOptions(body, ranks))}`,
          async run({ body, ranks }: ReorderedCase) {
            const choices = reorderableChoices(body);
            if (choices.length === 0) return;
            const first = await send(t, asSent(body));
            const second = await send(t, asSent(reorderOptions(body, ranks)));
            if (!isSuccess(first) && !isSuccess(second)) return; // PROP-DECIDE-VALID judges refusals
            if (isSuccess(first) !== isSuccess(second))
              throw new CheckFailure(
                'the same outcome whatever the order of the options',
                `${describeReply(first)}, then ${describeReply(second)} with the options reordered`,
              );
            judged += 1;
            for (const [id, question] of choices) {
              for (const optionId of optionIdsOf(question)) {
                const p1 = first.json?.answers?.[id]?.probabilities?.[optionId];
                const p2 = second.json?.answers?.[id]?.probabilities?.[optionId];
                if (typeof p1 !== 'number' || typeof p2 !== 'number' || Math.abs(p1 - p2) > ORDER_TOLERANCE) {
                  throw new CheckFailure(
                    `/answers/${showId(id)}/probabilities/${showId(optionId)} the same in both orders (within ${ORDER_TOLERANCE})`,
                    `${JSON.stringify(p1)}, then ${JSON.stringify(p2)} with the options reordered`,
                  );
                }
              }
            }
          },
        }),
        () => `${judged} cases had a choice question with two options or more and were judged.`,
      );
    },
  };
}

function determinismCheck(options: PropertyCheckOptions): Omit<Check, 'area'> {
  return {
    id: 'PROP-DETERMINISM',
    level: 'SHOULD',
    seedSections: ['2.4'],
    title: 'A generated valid request sent twice gets the same answers',
    // Compares the answers of two requests: a server's other work (a batch it shares) must not be what differs.
    exclusive: true,
    async run(t) {
      await runDecideProperty<WireObject>(t, (pool) => ({
        checkId: 'PROP-DETERMINISM',
        arbitrary: decideRequestArbitrary({ capabilities: t.target.capabilities, pool }),
        numRuns: PROPERTY_DEFAULTS.determinism,
        ...(options.replay?.['PROP-DETERMINISM'] ? { replayPath: options.replay['PROP-DETERMINISM'] } : {}),
        requestsOf: (body) => [asSent(body), asSent(body)],
        show: (body) => showWire(body),
        async run(body) {
          const first = await send(t, asSent(body));
          const second = await send(t, asSent(body));
          if (!isSuccess(first) && !isSuccess(second)) return; // PROP-DECIDE-VALID judges refusals
          if (isSuccess(first) !== isSuccess(second))
            throw new CheckFailure('the same outcome twice', `${describeReply(first)}, then ${describeReply(second)}`);
          const answers = [canonical(first.json?.answers), canonical(second.json?.answers)];
          if (answers[0] !== answers[1]) throw new CheckFailure('the same answers twice', `${answers[0]!.slice(0, 300)} then ${answers[1]!.slice(0, 300)}`);
        },
      }));
    },
  };
}

/** A mutated request and the mutation that made it. */
interface MutatedCase extends MutatedBody {
  mutation: DecideMutation;
}

function mutationSpec(
  t: CheckContext,
  mutation: DecideMutation,
  pool: AssetPool,
  numRuns: number,
  timeBudgetMs: number,
  replayPath?: string,
): PropertySpec<MutatedCase> {
  // Plain ids keep the base request clear of the id-format open point: only the mutation is wrong.
  const base = decideRequestArbitrary({ capabilities: t.target.capabilities, pool, plainIds: true });
  return {
    checkId: 'PROP-DECIDE-INVALID',
    arbitrary: fc.tuple(base, mutationDraw(mutation)).map(([body, draw]) => ({ ...mutation.apply(body, draw, pool), mutation })),
    numRuns,
    timeBudgetMs,
    ...(replayPath !== undefined ? { replayPath } : {}),
    requestsOf: (mutated) => [{ text: mutatedText(mutated), contentType: mutated.contentType }],
    show: (mutated) =>
      `Mutation ${mutated.mutation.name} (breaks: ${mutated.mutation.rule}; seed ${mutated.mutation.seedSections.join(', ')}):\n${showMutated(mutated)}`,
    async run(mutated) {
      judgeRefused(await send(t, { text: mutatedText(mutated), contentType: mutated.contentType }), mutated);
    },
  };
}

function invalidCheck(options: PropertyCheckOptions): Omit<Check, 'area'> {
  return {
    id: 'PROP-DECIDE-INVALID',
    level: 'MUST',
    seedSections: ['2.1', '2.2', '2.3', '4', '4.1', '7', '8'],
    title:
      "Valid requests with one seed rule broken (each mutation named with its rule) are refused with the stated status and code in the seed's error body; never a 2xx or 5xx",
    async run(t) {
      const pool = await uploadAssetPool(t);
      // "<mutation>@<path>" replays one shrunk case; "<mutation>" alone runs that mutation only.
      const [replayMutation, replayPath] = (options.replay?.['PROP-DECIDE-INVALID'] ?? '').split('@');
      let first: { spec: PropertySpec<MutatedCase>; failure: PropertyFailed<MutatedCase> } | undefined;
      try {
        const mutations = decideMutations.filter(
          (mutation) => mutationApplies(mutation, t.target.capabilities, pool) && (!replayMutation || mutation.name === replayMutation),
        );
        if (mutations.length === 0)
          throw new Error(replayMutation ? `No mutation named ${replayMutation} applies to this target` : 'No mutation applies to this target');
        const left = decideMutations.filter((mutation) => !mutations.includes(mutation)).map((mutation) => mutation.name);
        if (left.length > 0 && !replayMutation) t.note(`Mutations left out (capabilities or assets the target lacks): ${left.join(', ')}.`);
        const perMutation = t.numRuns !== undefined ? Math.max(1, Math.ceil(t.numRuns / mutations.length)) : PROPERTY_DEFAULTS.invalidPerMutation;
        const deadline = performance.now() + DEFAULT_TIME_BUDGET_MS;
        const failed: string[] = [];
        let cases = 0;
        for (const mutation of mutations) {
          const spec = mutationSpec(
            t,
            mutation,
            pool,
            perMutation,
            Math.max(1000, deadline - performance.now()),
            replayMutation === mutation.name && replayPath ? replayPath : undefined,
          );
          // Only the first failing mutation is shrunk; later ones are only listed.
          const outcome = await checkProperty(t, spec, { numRuns: perMutation, endOnFailure: first !== undefined });
          cases += outcome.numRuns;
          if (outcome.passed) continue;
          failed.push(`${mutation.name} (${outcome.observed})`);
          first ??= { spec, failure: outcome };
          // A server that stops answering would cost a full timeout per mutation left.
          if (outcome.noResponse) {
            t.note(`Stopped after ${mutation.name}: the server gave no response.`);
            break;
          }
        }
        t.note(`${mutations.length} mutations, ${perMutation} case${perMutation === 1 ? '' : 's'} each, ${cases} cases in all (seed ${t.seed}).`);
        if (failed.length > 0) t.note(`Mutations not refused as the seed says: ${failed.join('; ')}.`);
      } finally {
        const keep = first ? pooledIdsIn(pool, mutatedText(first.failure.value)) : new Set<string>();
        await releaseAssetPool(t, pool, keep);
      }
      if (first)
        await failWithCounterexample(
          t,
          first.spec,
          first.failure,
          ` (mutation ${first.failure.value.mutation.name}; replay value "${first.failure.value.mutation.name}@${first.failure.path}")`,
        );
    },
  };
}

/** The property checks of POST /v1/decide; `options.replay` replays shrunk cases by fast-check path. */
export function decidePropertyChecks(options: PropertyCheckOptions = {}): Check[] {
  return area('property', [validCheck(options), invalidCheck(options), choiceSumCheck(options), optionOrderCheck(options), determinismCheck(options)]);
}

// Runs one fast-check property inside a check and turns a failure into evidence a person can act
// on: the seed and fast-check path (to replay the shrunk case), the shrunk counterexample
// pretty-printed with unicode escaped, and a curl reproduction. The shrunk case is sent once
// more at the end, so that its exchange is the check's last piece of evidence.
import fc from 'fast-check';
import { CheckFailure } from '../harness/check.ts';
import type { CheckContext } from '../harness/context.ts';
import { curlFor, TransportError } from '../harness/http.ts';

/** A request a case sends, for its curl reproduction. */
export interface SentDecide {
  text: string;
  contentType: string;
}

export interface PropertySpec<T> {
  /** The check id, for the replay line. */
  checkId: string;
  arbitrary: fc.Arbitrary<T>;
  /** Cases when the run gives no --num-runs. */
  numRuns: number;
  /** Sends the case and judges the replies; throws CheckFailure when the case breaks the property. */
  run(value: T): Promise<void>;
  /** The requests the case sends, in order, for the curl reproduction. */
  requestsOf(value: T): SentDecide[];
  /** The case for a person: pretty-printed, unicode escaped. */
  show(value: T): string;
  /** Replays only this counterexample: a fast-check path from an earlier failure with the same seed. */
  replayPath?: string;
  /** Stops generating new cases after this long (a case in flight finishes; shrinking stops too). */
  timeBudgetMs?: number;
}

export interface PropertyPassed {
  passed: true;
  numRuns: number;
  /** True when the time budget ended the run before numRuns cases. */
  interrupted: boolean;
}

export interface PropertyFailed<T> {
  passed: false;
  /** The shrunk counterexample. */
  value: T;
  expected: string;
  observed: string;
  seed: number;
  path: string;
  numRuns: number;
  numShrinks: number;
  /** True when the case got no response at all (timeout, reset): it is not sent again. */
  noResponse: boolean;
}

export type PropertyOutcome<T> = PropertyPassed | PropertyFailed<T>;

/** How long a property may generate cases when its check gives no budget. */
export const DEFAULT_TIME_BUDGET_MS = 45_000;

function breachOf(error: unknown): { expected: string; observed: string } {
  if (error instanceof CheckFailure) return { expected: error.expected, observed: error.observed };
  if (error instanceof TransportError)
    return { expected: 'a complete response within the request timeout', observed: `no usable response (${error.kind}): ${error.message}` };
  // The property's own code failed: that is a fault of the kit, not of the server.
  throw error instanceof Error ? error : new Error(String(error));
}

/** Runs the property with the run's seed and case budget (options.numRuns, else t.numRuns, else the property's default). */
export async function checkProperty<T>(
  t: CheckContext,
  spec: PropertySpec<T>,
  options: { numRuns?: number; endOnFailure?: boolean } = {},
): Promise<PropertyOutcome<T>> {
  const numRuns = options.numRuns ?? t.numRuns ?? spec.numRuns;
  // After a request that got no response, shrinking would wait a full timeout per candidate:
  // later candidates pass unsent, so the case that hung is reported as it was.
  let hung = false;
  const property = fc.asyncProperty(spec.arbitrary, async (value) => {
    if (hung) return;
    try {
      await spec.run(value);
    } catch (error) {
      if (error instanceof TransportError) hung = true;
      throw error;
    }
  });
  const details = await fc.check<[T]>(property, {
    seed: t.seed,
    numRuns,
    ...(spec.replayPath !== undefined ? { path: spec.replayPath, endOnFailure: true } : {}),
    ...(options.endOnFailure ? { endOnFailure: true } : {}),
    // The plugin is typed for any property; this one generates [T].
    plugins: [fc.interruptAfterTimeLimit(spec.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS) as fc.Plugin<[T]>],
  });
  if (!details.failed) return { passed: true, numRuns: details.numRuns, interrupted: details.interrupted };
  if (details.counterexample === null) {
    throw new CheckFailure(
      `${numRuns} generated cases`,
      details.interrupted ? 'the run was interrupted before any case ran' : 'too many generated cases were skipped',
    );
  }
  const [value] = details.counterexample;
  return {
    passed: false,
    value,
    ...breachOf(details.errorInstance),
    seed: details.seed,
    path: details.counterexamplePath,
    numRuns: details.numRuns,
    numShrinks: details.numShrinks,
    noResponse: details.errorInstance instanceof TransportError,
  };
}

/** curl lines that send the case's requests again (the key as $DECISION_API_KEY, never in clear). */
export function curlsFor(t: CheckContext, requests: readonly SentDecide[]): string[] {
  return requests.map((sent) =>
    curlFor('POST', `${t.target.baseUrl}/v1/decide`, { authorization: 'Bearer $DECISION_API_KEY', 'content-type': sent.contentType }, sent.text),
  );
}

/**
 * Fails the check with a property's shrunk counterexample: sends it once more (the last exchange
 * of the check), notes the curl reproduction and the replay parameters, then fails.
 */
export async function failWithCounterexample<T>(t: CheckContext, spec: PropertySpec<T>, failure: PropertyFailed<T>, label = ''): Promise<never> {
  let again = 'Not sent again: it got no response at all (its exchange is recorded).';
  if (!failure.noResponse) {
    try {
      await spec.run(failure.value);
      again = 'Sent once more, the shrunk case passed: the failure is intermittent.';
    } catch (error) {
      again =
        error instanceof CheckFailure || error instanceof TransportError
          ? 'Sent once more, the shrunk case failed again (the last exchange).'
          : `Sending the shrunk case once more failed in the kit: ${(error as Error).message}`;
    }
  }
  const curls = curlsFor(t, spec.requestsOf(failure.value));
  const replay = `--seed ${failure.seed} with fast-check path "${failure.path}"`;
  t.note(`${spec.checkId}${label}: shrunk counterexample reproduced by:\n${curls.join('\n')}`);
  t.note(`${spec.checkId}${label}: replay ${replay}. ${again}`);
  t.fail(
    failure.expected,
    `${failure.observed}.\n` +
      `${spec.checkId}${label} failed at case ${failure.numRuns} (seed ${failure.seed}, fast-check path "${failure.path}", ${failure.numShrinks} shrink steps). ` +
      `Shrunk counterexample:\n${spec.show(failure.value)}\n` +
      `Reproduce with:\n${curls.join('\n')}\n` +
      `Replay the shrunk case with ${replay}`,
  );
}

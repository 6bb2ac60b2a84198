// conformanceTests(options): the kit's checks as tests of the implementer's own vitest suite, as
// Schemathesis's pytest plugin is for Python: a describe per area, a test per check id, and a
// test per response rule (area response-rules), which judges every response of the run.
//
// The checks run once, in catalogue order, as a single run: one warm-up, and the work the checks
// share (sharedWork) done once. The first test to run starts that run; each test then waits for
// its own check's result. Selection (suites, only, skip) is read when the tests are registered;
// every other option when the run starts, so a getter such as `get baseUrl() { return url }`
// can name a server the suite starts in beforeAll.
import { describe, test } from 'vitest';
import type { Check, CheckMeta, CheckResult } from '../harness/check.ts';
import { RESPONSE_RULES_AREA, responseRuleMeta } from '../harness/response-rules/catalogue.ts';
import { checkSelection, planOf, suitesOf, type ConformanceOptions } from './index.ts';
import { terminalText } from '../reports/escape.ts';
import { executeRun } from './run.ts';
import { DEFAULT_TIMEOUT_MS, DEFAULT_WARMUP_TIMEOUT_MS } from './run-options.ts';
import { catalogueOf, SUITE_CHECKS } from './suites.ts';

export type { ConformanceOptions } from './index.ts';

/** What a failing check's test says: the expectation and the observation, then every request as curl. */
export function failureMessage(result: CheckResult): string {
  // A server's text goes to the implementer's terminal: its control characters shown, never acted on.
  const curls = result.exchanges.map((exchange) => `  ${terminalText(exchange.curl)}`);
  return [`${result.id} (${result.level}): ${terminalText(result.message ?? 'failed')}`, ...(curls.length > 0 ? ['Reproduce:', ...curls] : [])].join('\n');
}

interface Pending {
  promise: Promise<CheckResult>;
  settle(result: CheckResult): void;
  fail(error: Error): void;
}

function pending(): Pending {
  let settle!: (result: CheckResult) => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<CheckResult>((resolve, reject) => {
    settle = resolve;
    fail = reject;
  });
  // A run that fails before a check's test awaits it must not be an unhandled rejection.
  promise.catch(() => {});
  return { promise, settle, fail };
}

/** How long a check's test may wait: the warm-up and every check before it, each at its own bound. */
function waitBound(options: ConformanceOptions, checks: readonly Check[]): number {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const perCheck = (check: Check) => Object.values(SUITE_CHECKS).find((suite) => suite.checks.includes(check))?.checkTimeoutMs ?? timeoutMs * 10;
  return (options.warmupTimeoutMs ?? DEFAULT_WARMUP_TIMEOUT_MS) + checks.reduce((sum, check) => sum + perCheck(check), 0) + 10_000;
}

/** Registers one test per selected check, grouped by area; call it inside a test file (at top level or in a describe). */
export function conformanceTests(options: ConformanceOptions = {}): void {
  checkSelection(options);
  const only = options.only ?? [];
  const skip = options.skip ?? [];
  const checks = catalogueOf(suitesOf(options)).filter((check) => only.length === 0 || only.includes(check.id));
  // The response rules report after the last check; each is a test like a check's.
  const rules: Array<Pick<CheckMeta, 'id' | 'level' | 'title' | 'area'>> = responseRuleMeta.map(({ id, level, title }) => ({
    id,
    level,
    title,
    area: RESPONSE_RULES_AREA,
  }));
  const results = new Map([...checks, ...rules].map((verdict) => [verdict.id, pending()]));
  let run: Promise<void> | undefined;
  const start = (): Promise<void> =>
    (run ??= (async () => {
      // Read here, not at registration: the target may be known only once beforeAll has run.
      const { onResult, onLine, ...given } = options;
      try {
        const outcome = await executeRun(planOf({ ...given }), {
          ...(onLine ? { line: onLine } : {}),
          onResult: (result) => {
            results.get(result.id)?.settle(result);
            onResult?.(result);
          },
        });
        const missing = new Error(outcome.error ? `the run could not start: ${outcome.error}` : 'the run ended without this check');
        for (const result of results.values()) result.fail(missing);
      } catch (error) {
        for (const result of results.values()) result.fail(error as Error);
      }
    })());

  const timeout = waitBound(options, checks);
  const areas = new Map<string, Array<Pick<CheckMeta, 'id' | 'level' | 'title' | 'area'>>>();
  for (const check of [...checks, ...rules]) areas.set(check.area, [...(areas.get(check.area) ?? []), check]);
  for (const [area, inArea] of areas) {
    describe(area, () => {
      for (const check of inArea) {
        const name = `${check.id}: ${check.title}`;
        if (skip.includes(check.id)) {
          test.skip(name, () => {});
          continue;
        }
        test(
          name,
          async (context) => {
            void start();
            const result = await results.get(check.id)!.promise;
            if (result.status === 'skip') context.skip(result.message);
            else if (result.status === 'observed')
              console.log(`${check.id} (OBSERVE) observed: ${terminalText(result.observation?.summary ?? result.message ?? 'nothing')}`);
            else if (result.status === 'fail' && check.level !== 'MUST')
              console.warn(`${failureMessage(result)}\n(a ${check.level} ${result.rule ? 'rule' : 'check'}: it does not fail a run)`);
            else if (result.status === 'fail') throw new Error(failureMessage(result));
          },
          timeout,
        );
      }
    });
  }
}

// Runs one decide property check against a base URL as the CLI would, and reads the shrunk case
// back from its evidence: the case is sent once more at the end, so it is the last exchange.
import { ALL_CAPABILITIES, type Capability, type CheckResult } from '../../../harness/check.ts';
import { runCheck } from '../../../harness/runner.ts';
import { decidePropertyChecks, type PropertyCheckOptions } from '../../decide-properties.ts';

export interface PropertyRun {
  baseUrl: string;
  keyA: string;
  seed?: number;
  numRuns?: number;
  capabilities?: Capability[];
  replay?: PropertyCheckOptions['replay'];
  /** Timeout of each request (default 10 s). */
  timeoutMs?: number;
}

export async function runPropertyCheck(id: string, run: PropertyRun): Promise<CheckResult> {
  const check = decidePropertyChecks(run.replay ? { replay: run.replay } : {}).find((candidate) => candidate.id === id);
  if (!check) throw new Error(`No property check ${id}`);
  return runCheck(check, {
    target: { baseUrl: run.baseUrl, capabilities: new Set(run.capabilities ?? ALL_CAPABILITIES), hasSecondKey: false },
    keyA: run.keyA,
    timeoutMs: run.timeoutMs ?? 10_000,
    checkTimeoutMs: 120_000,
    seed: run.seed ?? 1,
    ...(run.numRuns !== undefined ? { numRuns: run.numRuns } : {}),
  });
}

/** The decide bodies of the check's last exchanges (the shrunk case, sent once more), parsed. */
export function lastDecideBodies(result: CheckResult, count = 1): any[] {
  const decides = result.exchanges.filter((exchange) => exchange.operationId === 'decide');
  return decides.slice(-count).map((exchange) => JSON.parse(exchange.request.body ?? 'null'));
}

/** The last decide exchange's request body as sent (text). */
export function lastDecideText(result: CheckResult): string {
  const decides = result.exchanges.filter((exchange) => exchange.operationId === 'decide');
  return decides.at(-1)?.request.body ?? '';
}

/** "seed 5, fast-check path "3:0:1"" → the path, from a failure message. */
export function failurePath(result: CheckResult): string | undefined {
  return /fast-check path "([^"]*)"/.exec(result.message ?? '')?.[1];
}

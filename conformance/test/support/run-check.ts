// Runs one check of the catalogue against a base URL, as the CLI would.
import type { Capability, Check, CheckResult } from '../../../harness/check.ts';
import { ALL_CAPABILITIES } from '../../../harness/check.ts';
import { checkById } from '../../registry.ts';
import { runCheck } from '../../../harness/runner.ts';

export interface CheckTarget {
  baseUrl: string;
  keyA: string;
  keyB?: string;
  keyShortTtl?: string;
  shortTtlMs?: number;
  capabilities?: Capability[];
}

/** Runs a check of the conformance catalogue by id, or any check given as it is (another suite's). */
export async function runOneCheck(check: string | Check, target: CheckTarget, timeoutMs = 10_000): Promise<CheckResult> {
  return runCheck(typeof check === 'string' ? checkById(check) : check, {
    target: {
      baseUrl: target.baseUrl,
      capabilities: new Set(target.capabilities ?? ALL_CAPABILITIES),
      hasSecondKey: target.keyB !== undefined,
      ...(target.keyShortTtl && target.shortTtlMs ? { shortTtl: { key: target.keyShortTtl, ttlMs: target.shortTtlMs } } : {}),
    },
    keyA: target.keyA,
    ...(target.keyB ? { keyB: target.keyB } : {}),
    timeoutMs,
  });
}

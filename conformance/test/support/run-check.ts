// Runs one check of the catalogue against a base URL, as the CLI would.
import type { Capability, CheckResult } from '../../../harness/check.ts';
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

export async function runOneCheck(id: string, target: CheckTarget, timeoutMs = 10_000): Promise<CheckResult> {
  return runCheck(checkById(id), {
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

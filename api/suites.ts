// The suites a run can take and their catalogues of checks.
import type { Check } from '../harness/check.ts';
import { checks as conformanceChecks } from '../conformance/registry.ts';
import { checks as coverageChecks } from '../coverage/checks.ts';
import { propertyChecks } from '../property/registry.ts';
import type { Suite } from './run-options.ts';

/** The checks of each suite; a property check sends hundreds of requests, so it gets longer in all. */
export const SUITE_CHECKS: Record<Suite, { checks: readonly Check[]; checkTimeoutMs?: number }> = {
  conformance: { checks: conformanceChecks },
  // Hundreds of requests an operation, some of them uploads of tens of megabytes.
  coverage: { checks: coverageChecks, checkTimeoutMs: 5 * 60_000 },
  property: { checks: propertyChecks, checkTimeoutMs: 10 * 60_000 },
};

/** The catalogue of the given suites, in run order. */
export function catalogueOf(suites: readonly Suite[]): Check[] {
  return suites.flatMap((suite) => SUITE_CHECKS[suite].checks);
}

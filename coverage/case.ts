// What one case of the coverage phase is: a request that changes exactly one thing of a request
// that just passed (its base), what it exercises, and what the seed says a server answers.
import type { Capability } from '../harness/check.ts';
import type { CoverageRecord } from '../harness/coverage.ts';
import type { SentRequest } from '../harness/http.ts';

/**
 * What the seed says of the answer. `answered`: a 2xx (MUST). `refused`: a 4xx, with the stated
 * status and code where the seed states them (MUST). `observed`: the answer is an open point; it is
 * reported, never failed (the response rules still judge what the seed bounds inside it).
 */
export type Expectation = { kind: 'answered' } | { kind: 'refused'; status?: number; code?: string } | { kind: 'observed'; openPoint: string };

/** A request as a case sends it, without the key (each case says which project it sends as). */
export type CaseRequest = Omit<SentRequest, 'key'>;

export interface CoverageCase {
  /** What was changed, readable and stable: `body /context maxLength: "aaa…" (8001 characters)`. */
  name: string;
  operation: string;
  /** The key of the base this case changes one thing of; a base's own key for the base itself. */
  base: string;
  /** Built when sent: some bodies are tens of megabytes, and some requests need a resource of their own (a DELETE its asset). */
  prepare(): Promise<CaseRequest>;
  /** Sent without a key (the base carries the first project's key). */
  anonymous?: boolean;
  records: CoverageRecord[];
  expectation: Expectation;
  /** Capabilities the target must claim for the case (and its base) to be sent. */
  requires: readonly Capability[];
}

/** A request that passes, that cases change one thing of; sent first, and its cases only if it passes. */
export interface BaseRequest {
  key: string;
  operation: string;
  request(): Promise<CaseRequest>;
  requires: readonly Capability[];
}

/** Describes an expectation in words, for failure messages. */
export function describeExpectation(expectation: Expectation): string {
  if (expectation.kind === 'answered') return 'a 2xx answer';
  if (expectation.kind === 'observed') return `an answer the seed leaves open (${expectation.openPoint})`;
  const stated = [expectation.status, expectation.code].filter((part) => part !== undefined).join(' ');
  return stated === '' ? "a 4xx refusal in the seed's error body" : `a refusal with ${stated}`;
}

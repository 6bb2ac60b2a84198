// What load/definitions/response-rules.js exports to the scenario definitions and both runners:
// the response judge with the contract-form validators, the harness's request bodies, and the
// capability names. Bundled by load/scripts/generate-response-rules.ts.
import { contractValidators } from './contract-validators.ts';
import { createJudge } from './judge.ts';
import { responseSchemas } from './response-schemas.ts';

export { RULES, REFUSABLE_OPEN_POINTS, ruleOfCheck, ruleLabel, exampleOf, bodyExcerpt } from './judge.ts';
export type { CheckExample, Expectation, Failure, Judgement, LoadRequest, LoadResponse, Rule } from './judge.ts';
export * from '../../harness/request-bodies.ts';
export { ALL_CAPABILITIES } from '../../harness/check.ts';
export { specIdentity } from './spec-identity.ts';

/** A judge of load responses; body and answers validated on every `validateEvery`-th response it sees. */
export function responseJudge(validateEvery = 1) {
  return createJudge(contractValidators, responseSchemas, validateEvery);
}

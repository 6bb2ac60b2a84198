// The catalogue of response rules: every response the kit receives, whoever sent it (a check, a
// property case, a replayed request), is judged by every rule here that applies to it. A check
// decides what to send and proves the rule it exists for; these hold everywhere else. The load
// generators judge by the same ids, titles and seed sections (load/rules/judge.ts reads
// `responseRuleMeta`; its k6 bundle carries that list as data).
import { answerRules } from './answers.ts';
import { authRules } from './auth.ts';
import { clientMistakeRules } from './client-mistakes.ts';
import { contractRules } from './contract.ts';
import { errorRules } from './errors.ts';
import { mediaTypeRules } from './media-types.ts';
import { requestIdRules } from './request-id.ts';
import type { ResponseRule, ResponseRuleMeta } from './rule.ts';

export const responseRules: readonly ResponseRule[] = [
  ...requestIdRules,
  ...authRules,
  ...clientMistakeRules,
  ...errorRules,
  ...mediaTypeRules,
  ...contractRules,
  ...answerRules,
];

const byId = new Map<string, ResponseRule>();
for (const rule of responseRules) {
  if (byId.has(rule.id)) throw new Error(`Duplicate response rule id ${rule.id}`);
  byId.set(rule.id, rule);
}

/** The rules' metadata alone, in catalogue order: what the load generators read. */
export const responseRuleMeta: readonly ResponseRuleMeta[] = responseRules.map(({ applies: _applies, judge: _judge, ...meta }) => meta);

export function responseRule(id: string): ResponseRule {
  const rule = byId.get(id);
  if (!rule) throw new Error(`No response rule ${id} in the catalogue`);
  return rule;
}

/** The area a rule's verdict is reported under, beside the checks' areas. */
export const RESPONSE_RULES_AREA = 'response-rules';

// The verdicts of the response rules over a run: each exchange is judged by every rule that
// applies, as it is received, and each rule keeps its count, its breaches and its first breach
// (with the recorded exchange, whose curl line reproduces it, and the check or case that sent it).
// At the end every rule becomes one result beside the checks', so every report shows it.
import type { CheckResult } from '../check.ts';
import type { Exchange } from '../http.ts';
import { RESPONSE_RULES_AREA, responseRules } from './catalogue.ts';
import type { JudgedExchange } from './exchange.ts';
import type { ResponseRule, RuleBreach } from './rule.ts';

export interface RuleTally {
  judged: number;
  breached: number;
  /** Who sent the breaching exchanges (check id) -> how many. */
  breachedBy: Record<string, number>;
  first?: { breach: RuleBreach; exchange: Exchange; sender: string };
}

export interface RuleLedger {
  /** Judges one exchange by every rule that applies to it; `sender` is the check or case that sent it. */
  judge(exchange: JudgedExchange, recorded: Exchange, sender: string): void;
  tally(id: string): RuleTally;
  /** One result per rule, in catalogue order (area RESPONSE_RULES_AREA). */
  results(): CheckResult[];
}

export function createRuleLedger(rules: readonly ResponseRule[] = responseRules): RuleLedger {
  const tallies = new Map<string, RuleTally>(rules.map((rule) => [rule.id, { judged: 0, breached: 0, breachedBy: {} }]));
  return {
    judge(exchange, recorded, sender) {
      for (const rule of rules) {
        if (!rule.applies(exchange)) continue;
        const tally = tallies.get(rule.id)!;
        tally.judged += 1;
        const breach = rule.judge(exchange);
        if (!breach) continue;
        tally.breached += 1;
        tally.breachedBy[sender] = (tally.breachedBy[sender] ?? 0) + 1;
        tally.first ??= { breach, exchange: recorded, sender };
      }
    },
    tally: (id) => {
      const tally = tallies.get(id);
      if (!tally) throw new Error(`No response rule ${id} in this ledger`);
      return tally;
    },
    results: () => rules.map((rule) => ruleResult(rule, tallies.get(rule.id)!)),
  };
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

function ruleResult(rule: ResponseRule, tally: RuleTally): CheckResult {
  const { applies: _applies, judge: _judge, appliesTo, ...meta } = rule;
  const judgedNote = `Judged ${plural(tally.judged, 'exchange')} (${appliesTo}); ${tally.breached} broke it.`;
  const senders = Object.entries(tally.breachedBy)
    .sort(([, x], [, y]) => y - x)
    .map(([sender, count]) => `${sender} (${count})`);
  const base = {
    ...meta,
    seedSections: [...rule.seedSections],
    area: RESPONSE_RULES_AREA,
    durationMs: 0,
    notes: [judgedNote, ...(senders.length > 0 ? [`Sent by: ${senders.join(', ')}.`] : [])],
    exchanges: tally.first ? [tally.first.exchange] : [],
    rule: { judged: tally.judged, breached: tally.breached, breachedBy: { ...tally.breachedBy } },
  };
  if (tally.judged === 0) return { ...base, status: 'skip', message: `no exchange of this run was one it judges (${appliesTo})` };
  if (!tally.first)
    return {
      ...base,
      status: rule.level === 'OBSERVE' ? 'observed' : 'pass',
      ...(rule.level === 'OBSERVE' ? { observation: { summary: `held on all ${tally.judged}` } } : {}),
    };
  const { breach, sender } = tally.first;
  const message = `${plural(tally.breached, 'exchange')} of ${tally.judged} broke it; the first, sent by ${sender}: expected ${breach.expected}; observed ${breach.observed}.`;
  if (rule.level === 'OBSERVE')
    return { ...base, status: 'observed', message, observation: { summary: `did not hold on ${tally.breached} of ${tally.judged}` } };
  return { ...base, status: 'fail', message };
}

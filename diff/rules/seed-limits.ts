// x-seed-limits: figures the seed states that no schema keyword carries (body limit, default
// asset lifetime, model names). Each change is called out by the limit's name.
import { isObject, type Json, type JsonObject } from '../../spec/index.ts';
import { rule } from '../findings.ts';
import type { DocumentStage, RuleFamily } from '../family.ts';
import type { Rule } from '../model.ts';
import { child } from '../pointer.ts';
import { canonical } from '../schema-walk.ts';

const RULES = {
  decreased: rule('seed-limit-decreased', 'document', 'breaking', 'a numeric seed limit (x-seed-limits) went down: requests or assets that fit before may not'),
  increased: rule('seed-limit-increased', 'document', 'non-breaking', 'a numeric seed limit (x-seed-limits) went up'),
  valueRemoved: rule('seed-limit-value-removed', 'document', 'breaking', 'a value of a listed seed figure (x-seed-limits), such as a model alias, was removed'),
  valueAdded: rule('seed-limit-value-added', 'document', 'non-breaking', 'a value was added to a listed seed figure (x-seed-limits)'),
  changed: rule('seed-limit-changed', 'document', 'breaking', 'a seed figure (x-seed-limits) that is not a number or a list changed, or was removed'),
  added: rule('seed-limit-added', 'document', 'info', 'a seed figure was added to x-seed-limits'),
};

const POINTER = '/x-seed-limits';
const limitsOf = (doc: JsonObject): JsonObject => (isObject(doc['x-seed-limits']) ? doc['x-seed-limits'] : {});

function compareSeedLimits({ pair, collector }: DocumentStage): void {
  const before = limitsOf(pair.old);
  const after = limitsOf(pair.new);
  const report = (r: Rule, name: string, message: string) =>
    collector.report(r, { oldPointer: name in before ? child(POINTER, name) : POINTER, newPointer: name in after ? child(POINTER, name) : POINTER, message });
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (name.startsWith('x-')) continue;
    const was = before[name] as Json | undefined;
    const now = after[name] as Json | undefined;
    if (canonical(was) === canonical(now)) continue;
    if (was === undefined) {
      report(RULES.added, name, `Seed limit ${name} was added (${canonical(now)}).`);
    } else if (typeof was === 'number' && typeof now === 'number') {
      report(now < was ? RULES.decreased : RULES.increased, name, `Seed limit ${name} went from ${was} to ${now}.`);
    } else if (Array.isArray(was) && Array.isArray(now)) {
      const kept = new Set(now.map(canonical));
      const had = new Set(was.map(canonical));
      const removed = was.filter((value) => !kept.has(canonical(value)));
      const added = now.filter((value) => !had.has(canonical(value)));
      if (removed.length > 0) report(RULES.valueRemoved, name, `Seed limit ${name} no longer lists ${removed.map(canonical).join(', ')}.`);
      if (added.length > 0) report(RULES.valueAdded, name, `Seed limit ${name} now also lists ${added.map(canonical).join(', ')}.`);
    } else {
      report(
        RULES.changed,
        name,
        now === undefined
          ? `Seed limit ${name} was removed (was ${canonical(was)}).`
          : `Seed limit ${name} changed from ${canonical(was)} to ${canonical(now)}.`,
      );
    }
  }
}

export const seedLimitFamily: RuleFamily = { name: 'seed limits', stage: 'document', rules: Object.values(RULES), compare: compareSeedLimits };

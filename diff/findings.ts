// Collects findings as the walk reports them. A component reached through several operations
// is one change: its findings merge, listing every operation the change reaches.
import type { ChangeClass, Direction, Finding, Rule, Site } from './model.ts';

export function rule(id: string, direction: Direction, changeClass: ChangeClass, description: string): Rule {
  return { id, direction, class: changeClass, description };
}

export interface Reported {
  oldPointer: string;
  newPointer: string;
  message: string;
  operation?: string;
  openPoint?: string;
  /** For a schema rule: the part and the pair of nodes it was comparing. */
  site?: Site;
}

/** Where a rule family reports what it found. */
export interface Reporter {
  report(rule: Rule, what: Reported): void;
}

export class FindingCollector implements Reporter {
  private readonly byKey = new Map<string, Finding>();
  private readonly sites = new Map<Finding, Site[]>();

  report(rule: Rule, what: Reported): void {
    const key = `${rule.id}\u0000${what.oldPointer}\u0000${what.newPointer}`;
    const existing = this.byKey.get(key);
    if (existing) {
      if (what.operation && !existing.operations.includes(what.operation)) existing.operations.push(what.operation);
      if (what.site) this.sites.get(existing)?.push(what.site);
      return;
    }
    const finding: Finding = {
      ruleId: rule.id,
      class: rule.class,
      direction: rule.direction,
      oldPointer: what.oldPointer,
      newPointer: what.newPointer,
      operations: what.operation ? [what.operation] : [],
      message: what.message,
      ...(what.openPoint ? { openPoint: what.openPoint } : {}),
    };
    this.byKey.set(key, finding);
    this.sites.set(finding, what.site ? [what.site] : []);
  }

  /** Where a schema finding was reported, once per part that reached it. */
  sitesOf(finding: Finding): readonly Site[] {
    return this.sites.get(finding) ?? [];
  }

  findings(): Finding[] {
    return [...this.byKey.values()];
  }
}

/**
 * A reporter for one rule family: it passes on only the family's own rules, so a rule cannot
 * be reported without being listed under its family in the catalogue.
 */
export function reporterFor(collector: Reporter, family: { name: string; rules: readonly Rule[] }): Reporter {
  const own = new Set(family.rules);
  return {
    report(rule, what) {
      if (!own.has(rule)) throw new Error(`diff rule family "${family.name}" reported ${rule.id}, a rule its registry entry does not list`);
      collector.report(rule, what);
    },
  };
}

/** One rule per side of the wire: `request-<stem>` and `response-<stem>`, each with its own verdict. */
export function sided(stem: string, description: string, requestClass: ChangeClass, responseClass: ChangeClass): Record<'request' | 'response', Rule> {
  return {
    request: rule(`request-${stem}`, 'request', requestClass, `request: ${description}`),
    response: rule(`response-${stem}`, 'response', responseClass, `response: ${description}`),
  };
}

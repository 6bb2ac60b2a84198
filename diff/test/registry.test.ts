// The registry is one list: every family in it runs at its stage and reports findings, and
// what a family reports is listed under it in the catalogue.
import { expect, test } from 'vitest';
import { diffDocuments } from '../diff.ts';
import type { RuleFamily } from '../family.ts';
import type { Reporter } from '../findings.ts';
import { ruleFamilies, rules } from '../registry.ts';
import { allCases } from './corpus/all.ts';
import { documentsOf } from './corpus/case.ts';

interface Observed {
  calls: number;
  reported: Set<string>;
}

/** The registry with each family's compare wrapped to count its calls and the rules it reports. */
function observedRegistry(): { families: RuleFamily[]; observed: Map<string, Observed> } {
  const observed = new Map<string, Observed>();
  const families = ruleFamilies.map((family) => {
    const seen: Observed = { calls: 0, reported: new Set() };
    observed.set(family.name, seen);
    const original = family.compare as (stage: { collector: Reporter }, ...rest: unknown[]) => void;
    const compare = (stage: { collector: Reporter }, ...rest: unknown[]) => {
      seen.calls++;
      const collector: Reporter = { report: (rule, what) => (seen.reported.add(rule.id), stage.collector.report(rule, what)) };
      original({ ...stage, collector }, ...rest);
    };
    return { ...family, compare } as RuleFamily;
  });
  return { families, observed };
}

// The families' wiring, not the verdicts on value sets (witness.test.ts has those).
const KEYWORDS_ONLY = { decide: false };

/** The whole corpus, both ways, through the observed registry: run once, judged by both tests below. */
let corpusRun: { observed: Map<string, Observed>; reportedIds: Set<string> } | undefined;
function runCorpusOnce(): NonNullable<typeof corpusRun> {
  if (corpusRun) return corpusRun;
  const { families, observed } = observedRegistry();
  const reportedIds = new Set<string>();
  for (const corpusCase of allCases) {
    const { old, changed } = documentsOf(corpusCase);
    for (const result of [diffDocuments(old, changed, families, KEYWORDS_ONLY), diffDocuments(changed, old, families, KEYWORDS_ONLY)]) {
      for (const finding of result.findings) reportedIds.add(finding.ruleId);
    }
  }
  corpusRun = { observed, reportedIds };
  return corpusRun;
}

test('every family of the registry has a compare function that runs at its stage and reports findings', () => {
  const { observed } = runCorpusOnce();
  for (const family of ruleFamilies) {
    expect(family.rules.length, family.name).toBeGreaterThan(0);
    expect(observed.get(family.name)!.calls, `${family.name} never ran`).toBeGreaterThan(0);
    expect(observed.get(family.name)!.reported.size, `${family.name} never reported`).toBeGreaterThan(0);
  }
});

test('every rule a compare function reports is in the catalogue, under its own family', () => {
  const { observed, reportedIds } = runCorpusOnce();
  const catalogue = new Set(rules.map((r) => r.id));
  for (const id of reportedIds) expect(catalogue, id).toContain(id);
  for (const family of ruleFamilies) {
    const own = family.rules.map((r) => r.id);
    expect(
      [...observed.get(family.name)!.reported].filter((id) => !own.includes(id)),
      family.name,
    ).toEqual([]);
  }
});

test('a family that reports a rule its entry does not list stops the comparison', () => {
  const versionCase = allCases.find((c) => c.forward.includes('info-version-changed'))!;
  const { old, changed } = documentsOf(versionCase);
  const unlisted = ruleFamilies.map((family) =>
    family.name === 'versioning' ? { ...family, rules: family.rules.filter((r) => r.id !== 'info-version-changed') } : family,
  );
  expect(() => diffDocuments(old, changed, unlisted)).toThrow(
    'diff rule family "versioning" reported info-version-changed, a rule its registry entry does not list',
  );
  expect(diffDocuments(old, changed).findings.map((f) => f.ruleId)).toContain('info-version-changed');
});

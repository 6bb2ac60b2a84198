// Runs corpus cases both ways: every expected rule must be reported, and every breaking
// finding must be expected (an unexpected one is a false alarm, shown with its message).
import { describe, expect, test } from 'vitest';
import { diffDocuments } from '../../diff.ts';
import { rules } from '../../registry.ts';
import { documentsOf, type CorpusCase } from './case.ts';

export function runCorpus(family: string, cases: readonly CorpusCase[]): void {
  describe(family, () => {
    test.each(cases.map((c) => [c.name, c] as const))('%s', (_name, corpusCase) => {
      const { old, changed } = documentsOf(corpusCase);
      for (const [direction, from, to, expected] of [
        ['forward', old, changed, corpusCase.forward],
        ['reverse', changed, old, corpusCase.reverse],
      ] as const) {
        // The keyword rules' verdicts; the decisions on value sets are proved in witness.test.ts and value-sets.test.ts.
        const result = diffDocuments(from, to, undefined, { decide: false });
        const found = result.findings.map((f) => f.ruleId);
        for (const id of expected) {
          expect(
            rules.map((r) => r.id),
            `${id} is not a rule of the registry`,
          ).toContain(id);
          expect(found, `${direction}: ${id} not reported; got ${found.join(', ')}`).toContain(id);
        }
        const unexpected = result.findings.filter((f) => f.class === 'breaking' && !expected.includes(f.ruleId));
        expect(
          unexpected.map((f) => `${f.ruleId}: ${f.message}`),
          `${direction}: breaking findings not expected`,
        ).toEqual([]);
      }
    });
  });
}

// Every corpus case, and the cases that exercise one rule family.
import type { Rule } from '../../model.ts';
import type { CorpusCase } from './case.ts';
import { keywordCases } from './keywords.ts';
import { kitCases, mediaLimitCases } from './kit.ts';
import { operationCases } from './operations.ts';
import { noOpCases, schemaCases } from './schemas.ts';

export const allCases: readonly CorpusCase[] = [...schemaCases, ...keywordCases, ...noOpCases, ...operationCases, ...kitCases, ...mediaLimitCases];

/** The cases that expect at least one rule of the family, in either direction. */
export function casesFor(family: readonly Rule[]): CorpusCase[] {
  const ids = new Set(family.map((r) => r.id));
  return allCases.filter((c) => [...c.forward, ...c.reverse].some((id) => ids.has(id)));
}

/** Cases that must report no breaking change either way (renames, no-ops). */
export const quietCases: readonly CorpusCase[] = allCases.filter((c) => c.forward.length === 0 && c.reverse.length === 0);

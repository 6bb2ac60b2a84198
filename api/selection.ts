// --only and --skip name checks of the selected suites' catalogue. A typo must not turn CI green
// by running nothing, so an unknown id, or a selection that leaves nothing to run, is refused
// (a ConformanceOptionsError; a usage error of the command line) naming the closest known ids.
import { ConformanceOptionsError, suitesOf, type Suite } from './run-options.ts';
import { catalogueOf } from './suites.ts';

/** Levenshtein distance: insertions, deletions and substitutions, each costing 1. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The known ids nearest to `id` (case-insensitive), closest first, at most `count`. */
export function closestIds(id: string, known: readonly string[], count = 3): string[] {
  const wanted = id.toUpperCase();
  return known
    .map((candidate) => ({ candidate, distance: editDistance(wanted, candidate.toUpperCase()) }))
    .sort((x, y) => x.distance - y.distance || x.candidate.localeCompare(y.candidate))
    .slice(0, count)
    .map(({ candidate }) => candidate);
}

export interface Selection {
  only: readonly string[];
  skip: readonly string[];
}

/** Why the selection cannot run against this catalogue (one line), or undefined when it can. */
export function selectionProblem(selection: Selection, catalogue: readonly string[], suites: readonly string[]): string | undefined {
  const known = new Set(catalogue);
  const unknown = (flag: string, ids: readonly string[]) =>
    ids.filter((id) => !known.has(id)).map((id) => `${id} in ${flag} (closest: ${closestIds(id, catalogue).join(', ')})`);
  const problems = [...unknown('--only', selection.only), ...unknown('--skip', selection.skip)];
  const listing = `"decision-conformance list-checks --suite ${suites.join(',')}" lists the checks of the suite${suites.length > 1 ? 's' : ''} ${suites.join(', ')}`;
  if (problems.length > 0) return `unknown check id${problems.length > 1 ? 's' : ''}: ${problems.join('; ')}; ${listing}`;
  const selected = selection.only.length > 0 ? selection.only : catalogue;
  if (selected.every((id) => selection.skip.includes(id))) return `the selection leaves no check to run: every check selected is also in --skip; ${listing}`;
  return undefined;
}

/** Throws a ConformanceOptionsError when the suites are unknown, or only or skip names an unknown check, or leaves nothing to run. */
export function checkSelection(options: { suites?: Suite[]; only?: string[]; skip?: string[] }): void {
  const suites = suitesOf(options);
  const problem = selectionProblem(
    { only: options.only ?? [], skip: options.skip ?? [] },
    catalogueOf(suites).map((check) => check.id),
    suites,
  );
  if (problem) throw new ConformanceOptionsError(problem);
}

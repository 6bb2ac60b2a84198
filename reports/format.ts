// Numbers and words shared by the renderers, so that every report says the same thing the same way.
import { untriedKeywords, type CoverageReport } from '../harness/coverage.ts';
import type { OverlapReport, RunSummary, Verdict } from './run-report.ts';

/** A duration for people: "840 ms", "12.4 s", "3 min 05 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

/** A latency figure: one decimal below 10 ms, whole milliseconds above. */
export function formatMs(ms: number): string {
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`;
}

/** The first 12 hex digits of a hash: enough to tell two specs apart at a glance. */
export function shortSha(sha256: string): string {
  return sha256.slice(0, 12);
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** The headline of a run, in words. */
export function verdictHeadline(verdict: Verdict, summary: RunSummary): string {
  const shouldFailed = summary.fail - summary.must_failed;
  switch (verdict) {
    case 'fail':
      return `FAILED: ${plural(summary.must_failed, 'MUST check')} failed${shouldFailed > 0 ? `, and ${plural(shouldFailed, 'SHOULD check')}` : ''}`;
    case 'warn':
      return `PASSED with warnings: every MUST check passed; ${plural(shouldFailed, 'SHOULD check')} failed`;
    case 'pass':
      return 'PASSED: every MUST and SHOULD check that ran passed';
    case 'empty':
      return 'NOTHING RAN: every check was skipped or none was selected';
  }
}

/** The first line of a message, cut to `limit` characters: for summaries that have one line per check. */
export function firstLine(text: string, limit = 160): string {
  const line = text.split(/\r?\n/, 1)[0] ?? '';
  return line.length > limit ? `${line.slice(0, limit - 1)}…` : line;
}

/** The overlap a check or an area achieved, in words: "8 in flight (target 8), 6 answered together". */
export function overlapText(overlap: OverlapReport): string {
  const figures = `${overlap.max_in_flight} in flight (target ${overlap.target}), ${overlap.answered_together} answered together`;
  return overlap.achieved ? figures : `${figures}: no overlap achieved`;
}

/** The figures of a run's coverage, counted once for every renderer. */
interface CoverageFigures {
  keywords: number;
  /** Operations that have request keywords. */
  operations: number;
  /** Keywords with at least one negative case. */
  negative: number;
  /** Keywords without a negative case that the phase listed untestable. */
  untestable: number;
  /** Keywords without a negative case and not listed untestable (untriedKeywords). */
  untried: number;
  dimensions: number;
  /** Every case sent: the positive and negative cases of the keywords and the cases of the dimensions. */
  cases: number;
}

function coverageFigures(coverage: CoverageReport): CoverageFigures {
  const { keywords, dimensions } = coverage;
  const negative = keywords.filter((entry) => entry.negative > 0).length;
  const untried = untriedKeywords(coverage).length;
  return {
    keywords: keywords.length,
    operations: new Set(keywords.map((entry) => entry.operation)).size,
    negative,
    // A keyword without a negative case is either untried or excused: the three figures add up to the keywords.
    untestable: keywords.length - negative - untried,
    untried,
    dimensions: dimensions.length,
    cases: keywords.reduce((sum, entry) => sum + entry.positive + entry.negative, 0) + dimensions.reduce((sum, entry) => sum + entry.count, 0),
  };
}

/** A run's coverage in words: "57 request keywords of 5 operations, 55 with a negative case, 2 untestable, 0 untried; 9 HTTP dimensions; 143 cases". */
export function coverageText(coverage: CoverageReport): string {
  const figures = coverageFigures(coverage);
  return `${plural(figures.keywords, 'request keyword')} of ${plural(figures.operations, 'operation')}, ${figures.negative} with a negative case, ${figures.untestable} untestable, ${figures.untried} untried; ${plural(figures.dimensions, 'HTTP dimension')}; ${plural(figures.cases, 'case')}`;
}

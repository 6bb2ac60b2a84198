// What a run tried of the space the spec defines (the coverage phase, coverage/): each case it
// sent is recorded against the keyword or HTTP dimension it exercises, and the run's `coverage`
// object counts them beside everything the spec has, so that what was never tried shows.
// The shapes live here, below both the phase that records them and the reports that show them.

/** Where in a request a keyword's node is. */
export type CoverageLocation = 'body' | 'path' | 'query' | 'header';

/** One case the coverage phase sent, as a check records it. */
export type CoverageRecord =
  | {
      kind: 'keyword';
      operation: string;
      location: CoverageLocation;
      /** The node: `/context<ContentParts>/*<TextPart>/text` in a body, the parameter's name otherwise. */
      pointer: string;
      keyword: string;
      /** Whether the case was valid by the spec's schema (ajv's verdict on what was sent). */
      polarity: 'positive' | 'negative';
    }
  | {
      kind: 'dimension';
      operation: string;
      /** The HTTP dimension: `accept`, `content-type`, `framing`, `upload-size`... */
      dimension: string;
      /** The value tried: `text/html`, `chunked, 262145 bytes`... */
      value: string;
    }
  | {
      /** Something the check could not try on this target, and why (a capability it does not claim). */
      kind: 'untestable';
      operation: string;
      what: string;
      reason: string;
    };

/** One request keyword of one operation, with the cases sent for it. */
export interface KeywordCoverage {
  operation: string;
  location: CoverageLocation;
  pointer: string;
  keyword: string;
  positive: number;
  negative: number;
}

/** One HTTP dimension of one operation, with the values tried and how many cases each. */
export interface DimensionCoverage {
  operation: string;
  dimension: string;
  count: number;
  values: string[];
}

/** The status and error code pairs one operation answered, beside the statuses the spec documents. */
export interface ResponseCoverage {
  operation: string;
  documented_statuses: number[];
  /** "400 INVALID_REQUEST", "201", sorted, each with how many responses. */
  observed: Array<{ status: number; code?: string; count: number }>;
}

/** Something the phase could not try, and why. */
export interface UntestableEntry {
  operation: string;
  /** The keyword's node and keyword (`/request_id pattern`) or the dimension value. */
  what: string;
  reason: string;
}

export interface CoverageReport {
  keywords: KeywordCoverage[];
  dimensions: DimensionCoverage[];
  responses: ResponseCoverage[];
  untestable: UntestableEntry[];
}

/** A keyword that got no negative case and is not listed untestable: what the report shows in red. */
export function untriedKeywords(coverage: CoverageReport): KeywordCoverage[] {
  const excused = new Set(coverage.untestable.map((entry) => `${entry.operation} ${entry.what}`));
  return coverage.keywords.filter((entry) => entry.negative === 0 && !excused.has(`${entry.operation} ${entry.pointer} ${entry.keyword}`));
}

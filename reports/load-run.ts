// The load section of results.json: one scenario run (or several repeats of it) by k6 or by the
// kit's Node runner, in one shape. load/scenarios/k6-adapter.js writes the same fields from k6's
// end-of-test data; load/runner/ writes them from its own samples.

export interface LoadLatency {
  count: number;
  p50_ms: number;
  p90_ms: number;
  p95_ms: number;
  p99_ms: number;
  max_ms: number;
  /** 95 % distribution-free confidence interval of p99, two measured durations; only from 368 requests (load/definitions/order-statistics.js). */
  p99_interval_ms?: { lower: number; upper: number };
}

export interface LoadTimelineWindow {
  /** Seconds from the start of the run to the start of the window. */
  start_s: number;
  count: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
}

export interface LoadRun {
  scenario: string;
  description: string;
  generator: { name: 'k6' | 'node'; version: string };
  /**
   * How the percentiles were computed: "nearest-rank" by the kit over every request's duration
   * (both generators under `load run`), "k6-trend" by k6 alone (its own summary). Absent in older results.
   */
  percentile_method?: 'nearest-rank' | 'k6-trend';
  base_url: string;
  started_at: string;
  duration_ms: number;
  /** The executor as the definition gives it, in k6's option names. */
  executor: Record<string, unknown>;
  iterations: number;
  dropped_iterations: number;
  requests: number;
  requests_by_name: Record<string, number>;
  throughput_rps: number;
  /** Share of requests without a 2xx/3xx response (k6's http_req_failed). */
  error_rate: number;
  check_rate: number;
  /** "all", then one entry per request name. */
  latency: Record<string, LoadLatency>;
  /** Response checks, named `<request name> <rule id>` (load/rules/judge.ts). */
  checks: LoadCheck[];
  thresholds: { metric: string; condition: string; ok: boolean }[];
  timeline: LoadTimelineWindow[];
  passed: boolean;
  /** How many responses had body and answers validated: all (every 1) or a stated sample. */
  validation?: { every: number; validated: number };
  /** Requests the server refused (a 4xx) because of a shape the seed leaves open, by open point id: not errors. */
  open_point_refusals?: Record<string, number>;
  /** Resident memory of the server's process over the run, when the kit could see it. */
  memory?: { source: string; samples: { at_s: number; rss_bytes: number }[] };
}

export interface LoadCheck {
  name: string;
  passes: number;
  fails: number;
  /** The rule the check applies: "choice-margin: confidence is … (seed 2.4)". */
  rule?: string;
  /** The first failed exchange of this check. */
  example?: { request: string; status: number; body_excerpt: string; expected: string; observed: string };
}

/** What report.html, summary.md and `load compare` read: repeated runs of one scenario. */
export interface LoadSection {
  scenario: string;
  /** Each repeat of the scenario, in order. Comparisons use them all: one run is one noisy number. */
  runs: LoadRun[];
  /** First and last windows of the first run compared (soak; its verdicts are among each run's thresholds). */
  drift?: LoadDrift;
}

export interface LoadDrift {
  first_window_p50_ms: number;
  last_window_p50_ms: number;
  p50_ratio: number;
  first_window_p99_ms?: number;
  last_window_p99_ms?: number;
  /** Requests in the first and last windows: p99 drift is judged only when both have 368. */
  first_window_count?: number;
  last_window_count?: number;
  rss_first_bytes?: number;
  rss_last_bytes?: number;
  rss_growth_bytes?: number;
}

/** Spawns of the bundled reference server, timed (load cold-start; load/cold-start.ts). */
export interface ColdStartReport {
  runs: number;
  allowance_ms: number;
  spawn_to_listening_ms: { median: number; max: number; values: number[] };
  spawn_to_first_decide_ms: { median: number; max: number; values: number[] };
  within_allowance: boolean;
}

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
  /** Most virtual users busy at once (k6's vus; the Node runner's iterations in flight); absent in older results. */
  vus_peak?: number;
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
  /** The spec the generator's response rules were built from: parts of one run must agree on it. */
  spec?: { version: string; sha256: string };
  /** One part of a run split over processes or pods (k6 execution segments): this part's segment and the sequence it belongs to. */
  execution_segment?: { segment: string; sequence: string };
  /** A run combined from parts (load run --instances, load merge): how many, and their segment sequence. */
  parts?: { count: number; sequence: string };
  /** The limits the run was judged by, so that a merge of its parts judges the whole by the same ones. */
  limits?: RunLimits;
  /** Whether the generator kept up (load/generator-health.ts); absent in older results. */
  generator_health?: GeneratorHealth;
}

export interface RunLimits {
  thresholds: { p95Ms: number; p99Ms: number; errorRate: number; checkRate: number };
  drift?: { p50Ratio: number; p99Ratio: number; floorMs: number; rssGrowthMb: number };
  timeline_window_s: number;
}

/** Whether the generator kept up with the scenario, and the figures the verdict rests on. */
export interface GeneratorHealth {
  /** The generator, not the server, set the pace: no server verdict is drawn from this run. */
  bound: boolean;
  /** Why it is bound; empty when it kept up. */
  reasons: string[];
  /** Iterations per second an arrival-rate scenario planned (absent for closed loops, which plan none). */
  planned_rate_per_s?: number;
  achieved_rate_per_s: number;
  dropped_iterations: number;
  /** Most virtual users (iterations in flight) at once, and the scenario's limit. */
  vus_peak?: number;
  vus_limit?: number;
  /** Cores of the machine that ran the generator, where known (not for pods merged later). */
  cores?: number;
  /** Cores used on average over the run, where the kit could see the process. */
  generator_cpu?: { cores: number; source: string };
  server_cpu?: { cores: number; source: string };
  /** Why a run not shown bound is not shown to have kept up either: the machine had no idle CPU. */
  unproven?: string;
  /** Cores the machine left idle on average over the run (no process used them), where the kit could read it. */
  machine_idle_cores?: number;
  /** The generator and the server ran in one process: their CPU is not told apart. */
  shared_process?: boolean;
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

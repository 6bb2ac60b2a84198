// Load and cold-start runs built by hand, as `load run` and `load cold-start` build them: one
// run that held every threshold, one that missed, timelines flat and spiky, a key planted in a
// check's example (the report must redact it).
import { buildColdStartReport, buildLoadReport, type ColdStartRunReport, type LoadRunReport } from '../load-report.ts';
import type { ColdStartReport, LoadRun, LoadSection } from '../load-run.ts';

export const LOAD_KEY = 'svc_live_loadkey0123456789abcdef';
export const LOAD_STARTED_AT = new Date('2026-11-23T10:00:00.000Z');

export const flat = [
  { start_s: 0, count: 20, p50_ms: 2, p95_ms: 3, p99_ms: 4 },
  { start_s: 1, count: 20, p50_ms: 2.2, p95_ms: 3.1, p99_ms: 4.5 },
];
export const spiky = [
  { start_s: 0, count: 20, p50_ms: 2, p95_ms: 3, p99_ms: 4 },
  { start_s: 1, count: 20, p50_ms: 2, p95_ms: 900, p99_ms: 1500 },
];

export const sampleLoadRun = (passed: boolean, timeline: LoadRun['timeline']): LoadRun => ({
  scenario: 'decide-steady',
  description: 'POST /v1/decide at 20/s for 2 s',
  generator: { name: 'k6', version: 'v2.2.0' },
  percentile_method: 'nearest-rank',
  base_url: 'http://127.0.0.1:8080',
  started_at: LOAD_STARTED_AT.toISOString(),
  duration_ms: 2000,
  executor: { executor: 'constant-arrival-rate', rate: 20, timeUnit: '1s', duration: '2s', preAllocatedVUs: 10, maxVUs: 40 },
  iterations: 40,
  dropped_iterations: 0,
  requests: 40,
  requests_by_name: { decide: 40 },
  throughput_rps: 20,
  error_rate: passed ? 0 : 0.1,
  check_rate: passed ? 1 : 0.9,
  latency: {
    all: { count: 40, p50_ms: 2, p90_ms: 3, p95_ms: 4, p99_ms: 5, max_ms: 6 },
    decide: { count: 40, p50_ms: 2, p90_ms: 3, p95_ms: 4, p99_ms: 5, max_ms: 6 },
  },
  checks: [
    { name: 'decide status', passes: 40, fails: 0, rule: 'status: 200 for a valid decide (seed 4.1)' },
    passed
      ? { name: 'decide choice-margin', passes: 40, fails: 0, rule: 'choice-margin: confidence is the margin (seed 2.4)' }
      : {
          name: 'decide choice-margin',
          passes: 36,
          fails: 4,
          rule: 'choice-margin: confidence is the margin (seed 2.4)',
          example: {
            request: `POST /v1/decide X-Request-ID r-1 Bearer ${LOAD_KEY}`,
            status: 200,
            body_excerpt: '{"answers":[]}',
            expected: 'confidence 0.4',
            observed: 'confidence 0.9',
          },
        },
  ],
  thresholds: [
    { metric: 'http_req_failed', condition: 'rate<=0.01', ok: passed },
    { metric: 'http_req_duration', condition: 'p(95)<250', ok: true },
  ],
  timeline,
  passed,
  validation: { every: 1, validated: 40 },
  memory: {
    source: 'kit process',
    samples: [
      { at_s: 0, rss_bytes: 100 },
      { at_s: 2, rss_bytes: 120 },
    ],
  },
});

/** A load run report as `load run` writes it; every threshold held unless runs say otherwise. */
export function sampleLoadReport(runs: LoadRun[] = [sampleLoadRun(true, flat), sampleLoadRun(true, flat)], extra: Partial<LoadSection> = {}): LoadRunReport {
  return buildLoadReport({
    target: { baseUrl: 'http://127.0.0.1:8080', embedded: true, capabilities: ['multimodal', 'assets', 'noul', 'score', 'multi'] },
    startedAt: LOAD_STARTED_AT,
    finishedAt: new Date(LOAD_STARTED_AT.getTime() + 4500),
    secrets: [LOAD_KEY],
    load: { scenario: 'decide-steady', runs, ...extra },
  });
}

export const sampleColdStart = (slowest = 900): ColdStartReport => ({
  runs: 3,
  allowance_ms: 120_000,
  spawn_to_listening_ms: { median: 310, max: 340, values: [300, 310, 340] },
  spawn_to_first_decide_ms: { median: 620, max: slowest, values: [600, 620, slowest] },
  within_allowance: slowest <= 120_000,
});

export function sampleColdStartReport(coldStart: ColdStartReport = sampleColdStart()): ColdStartRunReport {
  return buildColdStartReport({ command: 'npm run serve', startedAt: LOAD_STARTED_AT, finishedAt: new Date(LOAD_STARTED_AT.getTime() + 3000), coldStart });
}

// Runs a scenario definition under k6: its executor and thresholds become k6 options, each
// request goes through k6/http and its response is judged by the spec's rules (the bundled judge
// of definitions/response-rules.js, the Node runner's too), and handleSummary writes the kit's
// load result (load.json) into REPORT_DIR, with k6's own percentiles (`load run` recomputes them
// from k6's raw samples, so that both generators share one percentile definition). Only k6 modules and the definitions: no Node, no
// remote imports, so the scripts also run on k6-operator's distributed runners.
import http from 'k6/http';
import { check, sleep } from 'k6';
import exec from 'k6/execution';
import { Counter, Trend } from 'k6/metrics';
import {
  CHECK_EXAMPLE_MARK,
  exampleOf,
  REFUSABLE_OPEN_POINTS,
  responseJudge,
  ruleLabel,
  specIdentity,
  target,
  targetProblem,
  validateEvery,
} from '../definitions/common.js';
import { latencyDriftThresholds } from '../definitions/drift.js';
import { plannedIterations, thresholdExpressions, timelineWindows } from '../definitions/executor.js';
import { seedFigures } from '../definitions/seed-figures.js';

const TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'count'];

/** k6 options, the default function and handleSummary of one definition. */
export function k6Scenario(
  /** @type {import('../definitions/common.js').ScenarioDefinition} */ definition,
  /** @type {Record<string, string | undefined>} */ env,
) {
  const { baseUrl } = target(env);
  // Headers every request carries (--header: a gateway's tenant header or key), under each request's own.
  /** @type {Record<string, string>} */
  const extraHeaders = env.EXTRA_HEADERS ? JSON.parse(env.EXTRA_HEADERS) : {};
  const windows = timelineWindows(definition);
  // One trend per timeline window: k6's end-of-test summary has no time series, so the
  // percentiles over time are kept as metrics of their own.
  const windowTrends = Array.from({ length: windows.count }, (_, index) => new Trend(`timeline_w${index}`, true));
  const planned = plannedIterations(definition.executor);
  // Iterations that ran the definition (k6's own count includes any it started past the plan).
  const scenarioIterations = new Counter('scenario_iterations');
  // This virtual user's judge: the same function the Node runner judges responses with.
  const judge = responseJudge(validateEvery(env));
  const validatedResponses = new Counter('validated_responses');
  const refusals = new Counter('open_point_refusals');
  // A refusal of an open-point shape (a 4xx but 401 and 429) is not a failed request.
  const refusalIsExpected = http.expectedStatuses({ min: 200, max: 400 }, { min: 402, max: 428 }, { min: 430, max: 499 });
  /** Checks this virtual user has logged an example of: the first failure of each is enough. */
  const exampled = new Set();

  /** @type {Record<string, string[]>} */
  const thresholds = { ...thresholdExpressions(definition.thresholds) };
  // Always-true thresholds on submetrics make k6 keep them in the summary: counts and latency per request name.
  for (const name of definition.requestNames) {
    thresholds[`http_reqs{name:${name}}`] = ['count>=0'];
    thresholds[`http_req_duration{name:${name}}`] = ['max>=0'];
  }
  for (const openPoint of REFUSABLE_OPEN_POINTS) thresholds[`open_point_refusals{open_point:${openPoint}}`] = ['count>=0'];

  const options = {
    scenarios: { [definition.name]: { ...definition.executor } },
    thresholds,
    summaryTrendStats: TREND_STATS,
  };

  const io = {
    async send(/** @type {import('../definitions/common.js').LoadRequest} */ request) {
      const reply = await http.asyncRequest(request.method, `${baseUrl}${request.path}`, request.body ?? null, {
        headers: { ...extraHeaders, ...request.headers },
        tags: { name: request.name },
        timeout: `${seedFigures.clientTimeoutS}s`,
        responseType: 'text',
        ...(request.expect.openPoint ? { responseCallback: refusalIsExpected } : {}),
      });
      /** @type {Record<string, string>} */
      const headers = {};
      for (const [key, value] of Object.entries(reply.headers)) headers[key.toLowerCase()] = value;
      const response = { status: reply.status, headers, body: typeof reply.body === 'string' ? reply.body : '' };
      const judgement = judge(request, response);
      /** @type {Record<string, () => boolean>} */
      const checks = {};
      for (const [name, ok] of Object.entries(judgement.checks)) checks[name] = () => ok;
      check(response, checks, { name: request.name });
      if (judgement.validated) validatedResponses.add(1);
      if (judgement.refused) refusals.add(1, { open_point: judgement.refused });
      for (const failure of judgement.failures) {
        if (exampled.has(failure.check)) continue;
        exampled.add(failure.check);
        // VUs share no memory with handleSummary: the example goes out as a log line the kit's runner reads.
        console.log(`${CHECK_EXAMPLE_MARK}${JSON.stringify({ check: failure.check, example: exampleOf(failure, request, response) })}`);
      }
      // indexAt is clamped to 0..count - 1, the indices of windowTrends.
      /** @type {Trend} */ (windowTrends[windows.indexAt(Date.now() - exec.scenario.startTime)]).add(reply.timings.duration);
      return response;
    },
    async pause(/** @type {number} */ seconds) {
      sleep(seconds);
    },
  };

  return {
    options,
    setup() {
      const problem = targetProblem(env);
      if (problem) exec.test.abort(problem);
    },
    async iteration() {
      const index = exec.scenario.iterationInTest;
      if (planned !== undefined && index >= planned) return;
      scenarioIterations.add(1);
      await definition.iteration(index, io);
    },
    handleSummary(/** @type {any} */ data) {
      const result = loadResult(definition, data, baseUrl, env, windows);
      const dir = (env.REPORT_DIR ?? '.').replace(/\/+$/, '');
      return {
        [`${dir}/load.json`]: `${JSON.stringify(result, null, 2)}\n`,
        stdout: `${definition.name}: ${result.passed ? 'thresholds met' : 'THRESHOLDS MISSED'}; ${result.requests} requests, ${result.throughput_rps} req/s, p95 ${result.latency.all?.p95_ms ?? '-'} ms, errors ${(result.error_rate * 100).toFixed(2)} %, checks ${(result.check_rate * 100).toFixed(2)} % -> ${dir}/load.json\n`,
      };
    },
  };
}

const round = (/** @type {number} */ value) => Math.round(value * 10) / 10;

function latencyOf(/** @type {any} */ values) {
  return {
    count: values.count,
    p50_ms: round(values.med),
    p90_ms: round(values['p(90)']),
    p95_ms: round(values['p(95)']),
    p99_ms: round(values['p(99)']),
    max_ms: round(values.max),
  };
}

/** The kit's load result from k6's end-of-test data (same shape as the Node runner's). */
function loadResult(
  /** @type {import('../definitions/common.js').ScenarioDefinition} */ definition,
  /** @type {any} */ data,
  /** @type {string} */ baseUrl,
  /** @type {Record<string, string | undefined>} */ env,
  /** @type {{ count: number, windowS: number }} */ windows,
) {
  const metrics = data.metrics;
  const durationMs = data.state.testRunDurationMs;
  const requests = metrics.http_reqs?.values.count ?? 0;
  /** @type {Record<string, number>} */
  const requestsByName = {};
  /** @type {Record<string, ReturnType<typeof latencyOf>>} */
  const latency = {};
  if (metrics.http_req_duration) latency.all = latencyOf(metrics.http_req_duration.values);
  for (const name of definition.requestNames) {
    requestsByName[name] = metrics[`http_reqs{name:${name}}`]?.values.count ?? 0;
    const trend = metrics[`http_req_duration{name:${name}}`];
    if (trend && trend.values.count > 0) latency[name] = latencyOf(trend.values);
  }
  /** @type {{ start_s: number, count: number, p50_ms: number, p95_ms: number, p99_ms: number }[]} */
  const timeline = [];
  for (let index = 0; index < windows.count; index++) {
    const values = metrics[`timeline_w${index}`]?.values;
    if (values && values.count > 0)
      timeline.push({
        start_s: index * windows.windowS,
        count: values.count,
        p50_ms: round(values.med),
        p95_ms: round(values['p(95)']),
        p99_ms: round(values['p(99)']),
      });
  }
  /** @type {import('../../reports/load-run.ts').LoadCheck[]} */
  const checks = [];
  (function collect(/** @type {any} */ group) {
    for (const item of group.checks ?? []) {
      const found = checks.find((entry) => entry.name === item.name);
      if (found) {
        found.passes += item.passes;
        found.fails += item.fails;
      } else {
        const rule = ruleLabel(item.name);
        checks.push({ name: item.name, passes: item.passes, fails: item.fails, ...(rule ? { rule } : {}) });
      }
    }
    for (const child of group.groups ?? []) collect(child);
  })(data.root_group);
  /** @type {{ metric: string, condition: string, ok: boolean }[]} */
  const thresholds = [];
  for (const [metric, conditions] of Object.entries(thresholdExpressions(definition.thresholds))) {
    for (const condition of conditions) thresholds.push({ metric, condition, ok: metrics[metric]?.thresholds?.[condition]?.ok ?? false });
  }
  if (definition.drift) thresholds.push(...latencyDriftThresholds(definition.drift, timeline));
  return {
    scenario: definition.name,
    description: definition.description,
    generator: { name: 'k6', version: env.K6_VERSION ?? 'unknown' },
    // k6's own summary; `load run` replaces these figures with the kit's, from k6's raw samples.
    percentile_method: 'k6-trend',
    base_url: baseUrl,
    started_at: new Date(Date.now() - durationMs).toISOString(),
    duration_ms: round(durationMs),
    executor: definition.executor,
    iterations: metrics.scenario_iterations?.values.count ?? 0,
    dropped_iterations: metrics.dropped_iterations?.values.count ?? 0,
    vus_peak: metrics.vus?.values.max ?? 0,
    requests,
    requests_by_name: requestsByName,
    throughput_rps: round(requests / (durationMs / 1000)),
    error_rate: metrics.http_req_failed?.values.rate ?? 0,
    check_rate: metrics.checks?.values.rate ?? 0,
    latency,
    checks,
    thresholds,
    timeline,
    passed: thresholds.every((threshold) => threshold.ok),
    validation: { every: validateEvery(env), validated: metrics.validated_responses?.values.count ?? 0 },
    ...openPointRefusals(metrics),
    spec: specIdentity,
    ...executionSegment(),
    limits: {
      thresholds: definition.thresholds,
      ...(definition.drift ? { drift: definition.drift } : {}),
      timeline_window_s: definition.timelineWindowS,
    },
  };
}

/**
 * This process's part of a split run (k6-operator pods, `load run --instances`): k6 gives the
 * segment and its sequence normalised (e.g. "1/4:1/2" of "0,1/4,1/2,3/4,1"); none for a whole run.
 */
function executionSegment() {
  const { executionSegment: segment, executionSegmentSequence: sequence } = /** @type {any} */ (exec.test.options);
  return segment ? { execution_segment: { segment: String(segment), sequence: sequence ? String(sequence) : '' } } : {};
}

/** Refusals by open point, when there were any (k6 keeps a tagged count only for a submetric with a threshold). */
function openPointRefusals(/** @type {any} */ metrics) {
  /** @type {Record<string, number>} */
  const counts = {};
  for (const openPoint of REFUSABLE_OPEN_POINTS) {
    const count = metrics[`open_point_refusals{open_point:${openPoint}}`]?.values.count ?? 0;
    if (count > 0) counts[openPoint] = count;
  }
  return Object.keys(counts).length > 0 ? { open_point_refusals: counts } : {};
}

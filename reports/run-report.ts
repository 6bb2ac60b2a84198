// The run model: everything a report shows, in one plain object (the content of results.json).
// Every renderer is a function of this object alone, so what people read in report.html and
// what CI reads in junit.xml can never disagree.
import type { CheckResult, CheckStatus, Level } from '../harness/check.ts';
import type { Target } from '../harness/context.ts';
import type { CoverageReport } from '../harness/coverage.ts';
import type { Exchange } from '../harness/http.ts';
import type { KeyVariantName, ProjectName } from '../harness/key-variants.ts';
import { combinedOverlap, overlapAchieved, type Overlap } from '../harness/overlap.ts';
import { openPoints } from '../spec/index.ts';
import { latencyByOperation, type LatencyStats } from './latency.ts';
import { redactDeep } from '../harness/redaction.ts';
import type { ColdStartRunReport, LoadRunReport } from './load-report.ts';
import { milliseconds, runHead, runTimes, type RunBasics } from './run-basics.ts';

export type { LatencyStats } from './latency.ts';
// The fields every kind of run has, in a module of their own that load-report.ts imports too.
export { RESULTS_SCHEMA_VERSION, runHead, runTimes, type RunBasics, type RunKind } from './run-basics.ts';

/** What a run of any kind is: results.json says its kind, and each kind has only the fields it has. */
export type RunReport = ConformanceRunReport | LoadRunReport | ColdStartRunReport;

/** A run of checks (`decision-conformance run`): the conformance and property suites. */
export interface ConformanceRunReport extends RunBasics {
  kind: 'conformance';
  /** Where the checks ran. Keys are never part of a report. */
  target: { base_url: string; embedded: boolean; capabilities: string[]; second_key: boolean };
  /** The seed of generated data, to replay the run. */
  seed: number;
  suites: string[];
  warmup: { duration_ms: number; ok: boolean; message?: string };
  /** How many requests the run kept in flight (--workers), and how often a 429 paused them all. */
  workers?: WorkersReport;
  summary: RunSummary;
  checks: CheckReport[];
  /** The spec's open points that the run's OBSERVE checks looked at, with the reference server's choice. */
  open_points: OpenPointReport[];
  /** operationId -> latency of every response received for it. */
  latency: Record<string, LatencyStats>;
  /** Area -> the largest overlap its concurrent checks achieved; absent when none ran. */
  overlap_by_area?: Record<string, OverlapReport>;
  /** What the coverage phase tried of the request space the spec defines; absent when it did not run. */
  coverage?: CoverageReport;
}

export interface WorkersReport {
  /** --workers: the most requests in flight at once from checks that share no state. */
  limit: number;
  /** The most that were, measured by the run's request slots. */
  most_in_flight: number;
  /** How often a 429 held every request of the run for its Retry-After, and for how long in all. */
  rate_limit_pauses: number;
  rate_limit_paused_ms: number;
}

export interface RunSummary {
  total: number;
  pass: number;
  fail: number;
  skip: number;
  observed: number;
  must_failed: number;
}

export interface CheckReport {
  id: string;
  level: Level;
  area: string;
  seed_sections: string[];
  title: string;
  status: CheckStatus;
  duration_ms: number;
  /** Why it failed (expectation and observation) or why it was skipped. */
  message?: string;
  open_point?: string;
  observation?: { summary: string; reference?: string; matches_reference?: boolean };
  notes: string[];
  evidence: EvidenceReport[];
  /** For checks that send requests together: the overlap measured from their exchanges. */
  overlap?: OverlapReport;
  /** For a response rule (area response-rules): how many exchanges it judged and how many broke it, by sender. */
  rule?: { judged: number; breached: number; breached_by: Record<string, number> };
}

export interface OverlapReport {
  /** Requests the check aimed to keep in flight together (--concurrency). */
  target: number;
  /** The most requests sent and not yet answered at one instant. */
  max_in_flight: number;
  /** How many answers of a burst typically came closer together than one-at-a-time handling allows (harness/overlap.ts). */
  answered_together: number;
  /** Whether enough answers came together for the check to say its rule held under overlap. */
  achieved: boolean;
}

export interface EvidenceReport {
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  response?: { status: number; headers: Record<string, string>; body: string };
  transport_error?: string;
  /** When the request was sent, epoch milliseconds to a tenth. */
  started_at_ms?: number;
  duration_ms: number;
  operation_id?: string;
  curl: string;
  /** Which project's key the request carried and the named variant of it (harness/key-variants.ts): never the key. */
  credential?: { project: ProjectName; variant?: KeyVariantName };
  /** The same number on every request sent together with this one (harness/overlap-group.ts). */
  overlap_group?: number;
}

export interface OpenPointReport {
  id: string;
  seed_section: string;
  /** What the seed leaves open. */
  open: string;
  /** What the bundled reference server does. */
  reference_choice: string;
}

/** The facts of one run, as the runner and the command line know them. */
export interface RunFacts {
  results: readonly CheckResult[];
  target: Pick<Target, 'baseUrl' | 'capabilities' | 'hasSecondKey'> & { embedded: boolean };
  seed: number;
  suites: readonly string[];
  startedAt: Date;
  finishedAt: Date;
  warmup: { durationMs: number; ok: boolean; message?: string };
  /** The run's workers and what they achieved, when checks ran. */
  workers?: { limit: number; mostInFlight: number; pauses: number; pausedMs: number };
  /** Every key the run used. None of them appears anywhere in the report, whoever wrote it where. */
  secrets: readonly string[];
  /** What the coverage phase recorded, when it ran. */
  coverage?: CoverageReport;
}

export function buildRunReport(facts: RunFacts): ConformanceRunReport {
  const checks = facts.results.map(checkReport);
  const report: ConformanceRunReport = {
    ...runHead('conformance'),
    target: {
      base_url: facts.target.baseUrl,
      embedded: facts.target.embedded,
      capabilities: [...facts.target.capabilities],
      second_key: facts.target.hasSecondKey,
    },
    seed: facts.seed,
    suites: [...facts.suites],
    ...runTimes(facts.startedAt, facts.finishedAt),
    warmup: {
      duration_ms: milliseconds(facts.warmup.durationMs),
      ok: facts.warmup.ok,
      ...(facts.warmup.message !== undefined ? { message: facts.warmup.message } : {}),
    },
    ...(facts.workers
      ? {
          workers: {
            limit: facts.workers.limit,
            most_in_flight: facts.workers.mostInFlight,
            rate_limit_pauses: facts.workers.pauses,
            rate_limit_paused_ms: milliseconds(facts.workers.pausedMs),
          },
        }
      : {}),
    summary: summarize(checks),
    checks,
    open_points: openPointsCitedBy(checks),
    latency: latencyByOperation(checks.flatMap((check) => check.evidence)),
    ...overlapByArea(facts.results),
    ...(facts.coverage ? { coverage: coverageReport(facts.coverage) } : {}),
  };
  return redactDeep(report, facts.secrets);
}

export function summarize(checks: readonly Pick<CheckReport, 'status' | 'level'>[]): RunSummary {
  const count = (status: CheckStatus) => checks.filter((check) => check.status === status).length;
  return {
    total: checks.length,
    pass: count('pass'),
    fail: count('fail'),
    skip: count('skip'),
    observed: count('observed'),
    must_failed: checks.filter((check) => check.status === 'fail' && check.level === 'MUST').length,
  };
}

/**
 * The one-word outcome every renderer leads with. A failed SHOULD check does not fail a run
 * (the seed only implies it), but it is never reported as a clean pass either.
 */
export type Verdict = 'fail' | 'warn' | 'pass' | 'empty';

export function verdictOf(summary: RunSummary): Verdict {
  if (summary.must_failed > 0) return 'fail';
  if (summary.fail > 0) return 'warn';
  return summary.total - summary.skip > 0 ? 'pass' : 'empty';
}

/** Areas in the order the run met them, each with its checks. */
export function checksByArea(checks: readonly CheckReport[]): Map<string, CheckReport[]> {
  const areas = new Map<string, CheckReport[]>();
  for (const check of checks) areas.set(check.area, [...(areas.get(check.area) ?? []), check]);
  return areas;
}

function checkReport(result: CheckResult): CheckReport {
  return {
    id: result.id,
    level: result.level,
    area: result.area,
    seed_sections: [...result.seedSections],
    title: result.title,
    status: result.status,
    duration_ms: milliseconds(result.durationMs),
    ...(result.message !== undefined ? { message: result.message } : {}),
    ...(result.openPoint !== undefined ? { open_point: result.openPoint } : {}),
    ...(result.observation
      ? {
          observation: {
            summary: result.observation.summary,
            ...(result.observation.reference !== undefined ? { reference: result.observation.reference } : {}),
            ...(result.observation.matchesReference !== undefined ? { matches_reference: result.observation.matchesReference } : {}),
          },
        }
      : {}),
    notes: [...result.notes],
    evidence: result.exchanges.map(evidenceReport),
    ...(result.overlap ? { overlap: overlapReport(result.overlap) } : {}),
    ...(result.rule ? { rule: { judged: result.rule.judged, breached: result.rule.breached, breached_by: { ...result.rule.breachedBy } } } : {}),
  };
}

function overlapReport(overlap: Overlap): OverlapReport {
  return { target: overlap.target, max_in_flight: overlap.maxInFlight, answered_together: overlap.answeredTogether, achieved: overlapAchieved(overlap) };
}

/** The overlap of each area whose checks measured one: the largest figures of its checks. */
function overlapByArea(results: readonly CheckResult[]): Pick<ConformanceRunReport, 'overlap_by_area'> {
  const byArea = new Map<string, Overlap[]>();
  for (const result of results) if (result.overlap) byArea.set(result.area, [...(byArea.get(result.area) ?? []), result.overlap]);
  if (byArea.size === 0) return {};
  return { overlap_by_area: Object.fromEntries([...byArea].map(([area, overlaps]) => [area, overlapReport(combinedOverlap(overlaps)!)])) };
}

/**
 * A copy of the coverage with the fields the schema lists and nothing else: results.json is
 * checked against a strict schema, and the report must not share arrays with the runner's state.
 */
function coverageReport(coverage: CoverageReport): CoverageReport {
  return {
    keywords: coverage.keywords.map(({ operation, location, pointer, keyword, positive, negative }) => ({
      operation,
      location,
      pointer,
      keyword,
      positive,
      negative,
    })),
    dimensions: coverage.dimensions.map(({ operation, dimension, count, values }) => ({ operation, dimension, count, values: [...values] })),
    responses: coverage.responses.map(({ operation, documented_statuses, observed }) => ({
      operation,
      documented_statuses: [...documented_statuses],
      observed: observed.map(({ status, code, count }) => ({ status, ...(code !== undefined ? { code } : {}), count })),
    })),
    untestable: coverage.untestable.map(({ operation, what, reason }) => ({ operation, what, reason })),
  };
}

function evidenceReport(exchange: Exchange): EvidenceReport {
  const { request, response } = exchange;
  return {
    request: {
      method: request.method,
      url: request.url,
      headers: { ...request.headers },
      ...(request.body !== undefined ? { body: request.body } : {}),
    },
    ...(response ? { response: { status: response.status, headers: { ...response.headers }, body: response.body } } : {}),
    ...(exchange.transportError !== undefined ? { transport_error: exchange.transportError } : {}),
    ...(exchange.startedAtMs > 0 ? { started_at_ms: milliseconds(exchange.startedAtMs) } : {}),
    duration_ms: milliseconds(exchange.durationMs),
    ...(exchange.operationId !== undefined ? { operation_id: exchange.operationId } : {}),
    curl: exchange.curl,
    ...(exchange.credential ? { credential: { ...exchange.credential } } : {}),
    ...(exchange.overlapGroup !== undefined ? { overlap_group: exchange.overlapGroup } : {}),
  };
}

function openPointsCitedBy(checks: readonly CheckReport[]): OpenPointReport[] {
  const cited = new Set(checks.map((check) => check.open_point).filter((id) => id !== undefined));
  return openPoints
    .filter((point) => cited.has(point.id))
    .map((point) => ({ id: point.id, seed_section: point.seedSection, open: point.open, reference_choice: point.referenceChoice.summary }));
}

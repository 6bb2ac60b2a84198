// One run of the suites against a target: the warm-up, the checks, the report. The command line
// (`decision-conformance run`) and the programmatic API both run through here, with a plan checked
// by run-options.ts; reports are written only when the plan names a folder.
import type { Check, CheckResult } from '../harness/check.ts';
import type { SharedWork, Target } from '../harness/context.ts';
import { KEY_VARIABLES, type BodyStore } from '../harness/http.ts';
import { createRuleLedger } from '../harness/response-rules/ledger.ts';
import { runChecks } from '../harness/runner.ts';
import { rateGate, requestSlots } from '../harness/in-flight.ts';
import type { Dispatcher } from 'undici';
import { coverageOf } from '../coverage/tally.ts';
import { connectionDispatcher } from '../harness/connection.ts';
import { buildRunReport, type ConformanceRunReport } from '../reports/run-report.ts';
import { writeReports, type WrittenReports } from '../reports/write.ts';
import { startEmbeddedTarget } from './embedded-target.ts';
import type { RunPlan } from './run-options.ts';
import { SUITE_CHECKS } from './suites.ts';
import { refusedKey, warmUp, type GivenKey } from './warmup.ts';

/** What a run tells as it goes. */
export interface RunEvents {
  line?(text: string): void;
  onStart?(check: Check): void;
  /** A check that runs alone has the server to itself (harness/runner.ts): a test can stand a barrier in front of a server it runs in-process. */
  onAlone?(check: Check): void;
  onAnnounce?(check: Check, text: string): void;
  onResult?(result: CheckResult): void;
}

export interface RunOutcome {
  exitCode: 0 | 1 | 2;
  /** Why the run could not start (exit status 2), as one line. */
  error?: string;
  /** The content of results.json. */
  report: ConformanceRunReport;
  results: CheckResult[];
  reportDir?: string;
  reportPaths?: WrittenReports;
  /** Request bodies too large to inline in reproduce lines (written next to the reports). */
  bodies: BodyStore;
}

export async function executeRun(plan: RunPlan, events: RunEvents = {}): Promise<RunOutcome> {
  const line = (text: string) => events.line?.(text);
  const embedded = plan.baseUrl === undefined ? await startEmbeddedTarget({ profile: plan.referenceProfile, choices: plan.referenceChoices }) : undefined;
  let closeAtEnd: Dispatcher | undefined;
  try {
    const baseUrl = embedded?.baseUrl ?? plan.baseUrl!;
    const keyA = embedded?.keyA ?? plan.keyA!;
    const keyB = embedded?.keyB ?? plan.keyB;
    const expiry = embedded ? { key: embedded.keyShortTtl, ttlMs: embedded.shortTtlMs } : plan.expiry;
    const secrets = [keyA, keyB, expiry?.key, ...(plan.secretHeaderValues ?? [])].filter((key): key is string => Boolean(key));
    const headers = plan.headers ?? {};
    // A deployed server is reached through the proxy and CA given (or the environment's proxy); the bundled one, on this machine, directly.
    const dispatcher = embedded ? undefined : connectionDispatcher(plan.connection ?? {});
    closeAtEnd = dispatcher;
    const target: Target = {
      baseUrl,
      capabilities: new Set(plan.capabilities),
      hasSecondKey: keyB !== undefined,
      ...(expiry ? { shortTtl: expiry } : {}),
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...(dispatcher ? { dispatcher } : {}),
    };

    const choices = Object.entries(plan.referenceChoices)
      .map(([id, choice]) => `, ${id}=${choice}`)
      .join('');
    line(`Decision Service conformance: ${embedded ? `the bundled reference server (${embedded.profile} profile${choices}) at ${baseUrl}` : baseUrl}`);
    line(
      `generator key ${plan.seed} (--seed ${plan.seed} makes the same inputs); second project ${keyB ? 'given' : 'not given (isolation checks will be skipped)'}; capabilities ${plan.capabilities.join(', ') || 'none'}`,
    );

    const startedAt = new Date();
    const warmedUp = await warmUp(
      baseUrl,
      { key: keyA, role: 'project A', source: `--api-key or ${KEY_VARIABLES.a}` },
      plan.warmupTimeoutMs,
      headers,
      dispatcher,
    );
    // Every other key is checked like key A, so that a wrong one is a usage error naming its flag.
    const otherKeys: GivenKey[] = [
      ...(keyB ? [{ key: keyB, role: 'project B', source: `--api-key-b or ${KEY_VARIABLES.b}` }] : []),
      ...(expiry ? [{ key: expiry.key, role: 'the short-lifetime project', source: `--expiry-api-key or ${KEY_VARIABLES.expiry}` }] : []),
    ];
    const refusal = warmedUp.ok ? await refusedKey(baseUrl, otherKeys, plan.timeoutMs, headers, dispatcher) : undefined;
    const warmup = refusal ? { ...warmedUp, ok: false, message: refusal } : warmedUp;
    const bodies: BodyStore = new Map();
    // One set of request slots and one pause after 429 for the whole run, across its suites.
    const slots = requestSlots(plan.workers);
    const gate = rateGate();
    const report = (results: CheckResult[]) => {
      const coverage = coverageOf(results);
      return buildRunReport({
        results,
        ...(coverage ? { coverage } : {}),
        target: { ...target, embedded: embedded !== undefined },
        seed: plan.seed,
        suites: plan.suites,
        startedAt,
        finishedAt: new Date(),
        warmup: { durationMs: warmup.durationMs, ok: warmup.ok, ...(warmup.message ? { message: warmup.message } : {}) },
        ...(results.length > 0
          ? { workers: { limit: plan.workers, mostInFlight: slots.most(), pauses: gate.held().times, pausedMs: gate.held().totalMs } }
          : {}),
        secrets,
      });
    };
    const reportDir = typeof plan.reportDir === 'function' ? plan.reportDir(startedAt) : plan.reportDir;
    const written = async (finished: ConformanceRunReport) =>
      reportDir === undefined ? {} : { reportDir, reportPaths: await writeReports(finished, reportDir, bodies) };
    if (!warmup.ok) {
      // CI still gets its reports, saying why nothing ran.
      const finished = report([]);
      return { exitCode: 2, error: warmup.message ?? `${baseUrl} did not answer`, report: finished, results: [], bodies, ...(await written(finished)) };
    }
    line(`warm-up call answered in ${Math.round(warmup.durationMs)} ms (status ${warmup.status})`);
    if (warmup.message) line(`warning: ${warmup.message}`);

    const results: CheckResult[] = [];
    const sharedWork: SharedWork = new Map();
    // Every exchange of every check and property case is judged by the response rules as it is
    // received; each rule's verdict joins the checks' results after the last suite.
    const ruleLedger = createRuleLedger();
    // The suites' checks in one run of the runner: those that share no state share the workers
    // whatever their suite, and those that run alone run after all of them. Results keep the
    // suites' order, then the catalogue's.
    const checks = plan.suites.flatMap((suite) => {
      const { checks: catalogue, checkTimeoutMs } = SUITE_CHECKS[suite];
      return checkTimeoutMs ? catalogue.map((check) => ({ ...check, timeoutMs: checkTimeoutMs })) : catalogue;
    });
    results.push(
      ...(await runChecks(checks, {
        target,
        keyA,
        ...(keyB ? { keyB } : {}),
        timeoutMs: plan.timeoutMs,
        ...(plan.secretHeaderValues?.length ? { secrets: plan.secretHeaderValues } : {}),
        concurrency: plan.concurrency,
        workers: plan.workers,
        slots,
        rateGate: gate,
        seed: plan.seed,
        ...(plan.numRuns !== undefined ? { numRuns: plan.numRuns } : {}),
        only: plan.only,
        skip: plan.skip,
        bodies,
        sharedWork,
        ruleLedger,
        ...(events.onStart ? { onStart: events.onStart } : {}),
        ...(events.onAlone ? { onAlone: events.onAlone } : {}),
        ...(events.onAnnounce ? { onAnnounce: events.onAnnounce } : {}),
        ...(events.onResult ? { onResult: events.onResult } : {}),
      })),
    );
    for (const rule of ruleLedger.results()) {
      results.push(rule);
      events.onResult?.(rule);
    }
    const finished = report(results);
    return { exitCode: finished.summary.must_failed > 0 ? 1 : 0, report: finished, results, bodies, ...(await written(finished)) };
  } finally {
    await closeAtEnd?.close();
    await embedded?.stop();
  }
}

// `decision-conformance run`: wires a target, the suites and the reports together.
import type { CheckResult } from '../harness/check.ts';
import type { SharedWork, Target } from '../harness/context.ts';
import { KEY_VARIABLES, type BodyStore } from '../harness/http.ts';
import { runChecks } from '../harness/runner.ts';
import { buildRunReport } from '../reports/run-report.ts';
import { defaultReportDir, writeReports, type WrittenReports } from '../reports/write.ts';
import type { RunSettings } from './args.ts';
import { startEmbeddedTarget } from './embedded-target.ts';
import { createProgress, type ProgressOptions } from './progress.ts';
import { SUITE_CHECKS } from './suites.ts';
import { refusedKey, warmUp, type GivenKey } from './warmup.ts';

export interface RunOutcome {
  exitCode: 0 | 1 | 2;
  /** Why the run could not start (exit status 2), as one line. */
  error?: string;
  results: CheckResult[];
  reportPaths?: WrittenReports;
}

export async function runCommand(settings: RunSettings, output: Omit<ProgressOptions, 'quiet' | 'verbose'>): Promise<RunOutcome> {
  const progress = createProgress({ ...output, quiet: settings.quiet, verbose: settings.verbose });
  const embedded =
    settings.baseUrl === undefined ? await startEmbeddedTarget({ profile: settings.referenceProfile, choices: settings.referenceChoices }) : undefined;
  try {
    const baseUrl = embedded?.baseUrl ?? settings.baseUrl!;
    const keyA = embedded?.keyA ?? settings.keyA!;
    const keyB = embedded?.keyB ?? settings.keyB;
    const expiry = embedded ? { key: embedded.keyShortTtl, ttlMs: embedded.shortTtlMs } : settings.expiry;
    const secrets = [keyA, keyB, expiry?.key].filter((key): key is string => Boolean(key));
    const target: Target = {
      baseUrl,
      capabilities: new Set(settings.capabilities),
      hasSecondKey: keyB !== undefined,
      ...(expiry ? { shortTtl: expiry } : {}),
    };

    const choices = Object.entries(settings.referenceChoices)
      .map(([id, choice]) => `, ${id}=${choice}`)
      .join('');
    progress.line(`Decision Service conformance: ${embedded ? `the bundled reference server (${embedded.profile} profile${choices}) at ${baseUrl}` : baseUrl}`);
    progress.line(
      `seed ${settings.seed}; second project ${keyB ? 'given' : 'not given (isolation checks will be skipped)'}; capabilities ${settings.capabilities.join(', ') || 'none'}`,
    );

    const startedAt = new Date();
    const warmedUp = await warmUp(baseUrl, { key: keyA, role: 'project A', source: `--api-key or ${KEY_VARIABLES.a}` }, settings.warmupTimeoutMs);
    // Every other key is checked like key A, so that a wrong one is a usage error naming its flag.
    const otherKeys: GivenKey[] = [
      ...(keyB ? [{ key: keyB, role: 'project B', source: `--api-key-b or ${KEY_VARIABLES.b}` }] : []),
      ...(expiry ? [{ key: expiry.key, role: 'the short-lifetime project', source: `--expiry-api-key or ${KEY_VARIABLES.expiry}` }] : []),
    ];
    const refusal = warmedUp.ok ? await refusedKey(baseUrl, otherKeys, settings.timeoutMs) : undefined;
    const warmup = refusal ? { ...warmedUp, ok: false, message: refusal } : warmedUp;
    const bodies: BodyStore = new Map();
    const report = (results: CheckResult[]) =>
      buildRunReport({
        results,
        target: { ...target, embedded: embedded !== undefined },
        seed: settings.seed,
        suites: settings.suites,
        startedAt,
        finishedAt: new Date(),
        warmup: { durationMs: warmup.durationMs, ok: warmup.ok, ...(warmup.message ? { message: warmup.message } : {}) },
        secrets,
      });
    const reportDir = settings.reportDir ?? defaultReportDir(startedAt);
    if (!warmup.ok) {
      // CI still gets its reports, saying why nothing ran.
      const reportPaths = await writeReports(report([]), reportDir, bodies);
      return { exitCode: 2, results: [], error: warmup.message ?? `${baseUrl} did not answer`, reportPaths };
    }
    progress.line(`warm-up call answered in ${Math.round(warmup.durationMs)} ms (status ${warmup.status})`);

    const results: CheckResult[] = [];
    const sharedWork: SharedWork = new Map();
    for (const suite of settings.suites) {
      const { checks, checkTimeoutMs } = SUITE_CHECKS[suite];
      results.push(
        ...(await runChecks(checks, {
          target,
          keyA,
          ...(keyB ? { keyB } : {}),
          timeoutMs: settings.timeoutMs,
          concurrency: settings.concurrency,
          ...(checkTimeoutMs ? { checkTimeoutMs } : {}),
          seed: settings.seed,
          ...(settings.numRuns !== undefined ? { numRuns: settings.numRuns } : {}),
          only: settings.only,
          skip: settings.skip,
          bodies,
          sharedWork,
          onStart: (check) => progress.start(check),
          onAnnounce: (check, text) => progress.announce(check, text),
          onResult: (result) => progress.result(result),
        })),
      );
    }
    const finished = report(results);
    const reportPaths = await writeReports(finished, reportDir, bodies);
    const { summary } = finished;
    progress.line('');
    progress.line(
      `${summary.pass} passed, ${summary.fail} failed, ${summary.skip} skipped, ${summary.observed} observed` +
        ` (${summary.must_failed} MUST failed) in ${(finished.duration_ms / 1000).toFixed(1)} s`,
    );
    progress.line(`Reports: ${reportPaths.html}`);
    if (bodies.size > 0) progress.line(`Reproduce lines read request bodies from ${reportPaths.bodies}: run them from ${reportDir}`);
    return { exitCode: summary.must_failed > 0 ? 1 : 0, results, reportPaths };
  } finally {
    await embedded?.stop();
  }
}

// `decision-conformance run`: prints a run's progress and always writes its reports.
import { executeRun, type RunOutcome } from '../api/run.ts';
import { RESPONSE_RULES_AREA } from '../harness/response-rules/catalogue.ts';
import { summarize } from '../reports/run-report.ts';
import { defaultReportDir } from '../reports/write.ts';
import type { RunSettings } from './args.ts';
import { createProgress, type ProgressOptions } from './progress.ts';

export async function runCommand(settings: RunSettings, output: Omit<ProgressOptions, 'quiet' | 'verbose'>): Promise<RunOutcome> {
  const progress = createProgress({ ...output, quiet: settings.quiet, verbose: settings.verbose });
  const { quiet: _quiet, verbose: _verbose, reportDir, ...plan } = settings;
  const outcome = await executeRun(
    { ...plan, reportDir: reportDir ?? defaultReportDir },
    {
      line: (text) => progress.line(text),
      onStart: (check) => progress.start(check),
      onAnnounce: (check, text) => progress.announce(check, text),
      onResult: (result) => progress.result(result),
    },
  );
  if (outcome.exitCode === 2) return outcome;
  const { checks, duration_ms } = outcome.report;
  // The checks' figures, then the response rules' (both fail the run at MUST).
  const summary = summarize(checks.filter((check) => check.area !== RESPONSE_RULES_AREA));
  const rules = summarize(checks.filter((check) => check.area === RESPONSE_RULES_AREA));
  progress.line('');
  progress.line(
    `${summary.pass} passed, ${summary.fail} failed, ${summary.skip} skipped, ${summary.observed} observed` +
      ` (${summary.must_failed} MUST failed) in ${(duration_ms / 1000).toFixed(1)} s`,
  );
  progress.line(
    `Response rules: ${rules.pass + rules.observed} held or observed, ${rules.fail} broken (${rules.must_failed} MUST), ${rules.skip} judged no exchange of this run`,
  );
  progress.line(`Reports: ${outcome.reportPaths?.html}`);
  if (outcome.bodies.size > 0) progress.line(`Reproduce lines read request bodies from ${outcome.reportPaths?.bodies}: run them from ${outcome.reportDir}`);
  return outcome;
}

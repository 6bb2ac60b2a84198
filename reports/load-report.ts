// The run model of the performance leg: a load run (`load run`) and a cold-start run
// (`load cold-start`) are kinds of their own beside the conformance run, each with only the facts
// it has. A load run sends no checks of the conformance suites, takes no seed and no warm-up
// (it measures from its first request), so its results.json has none of those fields.
import { redactDeep } from '../harness/redaction.ts';
import type { ColdStartReport, LoadSection } from './load-run.ts';
import { runHead, runTimes, type RunBasics } from './run-basics.ts';

/** `decision-conformance load run`: repeats of one scenario against one server. */
export interface LoadRunReport extends RunBasics {
  kind: 'load';
  /** The server the scenario called, and the capabilities it was said to have (scenarios send nothing else). Keys are never part of a report. */
  target: { base_url: string; embedded: boolean; capabilities: string[] };
  load: LoadSection;
}

/** `decision-conformance load cold-start`: the bundled server spawned and timed, again and again. */
export interface ColdStartRunReport extends RunBasics {
  kind: 'cold-start';
  /** How the server was started, e.g. "npm run serve". */
  server: { command: string };
  cold_start: ColdStartReport;
}

export interface LoadRunFacts {
  target: { baseUrl: string; embedded: boolean; capabilities: readonly string[] };
  startedAt: Date;
  finishedAt: Date;
  load: LoadSection;
  /** Every key the run used: none of them reaches a report. */
  secrets: readonly string[];
}

export function buildLoadReport(facts: LoadRunFacts): LoadRunReport {
  const report: LoadRunReport = {
    ...runHead('load'),
    target: { base_url: facts.target.baseUrl, embedded: facts.target.embedded, capabilities: [...facts.target.capabilities] },
    ...runTimes(facts.startedAt, facts.finishedAt),
    load: facts.load,
  };
  return redactDeep(report, facts.secrets);
}

export function buildColdStartReport(facts: { command: string; startedAt: Date; finishedAt: Date; coldStart: ColdStartReport }): ColdStartRunReport {
  return { ...runHead('cold-start'), server: { command: facts.command }, ...runTimes(facts.startedAt, facts.finishedAt), cold_start: facts.coldStart };
}

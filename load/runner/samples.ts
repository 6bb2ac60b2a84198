// What the Node runner records while a scenario runs: one sample per request, check tallies,
// iteration counts. Turned into the shared load result by result.ts.

export interface RequestSample {
  name: string;
  /** Milliseconds from the run's start to the request's dispatch. */
  startedMs: number;
  durationMs: number;
  /** 0 for a transport error. */
  status: number;
}

export class SampleLog {
  readonly requests: RequestSample[] = [];
  readonly checks = new Map<string, { passes: number; fails: number }>();
  iterations = 0;
  droppedIterations = 0;

  recordChecks(results: Record<string, boolean>): void {
    for (const [name, ok] of Object.entries(results)) {
      const tally = this.checks.get(name) ?? { passes: 0, fails: 0 };
      if (ok) tally.passes++;
      else tally.fails++;
      this.checks.set(name, tally);
    }
  }
}

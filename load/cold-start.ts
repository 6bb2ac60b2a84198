// Cold start of the bundled reference server as a deployment starts it: a new process, timed from
// spawn to "listening" and to the first successful decision, against the seed's cold-start
// allowance (section 8: up to about 2 minutes). `load cold-start` reports it; `npm run bench:ref`
// holds the kit's own, far tighter target (bench/README.md).
import { request } from 'undici';
import type { ColdStartReport } from '../reports/load-run.ts';
import { coldStartAllowanceMs } from '../spec/index.ts';
import { median } from './compare.ts';
import { startKeyedServer } from './server-process.ts';
import { isSuccess } from '../harness/status.ts';

export interface ColdStart {
  listeningMs: number;
  firstDecideMs: number;
}

const DECIDE_BODY = JSON.stringify({
  context: 'I was charged twice and want a refund.',
  questions: { topic: { type: 'choice', options: { billing: 'Payments', shipping: 'Delivery' } } },
});

/**
 * One start of `command…` (REFERENCE_SERVER unless given, e.g. `npm run serve --`), then
 * decisions every 10 ms until one succeeds; the server is stopped after. A server that does not
 * listen, or decide, within the allowance fails with the reason.
 */
export async function coldStart(options: { command?: readonly [string, ...string[]]; body?: string; allowanceMs?: number } = {}): Promise<ColdStart> {
  const allowanceMs = options.allowanceMs ?? coldStartAllowanceMs;
  const server = await startKeyedServer({ command: options.command, startTimeoutMs: allowanceMs });
  try {
    for (;;) {
      const reply = await request(`${server.baseUrl}/v1/decide`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${server.key}` },
        body: options.body ?? DECIDE_BODY,
      }).catch(() => undefined);
      await reply?.body.dump();
      if (reply && isSuccess({ status: reply.statusCode })) return { listeningMs: server.listeningMs, firstDecideMs: server.sinceSpawn() };
      if (server.sinceSpawn() > allowanceMs) throw new Error(`no successful decide within ${allowanceMs} ms of the spawn`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    await server.stop();
  }
}

const round = (ms: number) => Math.round(ms * 10) / 10;
const spread = (values: number[]) => ({ median: round(median(values)), max: round(Math.max(...values)), values: values.map(round) });

/** `runs` cold starts of the reference server, one after another, as the load report records them. */
export async function coldStartReport(runs: number, output: (line: string) => void): Promise<ColdStartReport> {
  const samples: ColdStart[] = [];
  for (let run = 1; run <= runs; run++) {
    const sample = await coldStart();
    samples.push(sample);
    output(`spawn ${run}/${runs}: listening after ${round(sample.listeningMs)} ms, first successful decide after ${round(sample.firstDecideMs)} ms`);
  }
  const firstDecide = samples.map((sample) => sample.firstDecideMs);
  return {
    runs,
    allowance_ms: coldStartAllowanceMs,
    spawn_to_listening_ms: spread(samples.map((sample) => sample.listeningMs)),
    spawn_to_first_decide_ms: spread(firstDecide),
    within_allowance: firstDecide.every((ms) => ms <= coldStartAllowanceMs),
  };
}

// Benchmark of the property suite against the bundled reference server: for each property, the
// run time of its default budget, the cases it ran and cases per second (asset uploads for the
// pool and any shrinking included), then the whole suite's run time.
//   npx tsx load/bench/property-suite.ts [--seed N] [--num-runs N]
import { parseArgs } from 'node:util';
import { runnerTargetOf, startEmbeddedTarget } from '../../api/embedded-target.ts';
import type { CheckResult } from '../../harness/check.ts';
import { runCheck } from '../../harness/runner.ts';
import { propertyChecks } from '../../property/registry.ts';

const { values } = parseArgs({ options: { seed: { type: 'string' }, 'num-runs': { type: 'string' } } });
const seed = Number(values.seed ?? 1);
const numRuns = values['num-runs'] === undefined ? undefined : Number(values['num-runs']);

/** Cases a passing result reports in its notes ("N generated cases passed", "… N cases in all"). */
function casesOf(result: CheckResult): number | undefined {
  for (const text of result.notes) {
    const match = /(\d+) generated cases passed|(\d+) cases in all/.exec(text);
    if (match) return Number(match[1] ?? match[2]);
  }
  return undefined;
}

/** "failed at case 3 (…, 12 shrink steps)" for a failing result. */
function failureOf(result: CheckResult): string {
  const match = /failed at case (\d+) .*?(\d+) shrink steps/.exec(result.message ?? '');
  return match ? `failed at case ${match[1]}, then ${match[2]} shrink steps` : 'failed';
}

/** One upload of each heavy sample type and one decision, so that one-off start-up work (PDF reader, model session) is not timed. */
async function warmUp(baseUrl: string, key: string): Promise<void> {
  const { request } = await import('undici');
  const { sampleFor } = await import('../../harness/samples/media.ts');
  const headers = { authorization: `Bearer ${key}` };
  for (const mimeType of ['application/pdf', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'audio/ogg'] as const) {
    const reply = await request(`${baseUrl}/v1/assets`, { method: 'POST', headers: { ...headers, 'content-type': mimeType }, body: sampleFor(mimeType) });
    const id = ((await reply.body.json()) as { id?: string }).id;
    if (id) await (await request(`${baseUrl}/v1/assets/${id}`, { method: 'DELETE', headers })).body.dump();
  }
  const decide = await request(`${baseUrl}/v1/decide`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: '{"context":"Hello.","questions":{"q":{"type":"choice","options":{"a":"","b":""}}}}',
  });
  await decide.body.dump();
}

const target = await startEmbeddedTarget();
try {
  console.log(`Property suite against the bundled reference server (seed ${seed}, ${numRuns === undefined ? 'default budgets' : `--num-runs ${numRuns}`}):`);
  await warmUp(target.baseUrl, target.keyA);
  const started = performance.now();
  for (const check of propertyChecks) {
    const result = await runCheck(check, {
      ...runnerTargetOf(target),
      timeoutMs: 30_000,
      checkTimeoutMs: 300_000,
      seed,
      ...(numRuns !== undefined ? { numRuns } : {}),
    });
    const seconds = result.durationMs / 1000;
    const cases = casesOf(result);
    const requests = result.exchanges.length;
    const outcome =
      result.status === 'fail'
        ? failureOf(result)
        : cases !== undefined
          ? `${cases} cases, ${(cases / seconds).toFixed(0)} cases/s`
          : `${result.status}; cases not reported`;
    console.log(
      `  ${check.id.padEnd(22)} ${result.status.padEnd(5)} ${seconds.toFixed(2).padStart(6)} s  ${outcome}; ${requests} requests (${(requests / seconds).toFixed(0)}/s)`,
    );
  }
  console.log(`  whole property suite: ${((performance.now() - started) / 1000).toFixed(2)} s`);
} finally {
  await target.stop();
}

// `npm run bench:ref`: throughput and latency of the reference server's decide, against a bare
// Fastify route and the Prism static mock on the same request, and the scorer alone.
// Prints figures; asserts nothing (the machines are shared and noisy).
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPrismMock } from '../../mock/prism.ts';
import { createDecisionEngine } from '../decision/index.ts';
import { openLoop } from './open-loop.ts';
import { createReferenceServer } from '../server/app.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const CONNECTIONS = 8;
const KEY = 'svc_live_bench_project_key';
const root = fileURLToPath(new URL('../../', import.meta.url));

const context = 'I ordered a pair of running shoes three weeks ago. The parcel arrived yesterday, but the box was damaged and the left shoe is a different size from the right one. I was also charged twice on my credit card for the same order, and the second charge has not been refunded yet although I wrote to support twice. '
  .repeat(4)
  .slice(0, 1000);
const options = { billing: 'Payments, charges, refunds and invoices', shipping: 'Delivery, parcels and tracking', returns: 'Returns and exchanges of products', other: '' };
const body = JSON.stringify({ context, questions: { topic: { type: 'choice', options } } });

function startChild(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      if (url) resolve({ child, baseUrl: url });
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

interface Figures { rps: number; p50: number; p99: number; errors: number }

async function load(url: string, overallRate?: number): Promise<Figures> {
  const result = await autocannon({
    url: `${url}/v1/decide`,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
    body,
    connections: CONNECTIONS,
    duration: DURATION_S,
    ...(overallRate ? { overallRate } : {}),
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

async function scorerAlone(): Promise<{ median: number; p99: number }> {
  const engine = await createDecisionEngine();
  const questions = { topic: { type: 'choice' as const, options } };
  for (let i = 0; i < 200; i++) await engine.decide(context, questions);
  const times: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const start = process.hrtime.bigint();
    await engine.decide(context, questions);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  await engine.close();
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)]!, p99: times[Math.floor(times.length * 0.99)]! };
}

const fmt = (n: number, digits = 2) => n.toFixed(digits);

/** Time from nothing to a listening server, model build included (target: under 1 s). */
async function startupTime(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'decision-startup-'));
  const started = performance.now();
  const { app } = await createReferenceServer({ dataDir: dir, projects: [{ projectId: 'bench', keys: [KEY] }] });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const elapsed = performance.now() - started;
  await app.close();
  rmSync(dir, { recursive: true, force: true });
  return elapsed;
}

console.log(`start-up of the reference server (model built, store opened, listening): ${fmt(await startupTime(), 1)} ms`);
const scorer = await scorerAlone();
console.log(`scorer alone (engine.decide, 1,000 chars, 1 question, 4 options): median ${fmt(scorer.median, 3)} ms, p99 ${fmt(scorer.p99, 3)} ms`);

const dataDir = mkdtempSync(join(tmpdir(), 'decision-bench-'));
const reference = await startChild(['reference-impl/serve.ts', '--port', '0', '--data-dir', dataDir, '--keys', `bench=${KEY}`, '--rate-limit', '1000000', '--log-level', 'warn']);
const bare = await startChild(['reference-impl/bench/bare-fastify.ts']);
const prism = await startPrismMock({ errors: false });

try {
  const results: Record<string, Figures> = {};
  for (const [name, url] of [['reference server decide', reference.baseUrl], ['bare Fastify route', bare.baseUrl], ['Prism static mock', prism.baseUrl]] as const) {
    await load(url); // warm-up pass, discarded
    results[name] = await load(url);
    const r = results[name]!;
    console.log(`${name.padEnd(26)} ${fmt(r.rps, 0).padStart(7)} req/s   p50 ${fmt(r.p50)} ms   p99 ${fmt(r.p99)} ms   errors ${r.errors}`);
  }
  const ref = results['reference server decide']!;
  const halfRate = Math.floor(ref.rps / 2);
  // Latency is measured with only the reference server and the generator on the machine, after
  // a short warm-up pass at the same rate (JIT, pools, the scorer's option cache).
  await prism.stop();
  const openLoopAt = (url: string, durationS: number) =>
    openLoop({ url, path: '/v1/decide', headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` }, body, ratePerSecond: halfRate, durationS });
  await openLoopAt(reference.baseUrl, 2);
  const half = await openLoop({ url: reference.baseUrl, path: '/v1/decide', headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` }, body, ratePerSecond: halfRate, durationS: DURATION_S });
  console.log(`reference at half of max, open loop (${halfRate} req/s scheduled, ${fmt(half.achievedRate, 0)} achieved, ${half.errors} errors): p50 ${fmt(half.p50, 3)} ms, p99 ${fmt(half.p99, 3)} ms (target p99 <= 10 ms)`);
  // The same open loop against the bare route: the floor this machine and generator measure.
  await openLoopAt(bare.baseUrl, 2);
  const floor = await openLoopAt(bare.baseUrl, DURATION_S);
  console.log(`bare Fastify at the same rate, open loop (measurement floor): p50 ${fmt(floor.p50, 3)} ms, p99 ${fmt(floor.p99, 3)} ms`);
  console.log(`ratio reference / Prism static mock throughput: ${fmt(ref.rps / results['Prism static mock']!.rps)} (target >= 1)`);
  console.log(`ratio reference / bare Fastify throughput:      ${fmt(ref.rps / results['bare Fastify route']!.rps)}`);
} finally {
  reference.child.kill('SIGTERM');
  bare.child.kill('SIGTERM');
  await prism.stop().catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
}

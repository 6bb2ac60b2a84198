// `npm run bench:ref`: the bundled reference server against its performance targets, all measured
// in one run, each marked met or missed at the end:
//   - decide throughput at least 1.5 times the Prism static mock's on the same request;
//   - p99 latency at most 10 ms at 50 %, and at most 25 ms at 80 %, of the reference's max rate;
//   - spawn of `npm run serve` to the first successful decision at most 500 ms (median of N).
// Bare Fastify answering fixed JSON on the same request is measured too: the ceiling of this
// machine and generator. Every server runs as its own process, started as a deployment starts it.
// Figures depend on the machine and on what else runs on it: the script prints, it asserts nothing.
//   BENCH_DURATION_S (default 8) seconds per measurement; BENCH_SPAWNS (default 5) cold starts.
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPrismMock } from '../../mock/prism.ts';
import { coldStart, type ColdStart } from './cold-start.ts';
import { openLoop, openLoopPool, type OpenLoopResult } from './open-loop.ts';
import { startServerProcess } from './server-process.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const SPAWNS = Number(process.env.BENCH_SPAWNS ?? 5);
const CONNECTIONS = 8;
const WARM_UP_S = 2;
const KEY = 'svc_live_bench_project_key';

const TARGETS = {
  throughputOverPrism: 1.5,
  p99AtHalfMs: 10,
  p99AtEightyPercentMs: 25,
  firstDecideMedianMs: 500,
};

const context = 'I ordered a pair of running shoes three weeks ago. The parcel arrived yesterday, but the box was damaged and the left shoe is a different size from the right one. I was also charged twice on my credit card for the same order, and the second charge has not been refunded yet although I wrote to support twice. '
  .repeat(4)
  .slice(0, 1000);
const options = { billing: 'Payments, charges, refunds and invoices', shipping: 'Delivery, parcels and tracking', returns: 'Returns and exchanges of products', other: '' };
const body = JSON.stringify({ context, questions: { topic: { type: 'choice', options } } });
const headers = { 'content-type': 'application/json', authorization: `Bearer ${KEY}` };

const fmt = (n: number, digits = 2) => n.toFixed(digits);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
const progress = (text: string) => console.log(`… ${text}`);

interface Throughput { rps: number; p50: number; p99: number; errors: number }

async function closedLoop(url: string, durationS: number): Promise<Throughput> {
  const result = await autocannon({ url: `${url}/v1/decide`, method: 'POST', headers, body, connections: CONNECTIONS, duration: durationS });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

/** A warm-up pass (JIT, connection pools, caches), discarded, then the measured pass. */
async function throughputOf(name: string, url: string): Promise<Throughput> {
  progress(`${name}: ${WARM_UP_S} s warm-up, then ${DURATION_S} s closed loop with ${CONNECTIONS} connections`);
  await closedLoop(url, WARM_UP_S);
  const figures = await closedLoop(url, DURATION_S);
  console.log(`  ${name.padEnd(28)} ${fmt(figures.rps, 0).padStart(7)} req/s   p50 ${fmt(figures.p50)} ms   p99 ${fmt(figures.p99)} ms   errors ${figures.errors}`);
  return figures;
}

async function latencyAt(name: string, url: string, ratePerSecond: number): Promise<OpenLoopResult> {
  progress(`${name}: open loop at ${ratePerSecond} req/s, ${WARM_UP_S} s warm-up then ${DURATION_S} s`);
  // The warm-up's connections carry the measurement too: none is opened while it runs.
  const pool = openLoopPool(url);
  const at = (durationS: number) => openLoop({ url, path: '/v1/decide', headers, body, ratePerSecond, durationS, pool });
  await at(WARM_UP_S);
  const result = await at(DURATION_S);
  await pool.close();
  console.log(`  ${name.padEnd(28)} ${ratePerSecond} req/s scheduled, ${fmt(result.achievedRate, 0)} achieved, ${result.errors} errors: p50 ${fmt(result.p50, 3)} ms, p99 ${fmt(result.p99, 3)} ms`);
  return result;
}

async function coldStarts(name: string, command: string, args: string[]): Promise<ColdStart[]> {
  progress(`${name}: ${SPAWNS} spawns, each to its first successful decision`);
  const runs: ColdStart[] = [];
  for (let i = 0; i < SPAWNS; i++) runs.push(await coldStart(command, args, { key: KEY, body }));
  const listening = runs.map((run) => run.listeningMs);
  const decided = runs.map((run) => run.firstDecideMs);
  console.log(`  ${name.padEnd(28)} spawn → listening median ${fmt(median(listening), 0)} ms (max ${fmt(Math.max(...listening), 0)}), spawn → first decide median ${fmt(median(decided), 0)} ms (max ${fmt(Math.max(...decided), 0)})`);
  return runs;
}

console.log(`Reference server benchmark: decide with a 1,000-character context and 1 choice question of 4 options; ${DURATION_S} s per measurement.`);
console.log('Cold start (a new process per spawn; the first start after a source change also bundles, see reference-impl/start.mjs):');
const viaNpm = await coldStarts('npm run serve', 'npm', ['run', '--silent', 'serve', '--']);
// The command `npm run serve` runs, without npm's own start: what a container's entry point runs.
const viaNode = await coldStarts('node reference-impl/start.mjs', process.execPath, ['reference-impl/start.mjs']);

console.log('Throughput, closed loop:');
const dataDir = mkdtempSync(join(tmpdir(), 'decision-bench-'));
const reference = await startServerProcess(process.execPath, ['reference-impl/start.mjs', '--port', '0', '--data-dir', dataDir, '--keys', `bench=${KEY}`, '--rate-limit', '1000000', '--log-level', 'warn']);
const bare = await startServerProcess(process.execPath, ['--import', 'tsx', 'load/bench/bare-fastify.ts']);
try {
  const referenceThroughput = await throughputOf('reference server decide', reference.baseUrl);
  const bareThroughput = await throughputOf('bare Fastify route', bare.baseUrl);
  progress('starting the Prism static mock');
  const prism = await startPrismMock({ errors: false });
  let prismThroughput: Throughput;
  try {
    prismThroughput = await throughputOf('Prism static mock', prism.baseUrl);
  } finally {
    // Latency is measured with only the server under test and the generator on the machine.
    await prism.stop();
  }

  console.log("Latency, open loop at fractions of the reference's max rate:");
  const half = Math.floor(referenceThroughput.rps * 0.5);
  const eighty = Math.floor(referenceThroughput.rps * 0.8);
  const atHalf = await latencyAt('reference at 50 %', reference.baseUrl, half);
  const atEighty = await latencyAt('reference at 80 %', reference.baseUrl, eighty);
  // The same open loop against bare Fastify: the floor this machine and generator can resolve.
  // When the floor's own p99 is above a target, the machine is too busy to judge that target.
  const floorAtHalf = await latencyAt('bare Fastify at the 50 % rate', bare.baseUrl, half);
  const floorAtEighty = await latencyAt('bare Fastify at the 80 % rate', bare.baseUrl, eighty);

  const ratio = referenceThroughput.rps / prismThroughput.rps;
  const firstDecide = median(viaNpm.map((run) => run.firstDecideMs));
  const firstDecideViaNode = median(viaNode.map((run) => run.firstDecideMs));
  console.log(`Ratios: reference / Prism static mock ${fmt(ratio)}; reference / bare Fastify ${fmt(referenceThroughput.rps / bareThroughput.rps)}`);
  console.log('Targets:');
  const verdict = (met: boolean) => (met ? 'MET   ' : 'MISSED');
  console.log(`  ${verdict(ratio >= TARGETS.throughputOverPrism)} decide throughput >= ${TARGETS.throughputOverPrism}x the Prism static mock: ${fmt(ratio)}x (${fmt(referenceThroughput.rps, 0)} vs ${fmt(prismThroughput.rps, 0)} req/s)`);
  const floorNote = (floor: OpenLoopResult, target: number) =>
    `bare Fastify floor p99 ${fmt(floor.p99, 3)} ms${floor.p99 > target ? ': the machine is too busy to resolve this target now' : ''}`;
  console.log(`  ${verdict(atHalf.p99 <= TARGETS.p99AtHalfMs && atHalf.errors === 0)} p99 <= ${TARGETS.p99AtHalfMs} ms at 50 % of max (${half} req/s): ${fmt(atHalf.p99, 3)} ms, ${atHalf.errors} errors (${floorNote(floorAtHalf, TARGETS.p99AtHalfMs)})`);
  console.log(`  ${verdict(atEighty.p99 <= TARGETS.p99AtEightyPercentMs && atEighty.errors === 0)} p99 <= ${TARGETS.p99AtEightyPercentMs} ms at 80 % of max (${eighty} req/s): ${fmt(atEighty.p99, 3)} ms, ${atEighty.errors} errors (${floorNote(floorAtEighty, TARGETS.p99AtEightyPercentMs)})`);
  console.log(`  ${verdict(firstDecide <= TARGETS.firstDecideMedianMs)} spawn of npm run serve → first decide <= ${TARGETS.firstDecideMedianMs} ms (median of ${SPAWNS}): ${fmt(firstDecide, 0)} ms`);
  console.log(`  ${verdict(firstDecideViaNode <= TARGETS.firstDecideMedianMs)} spawn of node reference-impl/start.mjs → first decide <= ${TARGETS.firstDecideMedianMs} ms (median of ${SPAWNS}; npm's own start is the difference): ${fmt(firstDecideViaNode, 0)} ms`);
} finally {
  await Promise.all([reference.stop(), bare.stop()]);
  rmSync(dataDir, { recursive: true, force: true });
}

// `npm run bench:ref`: the bundled reference server against its performance targets, all measured
// in one run, each marked met or missed at the end:
//   - decide throughput at least 1.5 times the Prism static mock's on the same request, judged on
//     the median of per-round ratios (the servers take turns, round after round);
//   - p99 latency at most 10 ms at 50 %, and at most 25 ms at 80 %, of the reference's max rate:
//     the median p99 of short rounds that each measure the max afresh before sending;
//   - spawn of `npm run serve` to the first successful decision at most 500 ms (median of N).
// Bare Fastify answering fixed JSON on the same request is measured too: the ceiling of this
// machine and generator. Every server runs as its own process, started as a deployment starts it.
// Figures depend on the machine and on what else runs on it: the script prints, it asserts nothing.
//   BENCH_DURATION_S (default 6) seconds per throughput measurement; BENCH_ROUNDS (default 3)
//   throughput rounds; BENCH_LATENCY_ROUNDS (default 5) latency rounds of 4 s per rate;
//   BENCH_SPAWNS (default 5) cold starts. Each latency round ends by measuring the max again, and
//   prints how busy the server's main thread was (Linux): both explain a round, neither judges it.
import autocannon from 'autocannon';
import { startPrismMock } from '../../mock/prism.ts';
import { apiKeyPrefix } from '../../spec/index.ts';
import { coldStart, type ColdStart } from '../cold-start.ts';
import { nodeStartCost } from './node-start-cost.ts';
import { cpuCounters } from '../process-usage.ts';
import { stealShare } from './machine.ts';
import { openLoop, openLoopPool, pooledPercentile, type OpenLoopResult } from './open-loop.ts';
import { REFERENCE_SERVER, startKeyedServer, startServerProcess, type ServerProcess } from '../server-process.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
// Latency rounds are short, so that the machine's speed changes little within one.
const LATENCY_ROUNDS = Number(process.env.BENCH_LATENCY_ROUNDS ?? 5);
const LATENCY_S = 4;
const LATENCY_WARM_UP_S = 1;
const SPAWNS = Number(process.env.BENCH_SPAWNS ?? 5);
const CONNECTIONS = 8;
const WARM_UP_S = 2;
const KEY = `${apiKeyPrefix}bench_project_key`;

const TARGETS = {
  throughputOverPrism: 1.5,
  p99AtHalfMs: 10,
  p99AtEightyPercentMs: 25,
  firstDecideMedianMs: 500,
};

const context =
  'I ordered a pair of running shoes three weeks ago. The parcel arrived yesterday, but the box was damaged and the left shoe is a different size from the right one. I was also charged twice on my credit card for the same order, and the second charge has not been refunded yet although I wrote to support twice. '
    .repeat(4)
    .slice(0, 1000);
const options = {
  billing: 'Payments, charges, refunds and invoices',
  shipping: 'Delivery, parcels and tracking',
  returns: 'Returns and exchanges of products',
  other: '',
};
const body = JSON.stringify({ context, questions: { topic: { type: 'choice', options } } });
const headers = { 'content-type': 'application/json', authorization: `Bearer ${KEY}` };

const fmt = (n: number, digits = 2) => n.toFixed(digits);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
const progress = (text: string) => console.log(`… ${text}`);

interface Throughput {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function closedLoop(url: string, durationS: number): Promise<Throughput> {
  const result = await autocannon({ url: `${url}/v1/decide`, method: 'POST', headers, body, connections: CONNECTIONS, duration: durationS });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

interface Contender {
  name: string;
  url: string;
  rounds: Throughput[];
}

/**
 * Closed-loop throughput of several servers, measured in turns: after a warm-up pass each (JIT,
 * connection pools, caches; discarded), every round measures each server once, in an order that
 * rotates from round to round. On a shared machine whose speed drifts by tens of percent within
 * minutes, servers measured one after the other would be compared at different speeds; taking
 * turns puts the drift on all of them alike, and a ratio is judged per round.
 */
async function throughputRounds(servers: Array<{ name: string; url: string }>): Promise<Contender[]> {
  const contenders: Contender[] = servers.map((server) => ({ ...server, rounds: [] }));
  for (const contender of contenders) {
    progress(`${contender.name}: ${WARM_UP_S} s warm-up`);
    await closedLoop(contender.url, WARM_UP_S);
  }
  for (let round = 0; round < ROUNDS; round++) {
    progress(`round ${round + 1} of ${ROUNDS}: ${DURATION_S} s closed loop with ${CONNECTIONS} connections per server`);
    for (let turn = 0; turn < contenders.length; turn++) {
      const contender = contenders[(round + turn) % contenders.length]!;
      const figures = await closedLoop(contender.url, DURATION_S);
      contender.rounds.push(figures);
      console.log(
        `  ${contender.name.padEnd(28)} ${fmt(figures.rps, 0).padStart(7)} req/s   p50 ${fmt(figures.p50)} ms   p99 ${fmt(figures.p99)} ms   errors ${figures.errors}`,
      );
    }
  }
  return contenders;
}

/** The round of median throughput. */
function medianRound(contender: Contender): Throughput {
  const sorted = [...contender.rounds].sort((a, b) => a.rps - b.rps);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** a / b in each round, the same round for both. */
const roundRatios = (a: Contender, b: Contender): number[] => a.rounds.map((round, index) => round.rps / b.rounds[index]!.rps);

/** An open loop's figures, with the server's main-thread and the host's shares of the time when known. */
interface LatencyMeasurement extends OpenLoopResult {
  /** Share (0–1) of the wall time the server's main thread was running. */
  busy?: number;
  /** Share (0–1) of this machine's CPU time its host took (machine.ts). */
  steal?: number;
}

const percent = (share: number | undefined) => (share === undefined ? 'n/a' : `${fmt(100 * share, 1)} %`);

/**
 * An open loop at a fixed rate after a warm-up at the same rate. With the server's process at
 * hand, also how busy its main thread was while measured: at a given fraction of the max, that
 * share says how much headroom the server really had (an open loop batches less than the closed
 * loop that measured the max, and the machine's speed may have changed since). And how much of
 * the machine's CPU its host took meanwhile.
 */
async function latencyAt(
  name: string,
  url: string,
  ratePerSecond: number,
  warmUpS = WARM_UP_S,
  durationS = DURATION_S,
  server?: ServerProcess,
): Promise<LatencyMeasurement> {
  progress(`${name}: open loop at ${ratePerSecond} req/s, ${warmUpS} s warm-up then ${durationS} s`);
  // The warm-up's connections carry the measurement too: none is opened while it runs.
  const pool = openLoopPool(url);
  const at = (seconds: number) => openLoop({ url, path: '/v1/decide', headers, body, ratePerSecond, durationS: seconds, pool });
  await at(warmUpS);
  const cpuBefore = server?.mainThreadCpuMs();
  const machineBefore = cpuCounters();
  const started = performance.now();
  const result = await at(durationS);
  const cpuAfter = server?.mainThreadCpuMs();
  const steal = stealShare(machineBefore, cpuCounters());
  const busy = cpuBefore !== undefined && cpuAfter !== undefined ? (cpuAfter - cpuBefore) / (performance.now() - started) : undefined;
  await pool.close();
  const shares = `${busy === undefined ? '' : `, server main thread busy ${percent(busy)}`}${steal === undefined ? '' : `, host steal ${percent(steal)}`}`;
  console.log(
    `  ${name.padEnd(28)} ${ratePerSecond} req/s scheduled, ${fmt(result.achievedRate, 0)} achieved, ${result.errors} errors: p50 ${fmt(result.p50, 3)} ms, p99 ${fmt(result.p99, 3)} ms${shares}`,
  );
  return { ...result, ...(busy === undefined ? {} : { busy }), ...(steal === undefined ? {} : { steal }) };
}

interface LatencyRound {
  maxRps: number;
  /** The max measured again after the round: how far the machine's speed moved while it ran. */
  maxAfterRps: number;
  atHalf: LatencyMeasurement;
  atEighty: LatencyMeasurement;
}

async function latencyRounds(server: ServerProcess): Promise<LatencyRound[]> {
  const rounds: LatencyRound[] = [];
  const maxNow = async (when: string) => {
    const rps = (await closedLoop(server.baseUrl, LATENCY_S)).rps;
    console.log(`  reference max ${when.padEnd(17)}${fmt(rps, 0).padStart(7)} req/s`);
    return rps;
  };
  for (let round = 0; round < LATENCY_ROUNDS; round++) {
    progress(`latency round ${round + 1} of ${LATENCY_ROUNDS}: the reference's max rate now, ${LATENCY_S} s closed loop`);
    const maxRps = await maxNow('now');
    const atHalf = await latencyAt('reference at 50 %', server.baseUrl, Math.floor(maxRps * 0.5), LATENCY_WARM_UP_S, LATENCY_S, server);
    const atEighty = await latencyAt('reference at 80 %', server.baseUrl, Math.floor(maxRps * 0.8), LATENCY_WARM_UP_S, LATENCY_S, server);
    const maxAfterRps = await maxNow('after the round');
    rounds.push({ maxRps, maxAfterRps, atHalf, atEighty });
  }
  return rounds;
}

async function coldStarts(name: string, command: readonly [string, ...string[]]): Promise<ColdStart[]> {
  progress(`${name}: ${SPAWNS} spawns, each to its first successful decision`);
  const runs: ColdStart[] = [];
  for (let i = 0; i < SPAWNS; i++) runs.push(await coldStart({ command, body }));
  const listening = runs.map((run) => run.listeningMs);
  const decided = runs.map((run) => run.firstDecideMs);
  console.log(
    `  ${name.padEnd(28)} spawn → listening median ${fmt(median(listening), 0)} ms (max ${fmt(Math.max(...listening), 0)}), spawn → first decide median ${fmt(median(decided), 0)} ms (max ${fmt(Math.max(...decided), 0)})`,
  );
  return runs;
}

console.log(`Reference server benchmark: decide with a 1,000-character context and 1 choice question of 4 options; ${DURATION_S} s per measurement.`);
console.log('Cold start (a new process per spawn; the first start after a source change also bundles, see reference-impl/start.mjs):');
// Variables of this environment that every Node start pays for: their cost is printed, not removed.
const startTaxes = ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS'].filter((name) => process.env[name]);
if (startTaxes.length > 0) {
  const cost = nodeStartCost(startTaxes);
  console.log(
    `  this environment sets ${startTaxes.join(', ')}: node -e '' takes ${fmt(cost.asIs, 0)} ms with it, ${fmt(cost.without, 0)} ms without (median of 5); npm run serve starts Node twice`,
  );
}
const viaNpm = await coldStarts('npm run serve', ['npm', 'run', '--silent', 'serve', '--']);
// The command `npm run serve` runs, without npm's own start: what a container's entry point runs.
const viaNode = await coldStarts('node reference-impl/start.mjs', REFERENCE_SERVER);

console.log(`Throughput, closed loop, ${ROUNDS} rounds in which the servers take turns:`);
const reference = await startKeyedServer({ key: KEY, serverOptions: ['--rate-limit', '1000000'] });
const bare = await startServerProcess(process.execPath, ['--import', 'tsx', 'load/bench/bare-fastify.ts']);
try {
  progress('starting the Prism static mock');
  const prism = await startPrismMock({ errors: false });
  let contenders: Contender[];
  try {
    contenders = await throughputRounds([
      { name: 'reference server decide', url: reference.baseUrl },
      { name: 'Prism static mock', url: prism.baseUrl },
      { name: 'bare Fastify route', url: bare.baseUrl },
    ]);
  } finally {
    // Latency is measured with only the server under test and the generator on the machine.
    await prism.stop();
  }
  const [referenceRounds, prismRounds, bareRounds] = contenders;
  const referenceThroughput = medianRound(referenceRounds!);
  const prismThroughput = medianRound(prismRounds!);
  const ratios = roundRatios(referenceRounds!, prismRounds!);

  console.log(`Latency, open loop at fractions of the reference's max rate, ${LATENCY_ROUNDS} rounds, each measuring that max afresh:`);
  // The machine's speed drifts: a rate set from a max measured minutes earlier can be 95 % of what
  // the server manages by the time it is sent. Each short round measures the max first, then sends
  // 50 % and 80 % of it; the verdict takes the median of the rounds' p99 (medians of several
  // short runs, not one noisy number), and the p99 of all their requests together is printed too.
  const rounds = await latencyRounds(reference);
  const summary = (pick: (round: LatencyRound) => LatencyMeasurement) => ({
    p99: median(rounds.map((round) => pick(round).p99)),
    pooledP99: pooledPercentile(rounds.map(pick), 0.99),
    errors: rounds.reduce((total, round) => total + pick(round).errors, 0),
  });
  const atHalf = summary((round) => round.atHalf);
  const atEighty = summary((round) => round.atEighty);
  const medianMax = median(rounds.map((round) => round.maxRps));
  const half = Math.floor(medianMax * 0.5);
  const eighty = Math.floor(medianMax * 0.8);
  // The same open loop against bare Fastify: the floor this machine and generator can resolve.
  // When the floor's own p99 is above a target, the machine is too busy to judge that target.
  const floorAtHalf = await latencyAt('bare Fastify at the median 50 % rate', bare.baseUrl, half);
  const floorAtEighty = await latencyAt('bare Fastify at the median 80 % rate', bare.baseUrl, eighty);

  const ratio = median(ratios);
  const firstDecide = median(viaNpm.map((run) => run.firstDecideMs));
  const firstDecideViaNode = median(viaNode.map((run) => run.firstDecideMs));
  console.log(
    `Ratios, median of the rounds: reference / Prism static mock ${fmt(ratio)} (rounds ${ratios.map((value) => fmt(value)).join(', ')}); reference / bare Fastify ${fmt(median(roundRatios(referenceRounds!, bareRounds!)))}`,
  );
  console.log('Targets:');
  const verdict = (met: boolean) => (met ? 'MET   ' : 'MISSED');
  console.log(
    `  ${verdict(ratio >= TARGETS.throughputOverPrism)} decide throughput >= ${TARGETS.throughputOverPrism}x the Prism static mock: ${fmt(ratio)}x, median of ${ROUNDS} rounds (median throughputs ${fmt(referenceThroughput.rps, 0)} vs ${fmt(prismThroughput.rps, 0)} req/s)`,
  );
  const floorNote = (floor: OpenLoopResult, target: number) =>
    `bare Fastify floor p99 ${fmt(floor.p99, 3)} ms${floor.p99 > target ? ': the machine is too busy to resolve this target now' : ''}`;
  /** One figure of each round's measurement at a rate, as a list. */
  const perRound = (pick: (round: LatencyRound) => LatencyMeasurement, show: (measured: LatencyMeasurement) => string = (measured) => fmt(measured.p99, 1)) =>
    rounds.map((round) => show(pick(round))).join(', ');
  const atBothRates = (show: (measured: LatencyMeasurement) => string) =>
    `at 50 %: ${perRound((round) => round.atHalf, show)}; at 80 %: ${perRound((round) => round.atEighty, show)}`;
  console.log(
    `  ${verdict(atHalf.p99 <= TARGETS.p99AtHalfMs && atHalf.errors === 0)} p99 <= ${TARGETS.p99AtHalfMs} ms at 50 % of max (median rate ${half} req/s): median p99 ${fmt(atHalf.p99, 3)} ms of ${LATENCY_ROUNDS} rounds (rounds ${perRound((round) => round.atHalf)}; all requests together ${fmt(atHalf.pooledP99, 1)}), ${atHalf.errors} errors (${floorNote(floorAtHalf, TARGETS.p99AtHalfMs)})`,
  );
  console.log(
    `  ${verdict(atEighty.p99 <= TARGETS.p99AtEightyPercentMs && atEighty.errors === 0)} p99 <= ${TARGETS.p99AtEightyPercentMs} ms at 80 % of max (median rate ${eighty} req/s): median p99 ${fmt(atEighty.p99, 3)} ms of ${LATENCY_ROUNDS} rounds (rounds ${perRound((round) => round.atEighty)}; all requests together ${fmt(atEighty.pooledP99, 1)}), ${atEighty.errors} errors (${floorNote(floorAtEighty, TARGETS.p99AtEightyPercentMs)})`,
  );
  console.log(
    `  ${verdict(firstDecide <= TARGETS.firstDecideMedianMs)} spawn of npm run serve → first decide <= ${TARGETS.firstDecideMedianMs} ms (median of ${SPAWNS}): ${fmt(firstDecide, 0)} ms`,
  );
  console.log(
    `  ${verdict(firstDecideViaNode <= TARGETS.firstDecideMedianMs)} spawn of node reference-impl/start.mjs → first decide <= ${TARGETS.firstDecideMedianMs} ms (median of ${SPAWNS}; npm's own start is the difference): ${fmt(firstDecideViaNode, 0)} ms`,
  );
  // Informative only, never part of a verdict: what the machine did while the latency rounds ran.
  // The max measured again after each round shows whether the rate sent was still about the
  // fraction it was meant to be; steal is the CPU time the host gave to other guests.
  const steady = rounds.filter((round) => Math.abs(round.maxAfterRps / round.maxRps - 1) <= 0.15).length;
  const moved = rounds
    .map((round) => `${round.maxAfterRps >= round.maxRps ? '+' : ''}${fmt((100 * (round.maxAfterRps - round.maxRps)) / round.maxRps, 0)} %`)
    .join(', ');
  console.log('Conditions of the latency rounds (they explain a round, they judge nothing):');
  console.log(`  the max moved by ${moved} from before to after each round (${steady} of ${rounds.length} within 15 %)`);
  // Where /proc is missing (not Linux), neither figure exists and neither line is printed.
  if (rounds.some((round) => round.atHalf.steal !== undefined))
    console.log(`  host steal while measuring ${atBothRates((measured) => percent(measured.steal))}`);
  // An open loop batches less, and runs on caches cooled by every idle moment: at a fraction of
  // the closed-loop max, the server's main thread is busier than that fraction.
  if (rounds.some((round) => round.atHalf.busy !== undefined)) console.log(`  server main thread busy ${atBothRates((measured) => percent(measured.busy))}`);
} finally {
  await Promise.all([reference.stop(), bare.stop()]);
}

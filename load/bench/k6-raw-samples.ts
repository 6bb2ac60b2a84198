// Benchmark (not a test): what writing k6's raw samples costs the generator. `load run` has k6
// write every request's duration (--out csv, gzip) so that the kit computes k6's percentiles as
// it computes the Node runner's; this measures k6's decide-capacity rate with and without that
// output, against a bare Fastify route in a process of its own, in alternating rounds.
// Run: npx tsx load/bench/k6-raw-samples.ts [--duration S --vus N --rounds N]
import { parseArgs } from 'node:util';
import { median } from '../compare.ts';
import { findK6, runWithK6 } from '../k6.ts';
import { startServerProcess } from '../server-process.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '4' },
    vus: { type: 'string', default: '16' },
    rounds: { type: 'string', default: '5' },
    k6: { type: 'string' },
  },
});
const k6 = findK6(values.k6, process.env);
if (!k6) throw new Error('no k6 found (--k6, K6_BIN, PATH)');
const bare = await startServerProcess(process.execPath, ['--import', 'tsx', 'load/bench/bare-fastify.ts']);
const settings = { BASE_URL: bare.baseUrl, API_KEY: 'svc_live_bench', VUS: values.vus, DURATION: values.duration, RUN_ID: 'bench' };
const rates = { with: [] as number[], without: [] as number[] };
try {
  process.stdout.write(
    `k6 decide-capacity against a bare Fastify route at ${bare.baseUrl}; ${values.vus} VUs, ${values.duration} s per measurement, ${values.rounds} rounds\n`,
  );
  for (let round = 1; round <= Number(values.rounds); round++) {
    // Alternating which goes first, so that neither side always runs on a warmer (or busier) machine.
    const order = round % 2 === 1 ? (['with', 'without'] as const) : (['without', 'with'] as const);
    for (const side of order)
      rates[side].push((await runWithK6(k6.path, 'decide-capacity', settings, undefined, { rawSamples: side === 'with' })).throughput_rps);
    process.stdout.write(`round ${round}: with raw samples ${Math.round(rates.with.at(-1)!)} req/s, without ${Math.round(rates.without.at(-1)!)} req/s\n`);
  }
  const ratio = median(rates.with) / median(rates.without);
  process.stdout.write(
    `medians: with raw samples ${Math.round(median(rates.with))} req/s, without ${Math.round(median(rates.without))} req/s: ${(ratio * 100).toFixed(0)} % of k6's rate without them\n`,
  );
} finally {
  await bare.stop();
}

// Benchmark (not a test): is the generator the limit? A capacity scenario (decide-capacity, a
// closed loop) against the reference server in a process of its own, by k6 and by the kit's Node
// runner, in alternating rounds: each run's rate, its generator verdict (load/generator-health.ts)
// and the CPU both sides used, the server's read from /proc as `load run --server-pid` reads it.
// Run: npm run bench:generator-bound [-- --duration S --vus N --rounds N --k6 PATH]
import { parseArgs } from 'node:util';
import type { LoadRun } from '../../reports/load-run.ts';
import { healthLine } from '../../reports/load-section.ts';
import { median } from '../compare.ts';
import { findK6 } from '../k6.ts';
import { runOnce, warmUp } from '../run.ts';
import { startKeyedServer } from '../server-process.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '8' },
    vus: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '3' },
    k6: { type: 'string' },
  },
});
const k6 = findK6(values.k6, process.env);
if (!k6) throw new Error('no k6 found (--k6, K6_BIN, PATH)');
const server = await startKeyedServer({ serverOptions: ['--rate-limit', '1000000/1000000'] });
const settings = { BASE_URL: server.baseUrl, API_KEY: server.key, VUS: values.vus, DURATION: values.duration };
const serverCpu = { source: 'reference server process', cpuMs: () => server.processCpuMs() };
const results: Record<'k6' | 'node', LoadRun[]> = { k6: [], node: [] };
try {
  await warmUp('decide-capacity', settings);
  process.stdout.write(
    `decide-capacity against the reference server (its own process) at ${server.baseUrl}; ${values.vus} VUs, ${values.duration} s a run, ${values.rounds} rounds\n`,
  );
  for (let round = 1; round <= Number(values.rounds); round++) {
    const order = round % 2 === 1 ? (['k6', 'node'] as const) : (['node', 'k6'] as const);
    for (const generator of order) {
      const run = await runOnce({ scenario: 'decide-capacity', settings, ...(generator === 'k6' ? { k6 } : {}), serverCpu, tag: `${generator}${round}` });
      results[generator].push(run);
      process.stdout.write(
        `round ${round} ${generator.padEnd(4)}: ${run.throughput_rps} decides/s, p50 ${run.latency.all?.p50_ms} ms; ${healthLine(run.generator_health!)}\n`,
      );
    }
  }
  const summary = (generator: 'k6' | 'node') => {
    const runs = results[generator];
    const bound = runs.filter((run) => run.generator_health?.bound).length;
    const serverCores = median(runs.map((run) => run.generator_health?.server_cpu?.cores ?? 0));
    const generatorCores = median(runs.map((run) => run.generator_health?.generator_cpu?.cores ?? 0));
    return `${generator} median ${Math.round(median(runs.map((run) => run.throughput_rps)))} decides/s, generator ${generatorCores} cores, server ${serverCores} cores, generator-bound in ${bound} of ${runs.length}`;
  };
  process.stdout.write(`${summary('k6')}; ${summary('node')}\n`);
} finally {
  await server.stop();
}

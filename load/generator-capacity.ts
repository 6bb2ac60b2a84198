// Benchmark (not a test): what each load generator can drive on this machine against a bare
// Fastify route answering a fixed decision, in a process of its own, so that the generator is
// never mistaken for the server's limit. The kit's Node runner must reach 80 % of autocannon.
// Run: npm run bench:load-generators [-- --duration S --connections N]
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { median } from './compare.ts';
import { findK6, runWithK6 } from './k6.ts';
import { loadDefinition } from './runner/definition.ts';
import { runWithNode } from './runner/run-scenario.ts';

const RUNNER_TARGET = 0.8;
const root = fileURLToPath(new URL('../', import.meta.url));

const BARE_ROUTE = `
import Fastify from 'fastify';
const app = Fastify();
const fixed = { model: 'svc-one-v1', answers: { topic: { type: 'choice', choice: 'billing', confidence: 0.5, probabilities: { billing: 0.75, shipping: 0.25 }, abstain: false, abstention_status: 'advisory' } }, usage: { input_tokens: 10 } };
app.post('/v1/decide', async (request, reply) => { reply.header('x-request-id', request.headers['x-request-id'] ?? 'req_0'); return fixed; });
console.log('listening on ' + await app.listen({ port: 0, host: '127.0.0.1' }));
`;

async function startBareRoute(): Promise<{ baseUrl: string; stop(): void }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', BARE_ROUTE], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      const match = /listening on (\S+)/.exec(text);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the bare route exited with ${code}`)));
  });
  return { baseUrl, stop: () => child.kill('SIGTERM') };
}

const { values } = parseArgs({ options: { duration: { type: 'string', default: '4' }, connections: { type: 'string', default: '16' }, rounds: { type: 'string', default: '3' }, k6: { type: 'string' } } });
const durationS = Number(values.duration);
const connections = Number(values.connections);
const rounds = Number(values.rounds);
const bare = await startBareRoute();
const settings = { BASE_URL: bare.baseUrl, API_KEY: 'svc_live_bench', VUS: String(connections), DURATION: String(durationS), RUN_ID: 'bench' };
// autocannon sends the very requests the scenario sends (same bodies, same headers, in turn),
// taken from the scenario's own iterations, so the bare route does the same work for both
// generators and only the generators differ.
const definition = await loadDefinition('decide-capacity', settings);
const scenarioRequests: Array<{ method: 'POST'; path: string; headers: Record<string, string>; body: string }> = [];
for (let index = 0; index < 64; index++) {
  await definition.iteration(index, {
    async send(request) {
      scenarioRequests.push({ method: 'POST', path: request.path, headers: request.headers ?? {}, body: request.body as string });
      return { status: 200, headers: {}, body: '' };
    },
    pause: async () => {},
  });
}
const k6 = findK6(values.k6, process.env);

// The generators take turns, round after round, and the medians are compared: on a shared
// machine one measurement of each says more about the neighbours than about the generators.
const figures: Record<'autocannon' | 'node' | 'k6', number[]> = { autocannon: [], node: [], k6: [] };
try {
  process.stdout.write(`bare Fastify route at ${bare.baseUrl}; ${connections} connections, ${durationS} s per measurement, ${rounds} rounds\n`);
  for (let round = 1; round <= rounds; round++) {
    const cannon = await autocannon({ url: bare.baseUrl, connections, duration: durationS, requests: scenarioRequests });
    figures.autocannon.push(cannon.requests.total / durationS);
    figures.node.push((await runWithNode(definition, settings)).throughput_rps);
    if (k6) figures.k6.push((await runWithK6(k6.path, 'decide-capacity', settings)).throughput_rps);
    process.stdout.write(`round ${round}: autocannon ${Math.round(figures.autocannon.at(-1)!)} req/s, Node runner ${Math.round(figures.node.at(-1)!)} req/s${k6 ? `, k6 ${Math.round(figures.k6.at(-1)!)} req/s` : ''}\n`);
  }
  const reference = median(figures.autocannon);
  const ratio = median(figures.node) / reference;
  process.stdout.write(`medians: autocannon ${Math.round(reference)} req/s; Node runner ${Math.round(median(figures.node))} req/s = ${(ratio * 100).toFixed(0)} % (target ${RUNNER_TARGET * 100} %: ${ratio >= RUNNER_TARGET ? 'met' : 'MISSED'})`);
  process.stdout.write(k6 ? `; k6 ${Math.round(median(figures.k6))} req/s = ${((median(figures.k6) / reference) * 100).toFixed(0)} %\n` : '; k6 not found (--k6, K6_BIN, PATH): not measured\n');
} finally {
  bare.stop();
}

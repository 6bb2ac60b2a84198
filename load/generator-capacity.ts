// Benchmark (not a test): what each load generator can drive on this machine against a bare
// Fastify route answering a fixed decision, in a process of its own, so that the generator is
// never mistaken for the server's limit. The kit's Node runner must reach 80 % of autocannon.
// Run: npm run bench:load-generators [-- --duration S --connections N]
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
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

const { values } = parseArgs({ options: { duration: { type: 'string', default: '5' }, connections: { type: 'string', default: '16' }, k6: { type: 'string' } } });
const durationS = Number(values.duration);
const connections = Number(values.connections);
const bare = await startBareRoute();
const settings = { BASE_URL: bare.baseUrl, API_KEY: 'svc_live_bench', VUS: String(connections), DURATION: String(durationS), RUN_ID: 'bench' };

try {
  process.stdout.write(`bare Fastify route at ${bare.baseUrl}; ${connections} connections, ${durationS} s each\n`);
  const sample = JSON.stringify({ context: 'I was charged twice for order 1182 and the payment must be refunded to my card.', questions: { q01: { type: 'choice', options: { billing: 'Payments', shipping: 'Delivery' } } } });
  const cannon = await autocannon({ url: `${bare.baseUrl}/v1/decide`, method: 'POST', connections, duration: durationS, headers: { 'content-type': 'application/json', authorization: 'Bearer svc_live_bench' }, body: sample });
  const autocannonRps = cannon.requests.total / durationS;
  process.stdout.write(`autocannon     ${Math.round(autocannonRps)} req/s (p50 ${cannon.latency.p50} ms, p99 ${cannon.latency.p99} ms)\n`);

  const node = await runWithNode(await loadDefinition('decide-capacity', settings), settings);
  const ratio = node.throughput_rps / autocannonRps;
  process.stdout.write(`Node runner    ${Math.round(node.throughput_rps)} req/s (p50 ${node.latency.all?.p50_ms} ms, p99 ${node.latency.all?.p99_ms} ms): ${(ratio * 100).toFixed(0)} % of autocannon, target ${RUNNER_TARGET * 100} %: ${ratio >= RUNNER_TARGET ? 'met' : 'MISSED'}\n`);

  const k6 = findK6(values.k6, process.env);
  if (k6) {
    const run = await runWithK6(k6.path, 'decide-capacity', settings);
    process.stdout.write(`k6             ${Math.round(run.throughput_rps)} req/s (p50 ${run.latency.all?.p50_ms} ms, p99 ${run.latency.all?.p99_ms} ms): ${((run.throughput_rps / autocannonRps) * 100).toFixed(0)} % of autocannon\n`);
  } else {
    process.stdout.write('k6             not found (--k6, K6_BIN, PATH): not measured\n');
  }
} finally {
  bare.stop();
}

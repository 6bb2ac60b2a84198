// Benchmark (not a test): what each load generator can drive on this machine against a bare
// Fastify route answering a fixed decision, in a process of its own, so that the generator is
// never mistaken for the server's limit. The kit's Node runner must reach 80 % of autocannon.
// Both generators judge every response by the spec (load/rules/judge.ts; --validate-every N for a sample).
// Run: npm run bench:load-generators [-- --duration S --connections N --validate-every N]
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import type { LoadRun } from '../reports/load-run.ts';
import { median } from './compare.ts';
import { findK6, runWithK6 } from './k6.ts';
import { loadDefinition } from './runner/definition.ts';
import { runWithNode } from './runner/run-scenario.ts';

const RUNNER_TARGET = 0.8;
const root = fileURLToPath(new URL('../', import.meta.url));

// The route answers each question it was sent, by the rules the generators judge responses by
// (load/rules/judge.ts), so that every generator does the work of a passing response: the same
// for all of them, at a cost to the route of a few object literals.
const BARE_ROUTE = `
import Fastify from 'fastify';
const app = Fastify();
function answer(question) {
  if (question.type !== 'choice') return { type: question.type };
  const ids = Object.keys(question.options);
  const probabilities = {};
  ids.forEach((id, index) => (probabilities[id] = index === 0 ? 0.6 : 0.4 / (ids.length - 1)));
  const confidence = ids.length === 1 ? 1 : probabilities[ids[0]] - probabilities[ids[1]];
  if (ids.length === 1) probabilities[ids[0]] = 1;
  return { type: 'choice', choice: ids[0], confidence, probabilities, abstain: false, abstention_status: 'advisory' };
}
app.post('/v1/decide', async (request, reply) => {
  reply.header('x-request-id', request.headers['x-request-id'] ?? 'req_0');
  const answers = {};
  for (const [id, question] of Object.entries(request.body.questions)) answers[id] = answer(question);
  return { model: 'svc-one-v1', answers, usage: { input_tokens: 10 } };
});
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

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '4' },
    connections: { type: 'string', default: '16' },
    rounds: { type: 'string', default: '3' },
    k6: { type: 'string' },
    'validate-every': { type: 'string', default: '1' },
  },
});
const durationS = Number(values.duration);
const connections = Number(values.connections);
const rounds = Number(values.rounds);
const bare = await startBareRoute();
// VALIDATE_EVERY: the generators judge every response (1) or the stated sample, as a load run would.
const settings = {
  BASE_URL: bare.baseUrl,
  API_KEY: 'svc_live_bench',
  VUS: String(connections),
  DURATION: String(durationS),
  RUN_ID: 'bench',
  VALIDATE_EVERY: values['validate-every'],
};
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
// Each generator runs twice a round: judging responses as a load run does (VALIDATE_EVERY), and
// checking status and request id only, so the cost of validation is measured side by side.
const CHECKS_ONLY = { ...settings, VALIDATE_EVERY: String(Number.MAX_SAFE_INTEGER) };
const figures: Record<'autocannon' | 'node' | 'nodeChecksOnly' | 'k6' | 'k6ChecksOnly', number[]> = {
  autocannon: [],
  node: [],
  nodeChecksOnly: [],
  k6: [],
  k6ChecksOnly: [],
};
// What each generator judged, so a figure is never read without knowing how much validation it paid for.
const judged = (run: LoadRun) =>
  `${Math.round(run.throughput_rps)} req/s (validated ${run.validation?.validated ?? 0} of ${run.requests}, checks ${(run.check_rate * 100).toFixed(1)} %)`;
const share = (values: number[], reference: number) => `${Math.round(median(values))} req/s = ${((median(values) / reference) * 100).toFixed(0)} %`;
try {
  process.stdout.write(
    `bare Fastify route at ${bare.baseUrl}; ${connections} connections, ${durationS} s per measurement, ${rounds} rounds; validation of every ${values['validate-every'] === '1' ? '' : `${values['validate-every']}th `}response\n`,
  );
  for (let round = 1; round <= rounds; round++) {
    const cannon = await autocannon({ url: bare.baseUrl, connections, duration: durationS, requests: scenarioRequests });
    figures.autocannon.push(cannon.requests.total / durationS);
    const node = await runWithNode(definition, settings);
    const nodeChecksOnly = await runWithNode(definition, CHECKS_ONLY);
    figures.node.push(node.throughput_rps);
    figures.nodeChecksOnly.push(nodeChecksOnly.throughput_rps);
    let k6Line = '';
    if (k6) {
      const k6Run = await runWithK6(k6.path, 'decide-capacity', settings);
      const k6ChecksOnly = await runWithK6(k6.path, 'decide-capacity', CHECKS_ONLY);
      figures.k6.push(k6Run.throughput_rps);
      figures.k6ChecksOnly.push(k6ChecksOnly.throughput_rps);
      k6Line = `; k6 ${judged(k6Run)}, status and request id only ${Math.round(k6ChecksOnly.throughput_rps)} req/s`;
    }
    process.stdout.write(
      `round ${round}: autocannon ${Math.round(figures.autocannon.at(-1)!)} req/s; Node runner ${judged(node)}, status and request id only ${Math.round(nodeChecksOnly.throughput_rps)} req/s${k6Line}\n`,
    );
  }
  const reference = median(figures.autocannon);
  const ratio = median(figures.node) / reference;
  process.stdout.write(
    `medians: autocannon ${Math.round(reference)} req/s; Node runner ${share(figures.node, reference)} (target ${RUNNER_TARGET * 100} %: ${ratio >= RUNNER_TARGET ? 'met' : 'MISSED'}), status and request id only ${share(figures.nodeChecksOnly, reference)}`,
  );
  process.stdout.write(
    k6
      ? `; k6 ${share(figures.k6, reference)}, status and request id only ${share(figures.k6ChecksOnly, reference)}\n`
      : '; k6 not found (--k6, K6_BIN, PATH): not measured\n',
  );
} finally {
  bare.stop();
}

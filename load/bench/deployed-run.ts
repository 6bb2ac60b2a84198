// Benchmark (not a test): the conformance run against a server reached as deployed servers are.
// The bundled reference server runs in this process, each gateway of harness/testing/gateways.ts
// in front of it, and the kit's command in a process of its own, once per condition: direct, 50 ms
// added to every request (with --workers at its default and at 1), under a path prefix, behind a
// gateway that needs a header, over HTTPS with a private CA, and limited to 20 requests a second.
// Prints each condition's wall time, exit status, MUST failures, and whether every check's verdict
// is the direct run's; then the ratio of the 50 ms run to the direct one (target: at most 2.5).
// `--server independent` runs the text-only independent implementation of harness/testing instead.
// Run: npx tsx load/bench/deployed-run.ts [--server reference|independent] [--suite LIST] [--latency-ms N]
//        [--rounds N] [--workers N] [--only-conditions LIST]
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startEmbeddedTarget } from '../../api/embedded-target.ts';
import { addedLatency, gateway, pathPrefix, rateLimit, requiredHeader, type GatewayStep } from '../../harness/testing/gateways.ts';
import { startIndependentServer } from '../../harness/testing/independent-server.ts';
import { runKitCommand } from '../../harness/testing/kit-command.ts';
import { startMutatingProxy } from '../../harness/testing/mutating-proxy.ts';
import { median } from '../compare.ts';

const { values } = parseArgs({
  options: {
    suite: { type: 'string', default: 'conformance' },
    'latency-ms': { type: 'string', default: '50' },
    rounds: { type: 'string', default: '1' },
    'only-conditions': { type: 'string' },
    workers: { type: 'string' },
    server: { type: 'string', default: 'reference' },
  },
});
const latencyMs = Number(values['latency-ms']);
const tlsDir = new URL('../../harness/testing/tls/', import.meta.url);
const tls = { cert: readFileSync(new URL('localhost-cert.pem', tlsDir), 'utf8'), key: readFileSync(new URL('localhost-key.pem', tlsDir), 'utf8') };
const CA_FILE = new URL('localhost-cert.pem', tlsDir).pathname;

interface Condition {
  name: string;
  steps: GatewayStep[];
  https?: boolean;
  /** Under the gateway's base URL. */
  prefix?: string;
  args: string[];
}
const limiter = rateLimit(20);
const conditions: Condition[] = [
  { name: 'direct', steps: [], args: [] },
  { name: 'direct 1 worker', steps: [], args: ['--workers', '1'] },
  { name: `${latencyMs} ms added`, steps: [addedLatency(latencyMs)], args: [] },
  { name: `${latencyMs} ms added 1 worker`, steps: [addedLatency(latencyMs)], args: ['--workers', '1'] },
  { name: 'path prefix /svc', steps: [pathPrefix('/svc')], prefix: '/svc', args: [] },
  { name: 'HTTPS, private CA', steps: [], https: true, args: ['--ca-cert', CA_FILE] },
  { name: 'gateway header', steps: [requiredHeader('X-Tenant', 'acme')], args: ['--header', 'X-Tenant: acme'] },
  { name: '20 requests a second (429)', steps: [limiter], args: [] },
];
const wanted = values['only-conditions']?.split(',').map((name) => name.trim());

const independent = values.server === 'independent';
const target = independent ? await startIndependentServer() : await startEmbeddedTarget();
const env: Record<string, string> = { DECISION_API_KEY: target.keyA, DECISION_API_KEY_B: target.keyB };
if ('keyShortTtl' in target) Object.assign(env, { DECISION_EXPIRY_API_KEY: target.keyShortTtl, DECISION_EXPIRY_TTL_SECONDS: String(target.shortTtlMs / 1000) });
// The independent server implements the text-only API: it claims no capability.
const serverArgs = independent ? ['--capabilities', ''] : [];
type Verdicts = Map<string, string>;
const verdictsOf = (dir: string): Verdicts =>
  new Map(
    (JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')).checks as Array<{ id: string; status: string }>).map((check) => [check.id, check.status]),
  );
let direct: Verdicts | undefined;
const times = new Map<string, number[]>();
try {
  process.stdout.write(`${values.server} server, suite ${values.suite}, ${values.rounds} round(s); the server in this process, the kit in its own\n\n`);
  process.stdout.write(`${'condition'.padEnd(34)} ${'exit'.padStart(4)} ${'wall s'.padStart(7)} ${'MUST failed'.padStart(11)}  verdicts\n`);
  for (let round = 0; round < Number(values.rounds); round += 1) {
    for (const condition of conditions) {
      if (wanted && !wanted.includes(condition.name)) continue;
      const proxied = condition.steps.length > 0 || condition.https;
      const proxy = proxied ? await startMutatingProxy(target.baseUrl, gateway(...condition.steps), condition.https ? tls : undefined) : undefined;
      const baseUrl = `${proxy?.baseUrl ?? target.baseUrl}${condition.prefix ?? ''}`;
      const dir = mkdtempSync(join(tmpdir(), 'decision-deployed-bench-'));
      const started = performance.now();
      const run = await runKitCommand(
        [
          'run',
          '--base-url',
          baseUrl,
          '--suite',
          values.suite!,
          '--seed',
          '7',
          '--quiet',
          '--report-dir',
          dir,
          ...serverArgs,
          ...(values.workers && !condition.args.includes('--workers') ? ['--workers', values.workers] : []),
          ...condition.args,
        ],
        env,
      );
      const seconds = (performance.now() - started) / 1000;
      await proxy?.close();
      times.set(condition.name, [...(times.get(condition.name) ?? []), seconds]);
      const verdicts = verdictsOf(dir);
      direct ??= condition.name === 'direct' ? verdicts : undefined;
      const differing = direct
        ? [...verdicts].filter(([id, status]) => direct!.get(id) !== status).map(([id, status]) => `${id} ${direct!.get(id)}→${status}`)
        : [];
      const mustFailed = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')).summary.must_failed as number;
      process.stdout.write(
        `${condition.name.padEnd(34)} ${String(run.code).padStart(4)} ${seconds.toFixed(1).padStart(7)} ${String(mustFailed).padStart(11)}  ${direct ? (differing.length === 0 ? 'as direct' : differing.join(', ')) : 'no direct run to compare'}  (${dir})\n`,
      );
    }
  }
  const directMedian = median(times.get('direct') ?? []);
  const far = median(times.get(`${latencyMs} ms added`) ?? []);
  const farOne = median(times.get(`${latencyMs} ms added 1 worker`) ?? []);
  if (directMedian && far)
    process.stdout.write(
      `\n${latencyMs} ms added / direct: ${(far / directMedian).toFixed(2)} (target at most 2.5) ${far / directMedian <= 2.5 ? 'met' : 'MISSED'}\n`,
    );
  if (directMedian && farOne) process.stdout.write(`${latencyMs} ms added with --workers 1 / direct: ${(farOne / directMedian).toFixed(2)}\n`);
  process.stdout.write(`requests the rate-limiting gateway answered 429: ${limiter.refused()}\n`);
} finally {
  await ('stop' in target ? target.stop() : target.close());
}

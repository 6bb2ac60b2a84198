// Benchmark (not a test): the memory and time the kit takes to compute a k6 run's figures from
// k6's raw samples (k6-samples.ts recordK6Samples into a percentiles.ts recorder).
// Run: npm run bench:k6-analysis -- [--requests N] (default 10,000,000: a 30-minute run at
// 5,556 requests a second, the mixed scenario in 120 timeline windows of 15 s).
//
// The k6 CSV output is synthetic (synthetic-k6-csv.ts: k6's rows for the mixed scenario, a
// lognormal latency with a heavy tail), written once and kept in the OS temp folder. The analysis
// runs in a child process so that its peak resident set is its own: the child reports its kernel
// high-water mark (VmHWM in /proc/self/status) at the end, and the parent samples the child's
// VmRSS every 100 ms as well, which still tells the peak when the child dies (e.g. out of heap).
// Linux only (/proc). Prints figures, asserts nothing.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { recordK6Samples } from '../k6-samples.ts';
import { createLatencyRecorder } from '../percentiles.ts';
import { loadDefinition } from '../runner/definition.ts';
import { REQUESTS_PER_ITERATION, writeSyntheticK6Csv } from './synthetic-k6-csv.ts';

const RUN_S = 1800;
const WINDOW_S = 15;
const MiB = 1024 * 1024;
/** Bump when synthetic-k6-csv.ts writes something else, so that a cached file of the old form is not reused. */
const FORMAT_VERSION = 1;

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '10000000' },
    /** Internal: the child's side, analysing the file at this path. */
    analyse: { type: 'string' },
  },
});
const requests = Number(values.requests);
if (!Number.isInteger(requests) || requests < 1) throw new Error(`--requests must be a whole number of 1 or more; got ${values.requests}`);

const definition = () =>
  loadDefinition('mixed', {
    BASE_URL: 'http://127.0.0.1:1',
    API_KEY: 'svc_live_bench',
    DURATION: String(RUN_S),
    RATE: String(Math.round(requests / RUN_S / REQUESTS_PER_ITERATION)),
    WINDOW_S: String(WINDOW_S),
  });

function statusBytes(pid: number | 'self', field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined; // the process has gone
  }
}

if (values.analyse) {
  const recorder = createLatencyRecorder(await definition());
  const started = performance.now();
  const recording = await recordK6Samples([values.analyse], recorder);
  const figures = recorder.figures();
  const wallMs = performance.now() - started;
  process.stdout.write(
    `${JSON.stringify({ requests: recording.files[0]!.requests, wallMs, peakBytes: statusBytes('self', 'VmHWM'), all: figures.latency.all, windows: figures.timeline.length })}\n`,
  );
} else {
  const path = join(tmpdir(), `decision-k6-analysis-${requests}-v${FORMAT_VERSION}.csv.gz`);
  if (!existsSync(path)) {
    process.stdout.write(`writing a synthetic k6 CSV output of ${requests.toLocaleString('en')} requests to ${path} (once; later runs reuse it)\n`);
    const started = performance.now();
    await writeSyntheticK6Csv(path, { requests, durationS: RUN_S, windowS: WINDOW_S, seed: 1 });
    process.stdout.write(`written in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  }
  process.stdout.write(`${path}: ${(statSync(path).size / MiB).toFixed(0)} MiB gzip\n`);

  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--requests', String(requests), '--analyse', path], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let sampledPeak = 0;
  const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, statusBytes(child.pid!, 'VmRSS') ?? 0)), 100);
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(sampler);
  const processMs = performance.now() - started;
  if (code !== 0) {
    process.stdout.write(
      `the analysis failed (exit ${code}) after ${(processMs / 1000).toFixed(1)} s; sampled peak RSS ${(sampledPeak / MiB).toFixed(0)} MiB\n`,
    );
    process.exitCode = 1;
  } else {
    const result = JSON.parse(output) as { requests: number; wallMs: number; peakBytes: number; all: unknown; windows: number };
    process.stdout.write(
      `requests ${result.requests.toLocaleString('en')}; peak RSS ${(result.peakBytes / MiB).toFixed(0)} MiB (VmHWM; sampled ${(sampledPeak / MiB).toFixed(0)} MiB); ` +
        `analysis ${(result.wallMs / 1000).toFixed(1)} s (${(processMs / 1000).toFixed(1)} s with the child's start)\n` +
        `all: ${JSON.stringify(result.all)}; ${result.windows} timeline windows\n`,
    );
  }
}

// Cold start of the bundled reference server: spawn it as `npm run serve` does, and time
// spawn -> listening and spawn -> first successful decide, several times, against the seed's
// cold-start allowance.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import type { ColdStartReport } from '../reports/load-run.ts';
import { coldStartAllowanceMs } from '../spec/index.ts';
import { median } from './compare.ts';

const root = fileURLToPath(new URL('../', import.meta.url));

/**
 * The reference server as `npm run serve` starts it (plain Node on the bundled entry, no
 * transpiling at run time). The one place that knows how: when the start changes, change this only.
 */
export function spawnReferenceServer(args: string[]): ChildProcess {
  return spawn(process.execPath, ['reference-impl/start.mjs', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
}

export interface ColdStartSample {
  listeningMs: number;
  firstDecideMs: number;
}

const DECIDE_BODY = JSON.stringify({ context: 'I was charged twice and want a refund.', questions: { topic: { type: 'choice', options: { billing: 'Payments', shipping: 'Delivery' } } } });

export interface SpawnedServer {
  baseUrl: string;
  key: string;
  /** performance.now() at the spawn. */
  spawnedAt: number;
  listeningMs: number;
  stop(): Promise<void>;
}

/** Spawns the reference server with one project and a fresh data folder, and waits until it prints its address. */
export async function startSpawnedServer(options: { timeoutMs?: number; extraArgs?: string[] } = {}): Promise<SpawnedServer> {
  const timeoutMs = options.timeoutMs ?? coldStartAllowanceMs;
  const dataDir = mkdtempSync(join(tmpdir(), 'decision-spawned-'));
  const key = `svc_live_load_${randomBytes(12).toString('hex')}`;
  const spawnedAt = performance.now();
  const child = spawnReferenceServer(['--port', '0', '--data-dir', dataDir, '--keys', `proj_load=${key}`, '--log-level', 'warn', ...(options.extraArgs ?? [])]);
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const baseUrl = await new Promise<string>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`the server did not listen within ${timeoutMs} ms`)), timeoutMs);
      child.stdout!.setEncoding('utf8').on('data', (text: string) => {
        output += text;
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      child.stderr!.resume();
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the server exited with ${code} before listening`));
      });
    });
    return { baseUrl, key, spawnedAt, listeningMs: performance.now() - spawnedAt, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** One spawn: until the server listens, then until a decide succeeds; the server is stopped after. */
export async function measureColdStart(allowanceMs = coldStartAllowanceMs): Promise<ColdStartSample> {
  const server = await startSpawnedServer({ timeoutMs: allowanceMs });
  try {
    for (;;) {
      if (performance.now() - server.spawnedAt > allowanceMs) throw new Error(`no successful decide within ${allowanceMs} ms of the spawn`);
      try {
        const reply = await request(`${server.baseUrl}/v1/decide`, { method: 'POST', headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' }, body: DECIDE_BODY });
        await reply.body.dump();
        if (reply.statusCode >= 200 && reply.statusCode < 300) break;
      } catch {
        // Not ready yet: try again shortly.
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return { listeningMs: server.listeningMs, firstDecideMs: performance.now() - server.spawnedAt };
  } finally {
    await server.stop();
  }
}

const round = (ms: number) => Math.round(ms * 10) / 10;
const spread = (values: number[]) => ({ median: round(median(values)), max: round(Math.max(...values)), values: values.map(round) });

export async function coldStartReport(runs: number, output: (line: string) => void): Promise<ColdStartReport> {
  const samples: ColdStartSample[] = [];
  for (let run = 1; run <= runs; run++) {
    const sample = await measureColdStart();
    samples.push(sample);
    output(`spawn ${run}/${runs}: listening after ${round(sample.listeningMs)} ms, first successful decide after ${round(sample.firstDecideMs)} ms`);
  }
  const firstDecide = samples.map((sample) => sample.firstDecideMs);
  return {
    runs,
    allowance_ms: coldStartAllowanceMs,
    spawn_to_listening_ms: spread(samples.map((sample) => sample.listeningMs)),
    spawn_to_first_decide_ms: spread(firstDecide),
    within_allowance: firstDecide.every((ms) => ms <= coldStartAllowanceMs),
  };
}

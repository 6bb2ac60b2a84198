// A server started as its own process, for cold starts, load comparisons and benchmarks: spawned,
// timed until it prints the address it listens on, and stopped with SIGTERM (SIGKILL if it does
// not end within a few seconds).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kitRoot } from '../harness/kit-files.ts';
import { apiKeyPrefix } from '../spec/index.ts';
import { processCpuMs, threadCpuMs } from './process-usage.ts';

/**
 * The reference server as `npm run serve` starts it: plain Node on the bundled entry, no
 * transpiling at run time (what a container's entry point runs), in a clone as in an installed
 * package. The one place that knows how: when the start changes, change this only.
 */
export const REFERENCE_SERVER: readonly [command: string, ...args: string[]] = [process.execPath, 'reference-impl/start.mjs'];

export interface ServerProcess {
  baseUrl: string;
  /** From spawn to the line that gives the address. */
  listeningMs: number;
  /** Milliseconds since spawn, on the same clock as listeningMs. */
  sinceSpawn(): number;
  /**
   * CPU time of the process's main thread (the one that runs JavaScript) in milliseconds, from
   * Linux's /proc; undefined elsewhere. What a benchmark divides by wall time to show how busy
   * the server really was at a given load.
   */
  mainThreadCpuMs(): number | undefined;
  /** CPU time of every thread of the process in milliseconds (JavaScript, garbage collection, the scoring model's threads), from /proc. */
  processCpuMs(): number | undefined;
  stop(): Promise<void>;
}

function mainThreadCpuMs(pid: number | undefined): number | undefined {
  return pid === undefined ? undefined : threadCpuMs(pid);
}

const STOP_GRACE_MS = 5_000;

export interface StartOptions {
  /** How long the process may take to print its address; 60 s unless given. */
  startTimeoutMs?: number;
}

export function startServerProcess(command: string, args: string[], options: StartOptions = {}): Promise<ServerProcess> {
  const spawnedAt = performance.now();
  const child: ChildProcess = spawn(command, args, { cwd: kitRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${command} ${args.join(' ')} printed no address within ${options.startTimeoutMs ?? 60_000} ms: ${out}${err}`));
    }, options.startTimeoutMs ?? 60_000);
    child.stderr!.on('data', (chunk: Buffer) => (err = (err + chunk.toString()).slice(-4000)));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      if (!url) return;
      clearTimeout(timer);
      child.stdout!.removeAllListeners('data').resume();
      resolve({
        baseUrl: url,
        listeningMs: performance.now() - spawnedAt,
        sinceSpawn: () => performance.now() - spawnedAt,
        mainThreadCpuMs: () => mainThreadCpuMs(child.pid),
        processCpuMs: () => (child.pid === undefined ? undefined : processCpuMs(child.pid)),
        stop,
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(' ')} exited with ${code}: ${out}${err}`));
    });
  });
}

/** A reference server process with a data folder of its own and one project, whose key it carries. */
export interface KeyedServerProcess extends ServerProcess {
  key: string;
}

/**
 * Starts `command… --port 0 --data-dir <fresh> --keys load=<key> --log-level warn options…`: the
 * command is REFERENCE_SERVER unless given (e.g. `npm run serve --`), the key a fresh one unless
 * given, the options the server's own (`--profile alternate`). stop() also removes the data folder, as does a start that fails.
 */
export async function startKeyedServer(
  options: StartOptions & { command?: readonly [string, ...string[]]; serverOptions?: readonly string[]; key?: string } = {},
): Promise<KeyedServerProcess> {
  const [command, ...commandArgs] = options.command ?? REFERENCE_SERVER;
  const dataDir = mkdtempSync(join(tmpdir(), 'decision-server-'));
  const key = options.key ?? `${apiKeyPrefix}load_${randomBytes(12).toString('hex')}`;
  const removeData = () => rmSync(dataDir, { recursive: true, force: true });
  try {
    const args = [...commandArgs, '--port', '0', '--data-dir', dataDir, '--keys', `load=${key}`, '--log-level', 'warn', ...(options.serverOptions ?? [])];
    const server = await startServerProcess(command, args, options);
    return {
      ...server,
      key,
      async stop() {
        await server.stop();
        removeData();
      },
    };
  } catch (error) {
    removeData();
    throw error;
  }
}

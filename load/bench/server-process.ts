// A server started as its own process for a benchmark: spawned, timed until it prints the address
// it listens on, and stopped with SIGTERM (SIGKILL if it does not end within a few seconds).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const kitRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface ServerProcess {
  baseUrl: string;
  /** From spawn to the line that gives the address. */
  listeningMs: number;
  /** Milliseconds since spawn, on the same clock as listeningMs. */
  sinceSpawn(): number;
  stop(): Promise<void>;
}

const STOP_GRACE_MS = 5_000;

export function startServerProcess(command: string, args: string[], options: { startTimeoutMs?: number } = {}): Promise<ServerProcess> {
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
      resolve({ baseUrl: url, listeningMs: performance.now() - spawnedAt, sinceSpawn: () => performance.now() - spawnedAt, stop });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(' ')} exited with ${code}: ${out}${err}`));
    });
  });
}

// Starts the real Prism CLI as a child process serving spec/openapi.yaml, and stops it again.
// Used by `npm run mock` and by suites that run against the mock; Node built-ins only.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { specPath } from '../spec/index.ts';

export interface PrismMockOptions {
  /** The OpenAPI document to serve; spec/openapi.yaml by default. */
  document?: string;
  /** Port to listen on; a free one is picked when omitted. */
  port?: number;
  /** Interface to listen on; 127.0.0.1 by default. */
  host?: string;
  /** Prism's --errors: a response that breaks its own schema becomes a 500 instead of being sent. */
  errors?: boolean;
  /** Prism's --dynamic: bodies generated from the schemas instead of the named examples. */
  dynamic?: boolean;
  /** Keep Prism's log out of this process's output (the default). Startup failures are reported either way. */
  quiet?: boolean;
  /** How long to wait for Prism to answer before giving up; 60 s by default (two cores, cold start). */
  startTimeoutMs?: number;
}

export interface PrismExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when Prism could not be spawned at all. */
  error?: string;
}

export interface PrismMock {
  /** e.g. http://127.0.0.1:4010, without a trailing slash. */
  baseUrl: string;
  /** Process id of Prism, also the id of its process group. */
  pid: number;
  /** Resolves when the Prism process has exited, however that happened. */
  exited: Promise<PrismExit>;
  /** Signals Prism's process group (SIGTERM by default) and waits for it to exit; SIGKILL after 5 s. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const DEFAULT_HOST = '127.0.0.1';
const DEFAULT_START_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 5_000;
const POLL_INTERVAL_MS = 100;
/** Bytes of Prism output kept per stream for error messages. */
const OUTPUT_TAIL_BYTES = 16 * 1024;
/** A port we picked can be taken by someone else before Prism binds it; try a few. */
const FREE_PORT_ATTEMPTS = 3;

/**
 * Runs the Prism CLI script given as the first argument, and exits when its stdin closes: our end of
 * that pipe closes when this process dies, even when it is killed outright and no 'exit' handler runs.
 */
const EXIT_WITH_PARENT = "process.stdin.on('end', () => process.exit(0)).on('error', () => process.exit(0)).resume(); require(process.argv[1]);";

/** Path of the Prism CLI's entry script, from the installed package's `bin`. */
export function prismCliPath(): string {
  const require = createRequire(import.meta.url);
  const manifestPath = require.resolve('@stoplight/prism-cli/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin.prism;
  if (!bin) throw new Error(`@stoplight/prism-cli at ${manifestPath} declares no prism bin`);
  return resolve(dirname(manifestPath), bin);
}

export async function startPrismMock(options: PrismMockOptions = {}): Promise<PrismMock> {
  const host = options.host ?? DEFAULT_HOST;
  if (options.port !== undefined) {
    // Checked first: with the port taken, the health poll could be answered by whatever holds it.
    await bindableOrThrow(host, options.port);
    return startOnPort(options, host, options.port);
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnPort(options, host, await bindPort(host, 0));
    } catch (error) {
      if (attempt >= FREE_PORT_ATTEMPTS || !(error instanceof PrismStartError) || !error.portInUse) throw error;
    }
  }
}

class PrismStartError extends Error {
  readonly portInUse: boolean;
  constructor(message: string, portInUse: boolean) {
    super(message);
    this.name = 'PrismStartError';
    this.portInUse = portInUse;
  }
}

async function startOnPort(options: PrismMockOptions, host: string, port: number): Promise<PrismMock> {
  const quiet = options.quiet ?? true;
  const document = options.document ?? specPath;
  const args = [
    '--eval',
    EXIT_WITH_PARENT,
    prismCliPath(),
    'mock',
    document,
    '--host',
    host,
    '--port',
    String(port),
    '--verboseLevel',
    quiet ? 'error' : 'info',
  ];
  if (options.errors) args.push('--errors');
  if (options.dynamic) args.push('--dynamic');

  // A process group of its own, so stop() reaches everything Prism starts and a Ctrl-C in the
  // terminal reaches Prism only through us (serve.ts forwards it).
  const child = spawn(process.execPath, args, { detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  const stdout = outputTail(child.stdout, quiet ? undefined : process.stdout);
  const stderr = outputTail(child.stderr, quiet ? undefined : process.stderr);
  const exited = new Promise<PrismExit>((resolveExit) => {
    child.once('exit', (code, signal) => resolveExit({ code, signal }));
    child.once('error', (error) => resolveExit({ code: null, signal: null, error: error.message }));
  });
  const killOnExit = () => killGroup(child, 'SIGKILL');
  // Prism lives in its own group, so nothing else ends it when this process exits.
  process.once('exit', killOnExit);
  void exited.then(() => process.removeListener('exit', killOnExit));

  const baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    killGroup(child, signal);
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  };

  const failure = await waitUntilAnswering(baseUrl, exited, options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS);
  if (failure) {
    await stop('SIGKILL');
    const output = [`Prism stderr:\n${stderr.text() || '(empty)'}`, `Prism stdout:\n${stdout.text() || '(empty)'}`].join('\n');
    throw new PrismStartError(`${failure} (prism mock ${document} on ${host}:${port})\n${output}`, /EADDRINUSE/.test(stderr.text()));
  }
  return { baseUrl, pid: child.pid as number, exited, stop };
}

/** Polls GET /health until Prism answers anything; returns why it did not, or undefined once it does. */
async function waitUntilAnswering(baseUrl: string, exited: Promise<PrismExit>, timeoutMs: number): Promise<string | undefined> {
  let exit: PrismExit | undefined;
  void exited.then((value) => (exit = value));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exit) return describeEarlyExit(exit);
    try {
      const response = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      return undefined;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolveDelay) => setTimeout(resolveDelay, POLL_INTERVAL_MS));
  }
  return exit ? describeEarlyExit(exit) : `Prism did not answer GET /health within ${timeoutMs} ms`;
}

function describeEarlyExit(exit: PrismExit): string {
  return exit.error ? `Prism could not be started: ${exit.error}` : `Prism exited before answering (code ${exit.code}, signal ${exit.signal})`;
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** Keeps the last bytes of a child's output stream (draining it so the child never blocks), optionally echoing it. */
function outputTail(stream: NodeJS.ReadableStream, echo?: NodeJS.WritableStream): { text(): string } {
  let kept = Buffer.alloc(0);
  stream.on('data', (chunk: Buffer) => {
    echo?.write(chunk);
    kept = Buffer.concat([kept, chunk]);
    if (kept.length > OUTPUT_TAIL_BYTES) kept = kept.subarray(kept.length - OUTPUT_TAIL_BYTES);
  });
  return { text: () => kept.toString('utf8').trim() };
}

async function bindableOrThrow(host: string, port: number): Promise<void> {
  try {
    await bindPort(host, port);
  } catch (error) {
    throw new PrismStartError(`Cannot start Prism on ${host}:${port}: ${(error as Error).message}`, true);
  }
}

/** Binds and releases a port (0: any free one); resolves with the port that was bound. */
function bindPort(host: string, port: number): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolvePort(address.port) : reject(new Error('No port assigned'))));
    });
  });
}

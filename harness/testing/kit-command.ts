// The kit's command as users run it (bin/decision-conformance.mjs, in a process of its own), for
// the kit's own tests: its exit status and what it wrote to stdout and stderr.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface CommandRun {
  code: number | null;
  out: string;
  err: string;
}

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The environment a command of the kit's tests sees: this one without keys and k6, no colour, then `env`. */
export function commandEnvironment(env: Record<string, string> = {}): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('DECISION_') && name !== 'K6_BIN'));
  return { ...inherited, NO_COLOR: '1', ...env };
}

/**
 * `decision-conformance ARGS`. The command sees no key and no k6 from this environment: only the
 * arguments and `env` name them.
 */
export function runKitCommand(args: readonly string[], env: Record<string, string> = {}): Promise<CommandRun> {
  const child = spawn(process.execPath, [`${root}bin/decision-conformance.mjs`, ...args], {
    cwd: root,
    env: commandEnvironment(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err })));
}

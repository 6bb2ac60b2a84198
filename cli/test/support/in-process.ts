// The command line's main() called in this process, with buffers for its streams: the same
// dispatch, parsing and messages as bin/decision-conformance.mjs, without a process (and tsx) per
// command line. For what does not depend on the process itself: usage, help and usage errors. The
// kit's tests start the real command (harness/testing/kit-command.ts) wherever the process matters:
// exit on a signal, reports written under its working directory, a run's output as users see it.
import { commandEnvironment, type CommandRun } from '../../../harness/testing/kit-command.ts';
import { main } from '../../main.ts';

/** `decision-conformance ARGS` through main(): no key and no k6 from this environment, as runKitCommand gives none. */
export async function runMainInProcess(args: readonly string[], env: Record<string, string> = {}): Promise<CommandRun> {
  let out = '';
  let err = '';
  const code = await main([...args], {
    out: (text) => (out += text),
    err: (text) => (err += text),
    env: commandEnvironment(env),
    tty: false,
    inheritsStdio: false,
  });
  return { code, out, err };
}

// `decision-conformance run` and `list-checks` from their arguments: usage errors, help, the run.
import { ConformanceOptionsError } from '../api/run-options.ts';
import { checkSelection } from '../api/selection.ts';
import { LIST_USAGE, parseListArgs, parseRunArgs, RUN_USAGE, UsageError, type RunSettings } from './args.ts';
import { terminalText } from '../reports/escape.ts';
import { listChecks } from './list-checks.ts';
import { runCommand } from './run.ts';
import type { CliIo, CommandIo } from './io.ts';

/** Prints a usage error of `command` (arguments it cannot read, or options a run cannot take) as the command line does everywhere: exit status 2. */
export function usageError(command: string, error: unknown, io: Pick<CommandIo, 'err'>): number {
  if (!(error instanceof UsageError || error instanceof ConformanceOptionsError)) throw error;
  io.err(`decision-conformance ${command}: ${terminalText(error.message)}\nSee "decision-conformance ${command} --help".\n`);
  return 2;
}

/** The run's settings, with --only and --skip checked against the catalogue of its suites. */
function runSettings(argv: string[], env: NodeJS.ProcessEnv): RunSettings | 'help' {
  const settings = parseRunArgs(argv, env);
  if (settings === 'help') return settings;
  checkSelection(settings);
  return settings;
}

export async function runEntry(rest: string[], io: CliIo): Promise<number> {
  let settings;
  try {
    settings = runSettings(rest, io.env);
  } catch (error) {
    return usageError('run', error, io);
  }
  if (settings === 'help') {
    io.out(`${RUN_USAGE}\n`);
    return 0;
  }
  const outcome = await runCommand(settings, {
    tty: io.tty,
    color: io.tty && io.env.NO_COLOR === undefined,
    write: io.out,
  });
  // Why the run could not start: a warm-up error may quote what the server answered.
  if (outcome.error) io.err(`decision-conformance: ${terminalText(outcome.error)}\n`);
  return outcome.exitCode;
}
export async function listChecksEntry(rest: string[], io: CommandIo): Promise<number> {
  let settings;
  try {
    settings = parseListArgs(rest);
  } catch (error) {
    return usageError('list-checks', error, io);
  }
  io.out(`${settings === 'help' ? LIST_USAGE : listChecks(settings.format, settings.suites)}\n`);
  return 0;
}

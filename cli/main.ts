// decision-conformance: the kit's command line.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { LIST_USAGE, parseListArgs, parseRunArgs, RUN_USAGE, UsageError, type RunSettings } from './args.ts';
import { diffCommand } from './diff.ts';
import { replayCommand } from './replay.ts';
import { listChecks } from './list-checks.ts';
import { loadCommand } from './load.ts';
import { runCommand } from './run.ts';
import { selectionProblem } from './selection.ts';
import { catalogueOf } from './suites.ts';
import { versionText } from './version.ts';

const root = fileURLToPath(new URL('../', import.meta.url));

const USAGE = `Usage: decision-conformance <command> [options]

Commands:
  run           run the conformance suite against a server (default: the bundled reference server) and write reports
  list-checks   print the catalogue of checks of every suite (--suite LIST, --json)
  load          load and cold-start runs, and regression comparison (load --help)
  serve         start the bundled reference server (options: serve --help)
  mock          start the Prism mock served from the spec (options: mock --help)
  lint          lint spec/openapi.yaml with Spectral and the kit's ruleset
  replay        re-send the requests of an earlier run's results.json and report changed outcomes (replay --help)
  diff          classify the changes between two versions of the spec: breaking, non-breaking, info (diff --help)

Run "decision-conformance run --help" for the options of a run; "decision-conformance --version" (-V) for the kit's
and the spec's versions.`;

/** Runs a script of the kit in the foreground, passing signals and the exit status through. */
function delegate(args: string[]): Promise<number> {
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

/** Prints a usage error of `command` as the command line does everywhere: exit status 2. */
function usageError(command: string, error: unknown): number {
  if (!(error instanceof UsageError)) throw error;
  process.stderr.write(`decision-conformance ${command}: ${error.message}\nSee "decision-conformance ${command} --help".\n`);
  return 2;
}

/** The run's settings, with --only and --skip checked against the catalogue of its suites. */
function runSettings(argv: string[]): RunSettings | 'help' {
  const settings = parseRunArgs(argv, process.env);
  if (settings === 'help') return settings;
  const problem = selectionProblem(
    settings,
    catalogueOf(settings.suites).map((check) => check.id),
    settings.suites,
  );
  if (problem) throw new UsageError(problem);
  return settings;
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'run': {
      let settings;
      try {
        settings = runSettings(rest);
      } catch (error) {
        return usageError('run', error);
      }
      if (settings === 'help') {
        process.stdout.write(`${RUN_USAGE}\n`);
        return 0;
      }
      const tty = process.stdout.isTTY === true;
      const outcome = await runCommand(settings, {
        tty,
        color: tty && process.env.NO_COLOR === undefined,
        write: (text) => process.stdout.write(text),
      });
      if (outcome.error) process.stderr.write(`decision-conformance: ${outcome.error}\n`);
      return outcome.exitCode;
    }
    case 'list-checks': {
      let settings;
      try {
        settings = parseListArgs(rest);
      } catch (error) {
        return usageError('list-checks', error);
      }
      process.stdout.write(`${settings === 'help' ? LIST_USAGE : listChecks(settings.format, settings.suites)}\n`);
      return 0;
    }
    case 'diff':
      return diffCommand(rest, { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) });
    case 'replay':
      return replayCommand(rest, process.env, { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) });
    case 'load':
      return loadCommand(
        rest,
        process.env,
        (text) => process.stdout.write(text),
        (text) => process.stderr.write(text),
      );
    case 'serve':
      return delegate(['--import', 'tsx', 'reference-impl/serve.ts', ...rest]);
    case 'mock':
      return delegate(['--import', 'tsx', 'mock/serve.ts', ...rest]);
    case 'lint':
      return delegate([
        fileURLToPath(import.meta.resolve('@stoplight/spectral-cli/dist/index.js')),
        'lint',
        'spec/openapi.yaml',
        '--ruleset',
        'spec/lint/ruleset.mjs',
        '--fail-severity',
        'hint',
        ...rest,
      ]);
    case '--version':
    case '-V':
    case 'version':
      process.stdout.write(`${versionText()}\n`);
      return 0;
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      process.stdout.write(`${USAGE}\n`);
      return command === undefined ? 2 : 0;
    default:
      process.stderr.write(`decision-conformance: unknown command "${command}"\n\n${USAGE}\n`);
      return 2;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await main(process.argv.slice(2));
}

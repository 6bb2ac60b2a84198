// decision-conformance: the kit's command line.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseRunArgs, RUN_USAGE, UsageError } from './args.ts';
import { listChecks } from './list-checks.ts';
import { loadCommand } from './load.ts';
import { runCommand } from './run.ts';

const root = fileURLToPath(new URL('../', import.meta.url));

const USAGE = `Usage: decision-conformance <command> [options]

Commands:
  run           run the conformance suite against a server (default: the bundled reference server) and write reports
  list-checks   print the catalogue of checks (--json for JSON)
  load          load and cold-start runs, and regression comparison (load --help)
  serve         start the bundled reference server (options: serve --help)
  mock          start the Prism mock served from the spec (options: mock --help)
  lint          lint spec/openapi.yaml with Spectral and the kit's ruleset

Run "decision-conformance run --help" for the options of a run.`;

/** Runs a script of the kit in the foreground, passing signals and the exit status through. */
function delegate(args: string[]): Promise<number> {
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'run': {
      let settings;
      try {
        settings = parseRunArgs(rest, process.env);
      } catch (error) {
        if (!(error instanceof UsageError)) throw error;
        process.stderr.write(`decision-conformance run: ${error.message}\nSee "decision-conformance run --help".\n`);
        return 2;
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
    case 'list-checks':
      process.stdout.write(`${listChecks(rest.includes('--json') ? 'json' : 'text')}\n`);
      return 0;
    case 'load':
      return loadCommand(rest, process.env, (text) => process.stdout.write(text), (text) => process.stderr.write(text));
    case 'serve':
      return delegate(['--import', 'tsx', 'reference-impl/serve.ts', ...rest]);
    case 'mock':
      return delegate(['--import', 'tsx', 'mock/serve.ts', ...rest]);
    case 'lint':
      return delegate([fileURLToPath(import.meta.resolve('@stoplight/spectral-cli/dist/index.js')), 'lint', 'spec/openapi.yaml', '--ruleset', 'spec/lint/ruleset.mjs', '--fail-severity', 'hint', ...rest]);
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

// decision-conformance: the kit's command line. Each command's modules are imported when it runs,
// so that --help and the commands that need little (list-checks, diff) start without loading the
// suites, the spec's validators or the reports.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { kitRoot, kitScript } from '../harness/kit-files.ts';
import { MissingPartError, requirePart } from '../api/optional-parts.ts';
import { terminalText } from '../reports/escape.ts';
import { asksForHelp } from './help.ts';
import { processIo, type CliIo } from './io.ts';

const USAGE = `Usage: decision-conformance <command> [options]

Commands:
  run           run the conformance suite against a server (default: the bundled reference server) and write reports
  list-checks   print the catalogue of checks of every suite (--suite LIST, --json)
  load          load and cold-start runs, distributed runs merged, regression comparison and history (load --help)
  serve         start the bundled reference server (options: serve --help)
  mock          start the Prism mock served from the spec (options: mock --help)
  lint          lint spec/openapi.yaml with Spectral and the kit's ruleset (lint --help)
  replay        re-send the requests of an earlier run's results.json and report changed outcomes (replay --help)
  diff          classify the changes between two versions of the spec: breaking, non-breaking, info (diff --help)

Every command answers --help (-h) with its usage: "decision-conformance run --help" gives the options of a run.
"decision-conformance --version" (-V) prints the kit's and the spec's versions. The bundled server (run, load and
replay without --base-url; serve), the mock and the linter need packages installed apart from the kit's: a command
that lacks them prints the npm command that installs them.`;

/** Runs a script of the kit in the foreground, passing signals and the exit status through. */
function delegate(args: string[], io: CliIo): Promise<number> {
  const child = spawn(process.execPath, args, { cwd: kitRoot, env: io.env, stdio: io.inheritsStdio ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
  // Decoded as a stream: a character split between two chunks stays whole.
  child.stdout?.setEncoding('utf8').on('data', (text: string) => io.out(text));
  child.stderr?.setEncoding('utf8').on('data', (text: string) => io.err(text));
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, forward);
  return new Promise((resolve) =>
    // 'close', not 'exit': the piped output is read to its end first.
    child.on('close', (code, signal) => {
      for (const name of ['SIGINT', 'SIGTERM'] as const) process.off(name, forward);
      resolve(code ?? (signal ? 1 : 0));
    }),
  );
}

export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    if (!(error instanceof MissingPartError)) throw error;
    io.err(`decision-conformance: ${error.message}\n`);
    return 2;
  }
}

const LINT_USAGE = `Usage: decision-conformance lint [options of spectral lint]

Lints the spec the kit ships (spec/openapi.yaml) with Spectral and the kit's ruleset (spec/lint/ruleset.mjs),
failing on any finding (--fail-severity hint). Other options go to "spectral lint" as they are, e.g.
--format json --output FILE. Exit status: 0 no finding, 1 findings, 2 the linter is not installed.`;

async function dispatch(argv: string[], io: CliIo): Promise<number> {
  const [command, ...given] = argv;
  // Each command's own parser knows --help; -h, and help asked among other arguments, come to it as --help.
  const help = command !== undefined && command !== 'load' && asksForHelp(given);
  const rest = help ? ['--help'] : given;
  if (help && command === 'lint') {
    io.out(`${LINT_USAGE}\n`);
    return 0;
  }
  switch (command) {
    case 'run':
      return (await import('./run-entry.ts')).runEntry(rest, io);
    case 'list-checks':
      return (await import('./run-entry.ts')).listChecksEntry(rest, io);
    case 'diff':
      return (await import('./diff.ts')).diffCommand(rest, io);
    case 'replay':
      return (await import('./replay.ts')).replayCommand(rest, io.env, io);
    case 'load':
      return (await import('./load.ts')).loadCommand(rest, io.env, io.out, io.err);
    case 'serve':
      requirePart('reference-server');
      return delegate(['reference-impl/start.mjs', ...rest], io);
    case 'mock':
      requirePart('mock');
      return delegate([...kitScript('mock/serve'), ...rest], io);
    case 'lint':
      requirePart('lint');
      return delegate(
        [
          fileURLToPath(import.meta.resolve('@stoplight/spectral-cli/dist/index.js')),
          'lint',
          'spec/openapi.yaml',
          '--ruleset',
          'spec/lint/ruleset.mjs',
          '--fail-severity',
          'hint',
          ...rest,
        ],
        io,
      );
    case '--version':
    case '-V':
    case 'version':
      io.out(`${(await import('./version.ts')).versionText()}\n`);
      return 0;
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      io.out(`${USAGE}\n`);
      return command === undefined ? 2 : 0;
    default:
      io.err(`decision-conformance: unknown command "${terminalText(command)}"\n\n${USAGE}\n`);
      return 2;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await main(process.argv.slice(2));
}

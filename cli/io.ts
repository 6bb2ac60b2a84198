// Where a command writes and what it reads from its environment. The command line gives each
// command the process's own streams; the kit's tests give them buffers, so that a command's usage
// and errors are read without starting a process for each (harness/testing/kit-command.ts).
export interface CommandIo {
  out(text: string): void;
  err(text: string): void;
}

export interface CliIo extends CommandIo {
  env: NodeJS.ProcessEnv;
  /** stdout is a terminal: progress lines are redrawn, colour is on unless NO_COLOR. */
  tty: boolean;
  /** A delegated command (serve, mock, lint) shares the terminal; otherwise its output is passed to out and err. */
  inheritsStdio: boolean;
}

export function processIo(): CliIo {
  return {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    env: process.env,
    tty: process.stdout.isTTY === true,
    inheritsStdio: true,
  };
}

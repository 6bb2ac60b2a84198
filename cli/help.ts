// Whether a command line asks for help: `--help` or `-h` anywhere among a command's arguments, up
// to a `--` that ends the options, as git, npm and k6 take it. Help wins over every other option,
// so that `decision-conformance load merge DIR --help` prints the usage instead of merging.

/** True when `argv` (a command's arguments) holds `--help` or `-h` before any `--`. */
export function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

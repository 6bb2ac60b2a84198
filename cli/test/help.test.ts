// Every command answers --help and -h with its usage and exit 0, as git, npm, k6 and Schemathesis
// do. The tree is walked from the top-level usage, not from a list: each command the usage names
// is asked for help, and each subcommand its own usage names (`load <run|compare|...>`, then
// `load history add`...) is asked in turn, alone and after other arguments. The walk calls the
// command line's main() in this process (support/in-process.ts); the command itself, started as
// users start it, answers the top-level --help with the same text.
import { expect, test } from 'vitest';
import { runKitCommand } from '../../harness/testing/kit-command.ts';
import { runMainInProcess } from './support/in-process.ts';

/** The commands a top-level usage lists under "Commands:". */
function commandsOf(usage: string): string[] {
  const section = usage.split('\nCommands:\n')[1]?.split('\n\n')[0] ?? '';
  return [...section.matchAll(/^ {2}([a-z][a-z-]*) {2,}/gm)].map((match) => match[1]!);
}

/** The subcommands a command's usage names: `<a|b|c>` after the command, and `COMMAND SUB` lines. */
function subcommandsOf(usage: string, path: readonly string[]): string[] {
  const spelled = path.join(' ');
  const alternatives = new RegExp(`Usage: decision-conformance ${spelled} <([a-z|-]+)>`).exec(usage)?.[1]?.split('|') ?? [];
  const lines = [...usage.matchAll(new RegExp(`^${spelled} ([a-z][a-z-]*) `, 'gm'))].map((match) => match[1]!);
  return [...new Set([...alternatives, ...(path.length > 1 ? lines : [])])];
}

const asked: string[] = [];

async function expectHelp(args: string[]): Promise<string> {
  const ran = await runMainInProcess(args);
  asked.push(args.join(' '));
  expect(ran.code, `${args.join(' ')}: ${ran.err}`).toBe(0);
  expect(ran.err, args.join(' ')).toBe('');
  expect(ran.out, args.join(' ')).toMatch(/^Usage: /);
  return ran.out;
}

test('every command and subcommand answers --help and -h with its usage, exit 0', { timeout: 180_000 }, async () => {
  const top = await expectHelp(['--help']);
  expect(await expectHelp(['-h'])).toBe(top);
  const started = await runKitCommand(['--help']);
  expect([started.code, started.err, started.out]).toEqual([0, '', top]);
  const commands = commandsOf(top);
  expect(commands).toEqual(expect.arrayContaining(['run', 'list-checks', 'load', 'serve', 'mock', 'lint', 'replay', 'diff']));

  const walk = async (path: string[]): Promise<void> => {
    const usage = await expectHelp([...path, '--help']);
    expect(await expectHelp([...path, '-h']), `${path.join(' ')} -h`).toBe(usage);
    for (const sub of subcommandsOf(usage, path)) if (!path.includes(sub)) await walk([...path, sub]);
  };
  await Promise.all(commands.map((command) => walk([command])));

  // The subcommands found by reading the usages, so that a usage that stops naming them fails here.
  expect(asked).toEqual(
    expect.arrayContaining(['load merge --help', 'load history --help', 'load history add -h', 'load history check --help', 'load cold-start -h']),
  );
  console.info(`help answered by ${asked.length} command lines: ${asked.join(', ')}`);
});

test('help wins over the other arguments, up to --', async () => {
  // Without help, each of these would act (merge folders, run against a server, diff two files) or refuse.
  for (const args of [
    ['load', 'merge', '/nonexistent/part', '--help'],
    ['run', '--base-url', 'http://127.0.0.1:9', '-h'],
    ['diff', 'a.yaml', 'b.yaml', '--help'],
  ])
    await expectHelp(args);
  // After --, -h is an argument, not a request for help.
  const ran = await runMainInProcess(['diff', '--', '-h']);
  expect(ran.code).toBe(2);
});

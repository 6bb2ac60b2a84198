// `decision-conformance load …` run in-process, as tests call it: its exit status, and what it
// wrote to stdout and to stderr.
import { loadCommand } from '../../load.ts';

export interface LoadCommandRun {
  code: number;
  out: string;
  err: string;
}

export async function runLoadCommand(...argv: string[]): Promise<LoadCommandRun> {
  let out = '';
  let err = '';
  const code = await loadCommand(
    argv,
    {},
    (text) => (out += text),
    (text) => (err += text),
  );
  return { code, out, err };
}

// decision-conformance diff OLD NEW: breaking-change detection between two versions of the spec.
import { parseArgs } from 'node:util';
import { diffDocuments } from '../diff/diff.ts';
import { DIFF_FORMATS, formatDiff, formatRuleCatalogue, type DiffFormat } from '../diff/format.ts';
import { loadSpec, UnreadableSpec } from '../diff/load.ts';
import type { CommandIo } from './io.ts';

export const DIFF_USAGE = `Usage: decision-conformance diff OLD NEW [--format text|json|markdown]
       decision-conformance diff --list-rules [--json]

OLD and NEW are OpenAPI files (YAML or JSON) or REF:PATH read from git, e.g.
  decision-conformance diff origin/main:spec/openapi.yaml spec/openapi.yaml --format markdown

Every change is classified breaking, non-breaking or info, with its rule id, the JSON pointer in
both documents, the operations it reaches and one sentence. A new major version (info.version
and the /vN paths both moved) turns breaking changes into info (seed 9.2).

Exit status: 0 no breaking change; 1 a breaking change within the same major version;
2 usage error or unreadable input.`;

export function diffCommand(argv: string[], io: CommandIo, cwd = process.cwd()): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { format: { type: 'string' }, 'list-rules': { type: 'boolean' }, json: { type: 'boolean' }, help: { type: 'boolean' } },
    });
  } catch (error) {
    io.err(`decision-conformance diff: ${(error as Error).message}\nSee "decision-conformance diff --help".\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(`${DIFF_USAGE}\n`);
    return 0;
  }
  if (values['list-rules']) {
    io.out(`${formatRuleCatalogue(values.json === true)}\n`);
    return 0;
  }
  const format = (values.format ?? 'text') as DiffFormat;
  if (!DIFF_FORMATS.includes(format)) {
    io.err(`decision-conformance diff: --format must be one of ${DIFF_FORMATS.join(', ')}; got "${values.format}"\n`);
    return 2;
  }
  if (positionals.length !== 2) {
    io.err(`decision-conformance diff: give two specs, OLD and NEW; got ${positionals.length}\nSee "decision-conformance diff --help".\n`);
    return 2;
  }
  const [oldSource, newSource] = positionals as [string, string];
  let result;
  try {
    result = diffDocuments(loadSpec(oldSource, cwd), loadSpec(newSource, cwd));
  } catch (error) {
    if (!(error instanceof UnreadableSpec)) {
      io.err(`decision-conformance diff: cannot compare ${oldSource} with ${newSource}: ${(error as Error).message}\n`);
      return 2;
    }
    io.err(`decision-conformance diff: ${error.message}\n`);
    return 2;
  }
  io.out(`${formatDiff(result, format, { old: oldSource, new: newSource })}\n`);
  return result.counts.breaking > 0 ? 1 : 0;
}

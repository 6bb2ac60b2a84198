// The diff's three outputs: text for a terminal, JSON for tools, Markdown for a pull-request
// comment or a CI job summary.
import type { DiffResult } from './diff.ts';
import type { Finding } from './model.ts';
import { markdownCode, stripUnprintable, terminalText } from '../reports/escape.ts';
import { rules } from './registry.ts';
import { witnessLine } from './witness-line.ts';

export type DiffFormat = 'text' | 'json' | 'markdown';
export const DIFF_FORMATS: readonly DiffFormat[] = ['text', 'json', 'markdown'];

export function verdictLine(result: DiffResult): string {
  const { breaking, 'non-breaking': nonBreaking, info } = result.counts;
  const head =
    breaking > 0
      ? `${breaking} breaking change${breaking === 1 ? '' : 's'}`
      : result.majors.changed
        ? 'no breaking change (new major version: breaking changes are reported as info)'
        : 'no breaking change';
  return `${head}; ${nonBreaking} non-breaking, ${info} info.`;
}

const pointers = (f: Finding) => (f.oldPointer === f.newPointer ? f.newPointer : `${f.oldPointer} -> ${f.newPointer}`);
const extras = (f: Finding) =>
  [
    f.openPoint ? `open point ${f.openPoint}` : '',
    f.hardRuleSections ? `hard-rule section ${f.hardRuleSections.join(', ')}` : '',
    f.downgradedFrom ? 'breaking, allowed by the new major version' : '',
    f.valueSets === 'same' ? 'the same values in another shape: not breaking' : '',
    f.valueSets === 'included' ? 'every value valid before is still valid on this side: not breaking' : '',
    f.valueSets === 'lost' ? 'the rule judged it harmless, but the witness shows a value lost: breaking' : '',
  ].filter(Boolean);

export function formatDiff(result: DiffResult, format: DiffFormat, labels: { old: string; new: string }): string {
  if (format === 'json') {
    return JSON.stringify(
      {
        old: labels.old,
        new: labels.new,
        verdict: verdictLine(result),
        major_version_changed: result.majors.changed,
        counts: result.counts,
        findings: result.findings,
      },
      null,
      2,
    );
  }
  if (format === 'markdown') return markdown(result, labels);
  const lines = [`${labels.old} -> ${labels.new}: ${verdictLine(result)}`];
  for (const f of result.findings) {
    lines.push(`${f.class.toUpperCase().padEnd(12)} ${f.ruleId}  ${f.message}`);
    lines.push(
      `${''.padEnd(13)}at ${pointers(f)}${f.operations.length > 0 ? `  [${f.operations.join(', ')}]` : ''}${extras(f).length > 0 ? `  (${extras(f).join('; ')})` : ''}`,
    );
    if (f.witness) lines.push(`${''.padEnd(13)}witness: ${witnessLine(f.witness)}`);
    else if (f.witnessMissing) lines.push(`${''.padEnd(13)}no witness: ${f.witnessMissing}`);
  }
  // Messages, pointers and witnesses carry the documents' own text: none of it acts on the terminal.
  return lines.map(terminalText).join('\n');
}

const cell = (text: string) => stripUnprintable(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');

function markdown(result: DiffResult, labels: { old: string; new: string }): string {
  const icon = result.counts.breaking > 0 ? '❌' : '✅';
  const lines = [`## Spec changes: ${icon} ${verdictLine(result)}`, '', `Compared \`${labels.old}\` with \`${labels.new}\`.`, ''];
  if (result.findings.length === 0) return [...lines, 'No change to the API description.'].join('\n');
  lines.push('| class | rule | change | where | operations |', '| --- | --- | --- | --- | --- |');
  for (const f of result.findings) {
    const note = extras(f).length > 0 ? ` _(${extras(f).join('; ')})_` : '';
    lines.push(`| ${f.class} | \`${f.ruleId}\` | ${cell(f.message)}${cell(note)} | \`${cell(pointers(f))}\` | ${cell(f.operations.join(', '))} |`);
  }
  const proved = result.findings.filter((f) => f.class === 'breaking' && (f.witness || f.witnessMissing));
  if (proved.length > 0) lines.push('', '### Witnesses', '');
  for (const f of proved) {
    const proof = f.witness ? markdownCode(witnessLine(f.witness)) : `no witness: ${cell(f.witnessMissing!)}`;
    lines.push(`- \`${f.ruleId}\` at \`${cell(pointers(f))}\`: ${proof}`);
  }
  return lines.join('\n');
}

export function formatRuleCatalogue(json: boolean): string {
  if (json) return JSON.stringify(rules, null, 2);
  const width = Math.max(...rules.map((r) => r.id.length));
  return rules.map((r) => `${r.id.padEnd(width)}  ${r.direction.padEnd(8)}  ${r.class.padEnd(12)}  ${r.description}`).join('\n');
}

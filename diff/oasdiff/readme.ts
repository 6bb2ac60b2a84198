// The generated parts of diff/README.md: the keyword table and the oasdiff coverage table, each
// between its markers. `npx tsx diff/oasdiff/readme.ts` rewrites them; a test fails when the
// README is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { KEYWORDS } from '../keywords.ts';
import { OASDIFF_VERSION } from './checks.ts';
import { coverageRows } from './coverage.ts';

export const README_PATH = fileURLToPath(new URL('../README.md', import.meta.url));

const cell = (text: string) => text.replace(/\|/g, '\\|');

export function keywordTable(): string {
  const rows = KEYWORDS.map((k) => {
    const logic =
      k.logic.kind === 'bound'
        ? `bound: a ${k.logic.narrows} value narrows${k.logic.default === undefined ? '' : ` (absent = ${k.logic.default})`}`
        : k.logic.kind;
    return `| \`${k.keyword}\` | ${k.vocabulary} | ${logic} | ${k.family} |`;
  });
  return ['| keyword | vocabulary | direction logic | judged by |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

export function coverageTable(): string {
  const rows = coverageRows();
  const count = (kind: 'covered' | 'na' | 'missing') => rows.filter((row) => kind in row.coverage).length;
  const lines = rows.map(({ check, level, coverage }) => {
    const what =
      'covered' in coverage
        ? [...(coverage.walked ? ["walked against `{}`: its subschema's own keyword rules"] : []), ...coverage.covered.map((id) => `\`${id}\``)].join(', ')
        : 'na' in coverage
          ? cell(coverage.na)
          : `not covered: ${cell(coverage.missing)}`;
    return `| \`${check}\` | ${level} | ${what} |`;
  });
  return [
    `oasdiff ${OASDIFF_VERSION}, ${rows.length} checks at level ERR or WARN: ${count('covered')} covered, ${count('na')} n/a, ${count('missing')} not covered.`,
    '',
    '| oasdiff check | level | kit rule |',
    '| --- | --- | --- |',
    ...lines,
  ].join('\n');
}

const SECTIONS: ReadonlyArray<[string, () => string]> = [
  ['keyword-table', keywordTable],
  ['oasdiff-coverage', coverageTable],
];

/** The README with every generated section replaced by its current rendering. */
export function renderReadme(readme: string): string {
  return SECTIONS.reduce((text, [name, render]) => {
    const start = `<!-- ${name}:start -->`;
    const end = `<!-- ${name}:end -->`;
    const from = text.indexOf(start);
    const to = text.indexOf(end);
    if (from < 0 || to < from) throw new Error(`diff/README.md has no ${start} ... ${end} section`);
    return `${text.slice(0, from + start.length)}\n${render()}\n${text.slice(to)}`;
  }, readme);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(README_PATH, renderReadme(readFileSync(README_PATH, 'utf8')));
}

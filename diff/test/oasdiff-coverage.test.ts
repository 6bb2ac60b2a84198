// The oasdiff coverage table: every kit rule it names exists, and the README shows the table
// (and the keyword table) as the code renders them now.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import {
  OASDIFF_ERROR_CHECKS,
  OASDIFF_KEYWORD_ERROR_CHECKS,
  OASDIFF_KEYWORD_WARNING_CHECKS,
  OASDIFF_POLICY_ERROR_CHECKS,
  OASDIFF_WARNING_CHECKS,
} from '../oasdiff/checks.ts';
import { coverageRows } from '../oasdiff/coverage.ts';
import { README_PATH, renderReadme } from '../oasdiff/readme.ts';
import { rules } from '../registry.ts';

test('every kit rule the coverage table names is a rule of the registry', () => {
  const ids = new Set(rules.map((r) => r.id));
  for (const row of coverageRows()) if ('covered' in row.coverage) for (const id of row.coverage.covered) expect(ids, `${row.check} -> ${id}`).toContain(id);
});

test('each oasdiff check is listed once', () => {
  const checks = [
    ...OASDIFF_ERROR_CHECKS,
    ...OASDIFF_WARNING_CHECKS,
    ...OASDIFF_KEYWORD_ERROR_CHECKS,
    ...OASDIFF_KEYWORD_WARNING_CHECKS,
    ...OASDIFF_POLICY_ERROR_CHECKS,
  ];
  expect(new Set(checks).size).toBe(checks.length);
});

test('diff/README.md shows the generated tables as they are now (npx tsx diff/oasdiff/readme.ts)', () => {
  const readme = readFileSync(README_PATH, 'utf8');
  expect(renderReadme(readme)).toBe(readme);
});

// The file lists of vitest.config.ts's projects hold: every test file that needs a process of its
// own is in one (test/projects.ts says which need it and why), and every listed file exists.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { ISOLATED, MEASURING, NEEDS_ISOLATION } from './projects.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** This file: its samples below match what it looks for. */
const SELF = relative(ROOT, fileURLToPath(import.meta.url));

function testFiles(folder = ROOT): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name.startsWith('.') || entry.name === 'dist') return [];
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(ROOT, path)] : [];
  });
}

test('what needs a process of its own is found: reading its memory, mocking a module', () => {
  expect(NEEDS_ISOLATION.test('const rss = process.memoryUsage().rss;')).toBe(true);
  expect(NEEDS_ISOLATION.test('process.memoryUsage.rss()')).toBe(true);
  expect(NEEDS_ISOLATION.test("vi.mock('../store.ts', () => ({}));")).toBe(true);
  expect(NEEDS_ISOLATION.test('vi.useFakeTimers(); vi.spyOn(console, "log");')).toBe(false);
});

test('every test file that needs a process of its own runs in one, and every listed file exists', () => {
  const files = testFiles().filter((file) => file !== SELF);
  const needing = files.filter((file) => NEEDS_ISOLATION.test(readFileSync(join(ROOT, file), 'utf8')));
  expect(needing.filter((file) => !ISOLATED.includes(file) && !MEASURING.includes(file))).toEqual([]);
  // Not more than needed: a file listed without the reason runs alone for nothing.
  expect(ISOLATED.filter((file) => !needing.includes(file))).toEqual([]);
  for (const file of [...ISOLATED, ...MEASURING]) expect(files).toContain(file);
});

// bench:ref prints what a variable of the environment costs every Node start: the figure must
// show a variable that slows Node down, and show nothing for one that does not. Both tests allow
// the same 150 ms of noise between medians: the suite runs beside other test files, and on a busy
// day a 300 ms spin once read as 249 ms, so the spin is long enough that noise cannot hide it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { nodeStartCost } from '../bench/node-start-cost.ts';

const saved = process.env.NODE_OPTIONS;
const folders: string[] = [];
afterEach(() => {
  if (saved === undefined) delete process.env.NODE_OPTIONS;
  else process.env.NODE_OPTIONS = saved;
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

test('a variable that makes every Node start spin for 600 ms costs about that much', { timeout: 30_000 }, () => {
  const folder = mkdtempSync(join(tmpdir(), 'node-start-cost-'));
  folders.push(folder);
  const spin = join(folder, 'spin.cjs');
  writeFileSync(spin, 'const end = Date.now() + 600; while (Date.now() < end);\n');
  process.env.NODE_OPTIONS = `--require ${spin}`;
  const cost = nodeStartCost(['NODE_OPTIONS'], 5);
  expect(cost.asIs - cost.without).toBeGreaterThan(600 - 150);
});

test('a variable Node ignores costs nothing worth printing', { timeout: 30_000 }, () => {
  process.env.DECISION_KIT_UNUSED = 'x';
  try {
    // Medians of 9 starts in turns: on a machine with more runnable processes than cores, one start
    // in a few waits a scheduler slice or more, and a median of 3 can pick it.
    const cost = nodeStartCost(['DECISION_KIT_UNUSED'], 9);
    expect(Math.abs(cost.asIs - cost.without)).toBeLessThan(150);
  } finally {
    delete process.env.DECISION_KIT_UNUSED;
  }
});

// decision-conformance load: exit statuses of compare (0 no regression, 1 regression, 2 usage)
// and of run's usage errors, and the one line saying which generator runs.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import type { LoadRun } from '../../reports/load-run.ts';
import { loadCommand } from '../load.ts';

const scratch = mkdtempSync(join(tmpdir(), 'load-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const run = (throughput: number, p50: number) => ({ scenario: 'decide-capacity', throughput_rps: throughput, error_rate: 0, latency: { all: { count: 10, p50_ms: p50, p90_ms: p50, p95_ms: p50 * 2, p99_ms: p50 * 3, max_ms: p50 * 3 } } }) as unknown as LoadRun;
const folder = (name: string, runs: LoadRun[]) => {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'results.json'), JSON.stringify({ load: { scenario: 'decide-capacity', runs } }));
  return dir;
};

const call = async (...argv: string[]) => {
  let out = '';
  let err = '';
  const code = await loadCommand(argv, {}, (text) => (out += text), (text) => (err += text));
  return { code, out, err };
};

test('compare: 0 without a regression, 1 with one, 2 for usage errors', async () => {
  const baseline = folder('baseline', [run(1000, 4), run(1010, 4), run(990, 4)]);
  const same = folder('same', [run(1005, 4), run(995, 4), run(1000, 4)]);
  const slower = folder('slower', [run(600, 9), run(610, 9), run(590, 9)]);
  expect((await call('compare', '--baseline', baseline, '--candidate', same)).code).toBe(0);
  const regression = await call('compare', '--baseline', baseline, '--candidate', slower);
  expect(regression.code).toBe(1);
  expect(regression.out).toMatch(/^REGRESSION/);
  expect((await call('compare', '--baseline', baseline)).code).toBe(2);
  expect((await call('compare', '--baseline', join(scratch, 'missing'), '--candidate', same)).err).toMatch(/no such folder/);
  expect((await call('compare', '--baseline', baseline, '--candidate', same, '--tolerance', 'speed=1')).code).toBe(2);
});

test('run: an unknown scenario, a bad URL or a URL without a key is a usage error', async () => {
  expect((await call('run', '--scenario', 'nope')).err).toMatch(/--scenario must be one of/);
  expect((await call('run', '--scenario', 'mixed', '--base-url', 'ftp://x')).code).toBe(2);
  expect((await call('run', '--scenario', 'mixed', '--base-url', 'http://127.0.0.1:1')).err).toMatch(/needs a key/);
  expect((await call('run', '--scenario', 'mixed', '--k6', join(scratch, 'no-k6'))).err).toMatch(/not an executable file/);
});

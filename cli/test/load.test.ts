// decision-conformance load: exit statuses of compare (0 no regression, 1 regression, 2 usage)
// and of run's usage errors, and the one line saying which generator runs; a load run's results
// are of their own kind, and each reader takes only the kind it reads.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { readRecordedExchanges } from '../../replay/recorded.ts';
import type { LoadRun } from '../../reports/load-run.ts';
import { startEmbeddedTarget } from '../../api/embedded-target.ts';
import { runLoadCommand } from './support/load-command.ts';

const scratch = mkdtempSync(join(tmpdir(), 'load-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const run = (throughput: number, p50: number) =>
  ({
    scenario: 'decide-capacity',
    generator: { name: 'node', version: 'v20' },
    throughput_rps: throughput,
    error_rate: 0,
    latency: { all: { count: 10, p50_ms: p50, p90_ms: p50, p95_ms: p50 * 2, p99_ms: p50 * 3, max_ms: p50 * 3 } },
  }) as unknown as LoadRun;
const folder = (name: string, runs: LoadRun[]) => {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'results.json'), JSON.stringify({ load: { scenario: 'decide-capacity', runs } }));
  return dir;
};

test('compare: 0 without a regression, 1 with one, 2 for usage errors', async () => {
  const baseline = folder('baseline', [run(1000, 4), run(1010, 4), run(990, 4)]);
  const same = folder('same', [run(1005, 4), run(995, 4), run(1000, 4)]);
  const slower = folder('slower', [run(600, 9), run(610, 9), run(590, 9)]);
  expect((await runLoadCommand('compare', '--baseline', baseline, '--candidate', same)).code).toBe(0);
  const regression = await runLoadCommand('compare', '--baseline', baseline, '--candidate', slower);
  expect(regression.code).toBe(1);
  expect(regression.out).toMatch(/^REGRESSION/);
  expect((await runLoadCommand('compare', '--baseline', baseline)).code).toBe(2);
  expect((await runLoadCommand('compare', '--baseline', join(scratch, 'missing'), '--candidate', same)).err).toMatch(/no such folder/);
  expect((await runLoadCommand('compare', '--baseline', baseline, '--candidate', same, '--tolerance', 'speed=1')).code).toBe(2);
});

test('compare by URL: measures both sides in turns and decides; one form at a time, each URL with a key', { timeout: 60_000 }, async () => {
  const target = await startEmbeddedTarget();
  try {
    const compared = await runLoadCommand(
      'compare',
      '--baseline-url',
      target.baseUrl,
      '--baseline-key',
      target.keyA,
      '--candidate-url',
      target.baseUrl,
      '--candidate-key',
      target.keyA,
      '--node',
      // An open loop at a rate the Node runner keeps up with: a closed loop would measure the runner (generator-bound, no verdict).
      '--scenario',
      'decide-steady',
      '--rate',
      '20',
      '--duration',
      '1',
      '--repeat',
      '2',
    );
    expect(compared.out).toMatch(/baseline 1\/2[\s\S]*candidate 1\/2[\s\S]*candidate 2\/2[\s\S]*baseline 2\/2/);
    expect(compared.out).toMatch(/2 baseline runs \(node v[\d.]+, nearest-rank\) vs 2 candidate runs/);
    // Two short runs a side say nothing reliable about noise (compare.test.ts measures that): here,
    // that it decided, or refused to because a run fell behind its schedule. 20 iterations a run
    // leave no slack: on a machine with more work than cores, one iteration started late makes a
    // run generator-bound, and refusing to judge it is the right answer (generator-health.ts).
    if (compared.code === 2)
      expect(compared.err).toMatch(/cannot judge the server: the generator set the pace in \d+ of 4 runs, e\.g\. \w+ run \d \(fell behind its schedule/);
    else expect([0, 1]).toContain(compared.code);
  } finally {
    await target.stop();
  }
  expect((await runLoadCommand('compare', '--baseline', 'a', '--candidate-url', 'http://127.0.0.1:1')).err).toMatch(/either --baseline DIR/);
  expect((await runLoadCommand('compare', '--baseline-url', 'http://127.0.0.1:1', '--candidate-url', 'http://127.0.0.1:2')).err).toMatch(
    /--baseline-url needs a key/,
  );
  expect(
    (
      await runLoadCommand(
        'compare',
        '--baseline-url',
        'http://127.0.0.1:1',
        '--candidate-url',
        'http://127.0.0.1:2',
        '--baseline-key',
        'k',
        '--candidate-key',
        'k',
        '--order',
        'aabb',
      )
    ).code,
  ).toBe(2);
});

test('run: an unknown scenario, a bad URL or a URL without a key is a usage error', async () => {
  expect((await runLoadCommand('run', '--scenario', 'nope')).err).toMatch(/--scenario must be one of/);
  expect((await runLoadCommand('run', '--scenario', 'mixed', '--base-url', 'ftp://x')).code).toBe(2);
  expect((await runLoadCommand('run', '--scenario', 'mixed', '--base-url', 'http://127.0.0.1:1')).err).toMatch(/needs a key/);
  expect((await runLoadCommand('run', '--scenario', 'mixed', '--k6', join(scratch, 'no-k6'))).err).toMatch(/not an executable file/);
});

test('run writes a load run of its own kind: the load verdict heads its report, no conformance section or placeholder', { timeout: 120_000 }, async () => {
  const dir = join(scratch, 'steady');
  const ran = await runLoadCommand('run', '--scenario', 'decide-steady', '--node', '--duration', '1', '--rate', '10', '--repeat', '1', '--report-dir', dir);
  expect([0, 1]).toContain(ran.code);
  const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as Record<string, unknown>;
  expect(results.kind).toBe('load');
  for (const field of ['seed', 'suites', 'warmup', 'summary', 'checks', 'open_points']) expect(results).not.toHaveProperty(field);
  const page = readFileSync(join(dir, 'report.html'), 'utf8');
  // A busy machine may miss a threshold in one second of load: the headline says which, either way.
  const headline = /<h1 id="verdict">([^<]*)<\/h1>/.exec(page)?.[1];
  expect(headline).toMatch(
    ran.code === 0 ? /^Load decide-steady: every threshold held in 1 run \(node / : /^Load decide-steady: thresholds missed in 1 of 1 runs/,
  );
  expect(page).not.toContain('NOTHING RAN');
  for (const id of ['summary', 'areas', 'failures', 'open-points', 'skipped', 'all-checks']) expect(page).not.toContain(`<section id="${id}"`);
  expect(readFileSync(join(dir, 'summary.md'), 'utf8').split('\n')[0]).toContain(headline!);

  // The folder feeds load compare; a conformance reader refuses it, and load compare refuses a conformance run.
  expect((await runLoadCommand('compare', '--baseline', dir, '--candidate', dir)).code).toBe(0);
  expect(() => readRecordedExchanges(join(dir, 'results.json'))).toThrow(/holds a load run: replay reads the exchanges of a conformance run/);
  expect((await runLoadCommand('run', '--scenario', 'mixed', '--from-results', dir)).err).toMatch(/holds a load run; it takes a conformance run's results/);
  const conformance = folder('conformance', []);
  writeFileSync(join(conformance, 'results.json'), JSON.stringify({ schema_version: 2, kind: 'conformance', checks: [] }));
  expect((await runLoadCommand('compare', '--baseline', conformance, '--candidate', dir)).err).toMatch(/holds a conformance run, not a load run/);
});

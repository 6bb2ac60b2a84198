// How a run is split over k6 processes, and the command that splits it: the segments each process
// runs, the flags `load run --instances` gives each k6 process (the same the k6-operator TestRun
// gives pods), and the command's report. The measurements of split runs are distributed-run.test.ts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { runKitCommand } from '../../harness/testing/kit-command.ts';
import { segmentOf } from '../k6.ts';
import { k6SampleOutput } from '../k6-samples.ts';
import { k6ForTests, LATENCY_OUT_OF_REACH_FLAGS, NO_K6 } from './support.ts';

const k6 = k6ForTests();
if (!k6) console.warn(NO_K6);

test('the sequence and segments of N equal parts, as k6 writes them', () => {
  expect(segmentOf(1, 0)).toEqual({ segment: '0:1', sequence: '0,1' });
  expect(segmentOf(4, 0)).toEqual({ segment: '0:1/4', sequence: '0,1/4,2/4,3/4,1' });
  expect(segmentOf(4, 3)).toEqual({ segment: '3/4:1', sequence: '0,1/4,2/4,3/4,1' });
});

test('the k6-operator TestRun gives each pod the flags `load run --instances` gives each k6 process', () => {
  const testRun = parse(readFileSync(new URL('../k6-operator/testrun.yaml', import.meta.url), 'utf8'));
  const args: string = testRun.spec.arguments;
  const expected = k6SampleOutput('/parts/samples.csv.gz');
  expect(args).toContain(expected.args.join(' '));
  expect(args).toContain('--console-output /parts/console.log');
  expect(args).toContain('-e REPORT_DIR=/parts');
  for (const [name, value] of Object.entries(expected.env)) expect(testRun.spec.runner.env).toContainEqual({ name, value });
  expect(testRun.spec.runner.volumeMounts[0]).toMatchObject({ mountPath: '/parts', subPathExpr: '$(POD_NAME)' });
});

describe.skipIf(!k6)('load run --instances', () => {
  const dir = mkdtempSync(join(tmpdir(), 'decision-instances-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('splits each run over k6 processes and reports it as one, with whether the generator kept up', { timeout: 120_000 }, async () => {
    const run = await runKit([
      'load',
      'run',
      '--scenario',
      'decide-steady',
      '--instances',
      '2',
      '--repeat',
      '1',
      '--duration',
      '2',
      '--rate',
      '20',
      '--report-dir',
      dir,
      ...LATENCY_OUT_OF_REACH_FLAGS,
    ]);
    expect(run.code, run.out + run.err).toBe(0);
    // Whether it kept up is said either way: with no idle CPU (a core kept busy) it is "not shown to keep up", never bound.
    expect(run.out).toMatch(
      /generator (?:kept up|not shown to keep up \([^)]*\)); planned 20\/s, achieved [\d.]+ iterations\/s; generator [\d.]+ cores, server [\d.]+ cores, idle [\d.]+ \(of \d+\)/,
    );
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    expect(results.load.runs[0].parts).toEqual({ count: 2, sequence: '0,1/2,1' });
    expect(results.load.runs[0].generator_health.bound).toBe(false);
  });

  test('the Node runner does not split: exit 2, saying why', async () => {
    const run = await runKitCommand(['load', 'run', '--scenario', 'decide-steady', '--node', '--instances', '2']);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/--instances needs k6 .*the Node runner runs in one process/);
  });
});

/** The command with this test's k6. */
const runKit = (args: string[]) => runKitCommand(args, { K6_BIN: k6! });

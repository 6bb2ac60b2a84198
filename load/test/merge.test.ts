// `load merge`: the parts of one distributed run judged as one run, and every set of parts that
// is not one run refused with exit 2 and a one-line reason. Parts are written here as pods leave
// them (load.json, samples.csv.gz); the runs of real k6 processes are in distributed-run.test.ts.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, test } from 'vitest';
import type { LoadRun } from '../../reports/load-run.ts';
import { flat, sampleLoadRun } from '../../reports/test/sample-load.ts';
import { checkParts, MergeRefusal, mergeParts, readPart, type RunPart } from '../merge.ts';
import { runKitCommand } from './support.ts';

const root = mkdtempSync(join(tmpdir(), 'decision-merge-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SEQUENCE = '0,1/4,1/2,3/4,1';
const SPEC = { version: '1.0.0', sha256: 'a'.repeat(64) };
const CSV_HEADER = 'metric_name,timestamp,metric_value,check,group,name,status,extra_tags,metadata';

/** A part's load.json as k6-adapter.js writes it for segment `segment`. */
const partRun = (segment: string | undefined, change: Partial<LoadRun> = {}): LoadRun => ({
  ...sampleLoadRun(true, flat),
  percentile_method: 'k6-trend',
  spec: SPEC,
  ...(segment ? { execution_segment: { segment, sequence: SEQUENCE } } : {}),
  limits: { thresholds: { p95Ms: 250, p99Ms: 500, errorRate: 0.01, checkRate: 0.99 }, timeline_window_s: 1 },
  ...change,
});

/** k6's CSV rows of `durations` (ms), one request each, ending 10 ms apart from `startUs`. */
const csvRows = (durations: readonly number[], startUs: number) =>
  durations.flatMap((ms, index) => [
    `http_reqs,${startUs + index * 10_000},1,,,decide,200,,`,
    `http_req_duration,${startUs + index * 10_000},${ms},,,decide,200,,`,
  ]);

let folders = 0;
/** A part's folder: load.json, and samples.csv.gz with one request per duration. */
function partFolder(run: LoadRun, durations: readonly number[] = [5], startUs = 1_700_000_000_000_000): string {
  const dir = join(root, `part-${folders++}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'load.json'), JSON.stringify({ ...run, requests: durations.length, requests_by_name: { decide: durations.length } }));
  writeFileSync(join(dir, 'samples.csv.gz'), gzipSync([CSV_HEADER, ...csvRows(durations, startUs)].join('\n')));
  return dir;
}
const parts = (...runs: LoadRun[]): RunPart[] => runs.map((run) => readPart(partFolder(run)));
const quarters = ['0:1/4', '1/4:1/2', '1/2:3/4', '3/4:1'];

describe('parts that are one run', () => {
  test('four quarters, in any order; one whole run', () => {
    expect(checkParts(parts(...[quarters[2], quarters[0], quarters[3], quarters[1]].map((segment) => partRun(segment))))).toBe(SEQUENCE);
    expect(checkParts(parts(partRun(undefined)))).toBe('');
    // A part may run several steps of the sequence.
    expect(checkParts(parts(partRun('0:1/2'), partRun('1/2:1')))).toBe(SEQUENCE);
  });
});

describe('parts that are not one run are refused, with one line naming what differs', () => {
  const refusal = (list: RunPart[]) => {
    try {
      checkParts(list);
    } catch (error) {
      expect(error).toBeInstanceOf(MergeRefusal);
      expect((error as Error).message).not.toContain('\n');
      return (error as Error).message;
    }
    return 'merged';
  };
  const fourWith = (index: number, change: Partial<LoadRun>) => parts(...quarters.map((segment, at) => partRun(segment, at === index ? change : {})));

  test.each([
    [
      'another scenario',
      fourWith(2, { scenario: 'decide-capacity' }),
      /^the parts are not one run: scenarios differ \(decide-steady in .*part-\d+, decide-capacity in .*part-\d+\)$/,
    ],
    ['another spec', fourWith(1, { spec: { version: '1.0.1', sha256: 'b'.repeat(64) } }), /spec versions \(sha256\) differ/],
    ['another server', fourWith(3, { base_url: 'http://10.0.0.9:8080' }), /servers \(base URL\) differ/],
    ['another sequence', fourWith(0, { execution_segment: { segment: '0:1/4', sequence: '0,1/4,1' } }), /segment sequences differ/],
    [
      'other thresholds',
      fourWith(0, { limits: { thresholds: { p95Ms: 100, p99Ms: 500, errorRate: 0.01, checkRate: 0.99 }, timeline_window_s: 1 } }),
      /thresholds and timeline windows differ/,
    ],
  ])('%s', (_, list, reason) => {
    expect(refusal(list)).toMatch(reason);
  });

  test('a segment missing, at the start, inside or at the end', () => {
    expect(refusal(parts(...quarters.slice(1).map((segment) => partRun(segment))))).toBe('segment 0:1/4 is missing: no part ran it');
    expect(refusal(parts(...[quarters[0]!, quarters[1]!, quarters[3]!].map((segment) => partRun(segment))))).toBe('segment 1/2:3/4 is missing: no part ran it');
    expect(refusal(parts(...quarters.slice(0, 3).map((segment) => partRun(segment))))).toBe('segment 3/4:1 is missing: no part ran it');
  });

  test('a segment doubled, or two that overlap', () => {
    expect(refusal(parts(...[...quarters, quarters[1]!].map((segment) => partRun(segment))))).toMatch(
      /^segment 1\/4:1\/2 is doubled: .*part-\d+ and .*part-\d+ both ran it$/,
    );
    expect(refusal(parts(partRun('0:1/2'), partRun('1/4:3/4'), partRun('3/4:1')))).toMatch(/^segments overlap: .* ran 0:1\/2, .* ran 1\/4:3\/4$/);
  });

  test('a segment off the sequence, a whole run beside segments, a part without samples or limits', () => {
    expect(refusal(parts(partRun('0:1/3'), partRun('1/3:1')))).toMatch(/segment 0:1\/3 does not start and end on points of the sequence/);
    expect(refusal(parts(partRun(undefined), partRun('1/2:1')))).toMatch(/segment sequences differ/);
    expect(refusal(parts(partRun('0:1/2', { limits: undefined }), partRun('1/2:1')))).toMatch(/records no limits/);
    // A folder `load run` wrote (the kit's figures already in it) is a finished run, not a pod's part.
    expect(refusal(parts(partRun('0:1/2', { percentile_method: 'nearest-rank' }), partRun('1/2:1')))).toMatch(/a finished run, not a part/);
    const dir = join(root, 'no-samples');
    mkdirSync(dir);
    writeFileSync(join(dir, 'load.json'), JSON.stringify(partRun(undefined)));
    expect(() => readPart(dir)).toThrow(/no samples\.csv\.gz/);
    expect(() => readPart(join(root, 'nowhere'))).toThrow(MergeRefusal);
  });

  test('the command exits 2 with the reason on one line, and writes no report', async () => {
    const dirs = quarters.slice(1).map((segment) => partFolder(partRun(segment)));
    const reportDir = join(root, 'refused-report');
    const run = await runKitCommand('load', 'merge', ...dirs, '--report-dir', reportDir);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/^decision-conformance load: segment 0:1\/4 is missing: no part ran it\n/);
  });
});

describe('the merged run', () => {
  test('counts add up, and the percentiles and tail are those of every part together', async () => {
    // Three fast quarters and one slow: the merged tail is the slow quarter's.
    const fast = Array.from({ length: 300 }, (_, index) => 2 + (index % 10) / 10);
    const slow = Array.from({ length: 300 }, () => 80);
    const dirs = quarters.map((segment, index) => partFolder(partRun(segment), index === 2 ? slow : fast, 1_700_000_000_000_000 + index * 1000));
    const merged = await mergeParts(dirs.map(readPart));
    expect(merged).toMatchObject({
      requests: 1200,
      requests_by_name: { decide: 1200 },
      iterations: 160,
      parts: { count: 4, sequence: SEQUENCE },
      percentile_method: 'nearest-rank',
    });
    expect(merged.latency.all!.count).toBe(1200);
    expect(merged.latency.all!.p50_ms).toBeLessThan(3.1);
    // 300 of 1,200 requests took 80 ms: p95 and p99 lie in them.
    expect(merged.latency.all!.p95_ms).toBeCloseTo(80, 0);
    expect(merged.latency.all!.max_ms).toBeCloseTo(80, 0);
    expect(merged.thresholds.find((threshold) => threshold.condition === 'p(95)<250')?.ok).toBe(true);
  });

  test('the command writes a report folder that load compare reads like any other', async () => {
    const dirs = quarters.map((segment) =>
      partFolder(
        partRun(segment),
        Array.from({ length: 400 }, (_, index) => 1 + (index % 7)),
      ),
    );
    const reportDir = join(root, 'merged-report');
    const merge = await runKitCommand('load', 'merge', ...dirs, '--report-dir', reportDir);
    expect(merge.err).toBe('');
    expect(merge.code).toBe(0);
    expect(merge.out).toMatch(/^merged 4 parts \(sequence 0,1\/4,1\/2,3\/4,1\): thresholds held; 1600 requests/);
    const compare = await runKitCommand('load', 'compare', '--baseline', reportDir, '--candidate', reportDir);
    expect(compare.code).toBe(0);
    expect(compare.out).toMatch(/^no regression: decide-steady, 1 baseline runs/);
  });
});

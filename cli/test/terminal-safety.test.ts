// Nothing a server sends can drive the terminal: against a server that plants control sequences
// in every text it controls, `run --verbose`, `replay` and `load run` print them escaped (\u001b,
// \u000d...), and the reports carry none of them raw.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../api/embedded-target.ts';
import type { CheckResult } from '../../harness/check.ts';
import { runKitCommand, type CommandRun } from '../../harness/testing/kit-command.ts';
import type { RunningProxy } from '../../harness/testing/mutating-proxy.ts';
import { stripUnprintable, terminalText } from '../../reports/escape.ts';
import { createProgress } from '../progress.ts';
import { HOSTILE, RAW_CONTROL, rawControlLines, startHostileProxy } from './support/hostile-target.ts';

/** Every character of the set, one at a time, and how the terminal is shown it. */
const ESCAPED: Array<[string, string]> = [
  ['\u0000', '\\u0000'],
  ['\u0007', '\\u0007'],
  ['\u0008', '\\u0008'],
  ['\u000b', '\\u000b'],
  ['\u000c', '\\u000c'],
  ['\r', '\\u000d'],
  ['\u001b', '\\u001b'],
  ['\u007f', '\\u007f'],
  ['\u0085', '\\u0085'],
  ['\u009b', '\\u009b'],
  ['\u009f', '\\u009f'],
  ['\ud800', '\\ud800'],
  ['\udfff', '\\udfff'],
  ['\ufffe', '\\ufffe'],
];

describe('terminalText', () => {
  test('writes out every character of the set as a visible \\u escape', () => {
    for (const [raw, shown] of ESCAPED) expect(terminalText(`a${raw}b`)).toBe(`a${shown}b`);
    expect(terminalText(HOSTILE.a)).toBe('\\u001b]0;pwned\\u0007\\u001b[2J\\u000dHIDDEN\\u0007\\u009b31m\\ud800\\u007f');
  });

  test('keeps tab, line feed, printable text and surrogate pairs; escaping twice changes nothing', () => {
    const text = 'tab\there\nnext line: naïve ✓ 😀 \\u001b stays as written';
    expect(terminalText(text)).toBe(text);
    const once = terminalText(HOSTILE.b);
    expect(terminalText(once)).toBe(once);
    expect(once).not.toMatch(RAW_CONTROL);
  });

  test('covers what the reports strip, and the carriage return besides', () => {
    for (const [raw] of ESCAPED) {
      if (raw !== '\r') expect(stripUnprintable(raw)).toBe('');
    }
    expect(stripUnprintable('\r')).toBe('\r');
  });
});

describe('the progress of a run', () => {
  const hostileResult = (status: CheckResult['status']): CheckResult => ({
    id: `CHECK-${HOSTILE.a}`,
    level: 'MUST',
    area: `area${HOSTILE.b}`,
    seedSections: ['7'],
    title: `title${HOSTILE.a}`,
    status,
    durationMs: 3,
    message: `Expected code INVALID_REQUEST; observed ${HOSTILE.a}`,
    observation: { summary: `status 400 with code ${HOSTILE.b}` },
    notes: [],
    exchanges: [
      {
        request: { method: 'GET', url: 'http://x/v1/models', headers: {}, bodyBytes: 0 },
        startedAtMs: 0,
        durationMs: 1,
        curl: `curl -X GET 'http://x/v1/assets/asset_1${HOSTILE.a}'`,
      },
    ],
  });

  test('on a colour terminal, only the command line’s own sequences reach it: colours and the live-line rewrite', () => {
    let written = '';
    const progress = createProgress({ tty: true, color: true, quiet: false, verbose: true, write: (text) => (written += text) });
    const check = { ...hostileResult('fail'), run: async () => {} };
    progress.start(check);
    progress.announce(check, `waiting for ${HOSTILE.b}`);
    progress.result(hostileResult('fail'));
    progress.result(hostileResult('observed'));
    progress.line(`Decision Service conformance: ${HOSTILE.a}`);
    expect(written).toContain('\r\u001b[2K');
    expect(written).toContain('\u001b[31m✗\u001b[0m');
    expect(written).toContain('\u001b[90m');
    const own = written.replace(/\r\u001b\[2K|\u001b\[\d+m/g, '');
    expect(own).not.toMatch(RAW_CONTROL);
    expect(own).toContain(terminalText(HOSTILE.a));
    expect(own).toContain(`observed: status 400 with code ${terminalText(HOSTILE.b)}`);
    expect(own).toContain(`curl -X GET 'http://x/v1/assets/asset_1${terminalText(HOSTILE.a)}'`);
  });
});

describe('against a server that plants control sequences in everything it sends', () => {
  let target: EmbeddedTarget;
  let hostile: RunningProxy;
  let otherwiseHostile: RunningProxy;
  let reportDir: string;
  let ran: CommandRun;
  const folders: string[] = [];
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'decision-terminal-'));
    folders.push(dir);
    return dir;
  };
  /** No raw character of the set on either stream, and no key. */
  const expectSafe = (command: CommandRun) => {
    expect(rawControlLines(command.out).map((line) => JSON.stringify(line))).toEqual([]);
    expect(rawControlLines(command.err).map((line) => JSON.stringify(line))).toEqual([]);
    for (const key of [target.keyA, target.keyB]) expect(command.out + command.err).not.toContain(key);
  };
  /** The report files carry no raw character a terminal acts on either (a carriage return is written as &#13; in markup). */
  const expectReportsClean = (dir: string) => {
    for (const file of ['junit.xml', 'report.html', 'summary.md']) {
      const text = readFileSync(join(dir, file), 'utf8');
      expect(stripUnprintable(text) === text, `${file} carries an unprintable character`).toBe(true);
      expect(
        rawControlLines(text).map((line) => JSON.stringify(line.slice(0, 200))),
        `${file} carries a raw control character`,
      ).toEqual([]);
    }
    // results.json is JSON: it escapes control characters itself, and reads back with the server's text whole.
    return JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as unknown;
  };

  beforeAll(async () => {
    target = await startEmbeddedTarget();
    hostile = await startHostileProxy(target.baseUrl, 'a');
    otherwiseHostile = await startHostileProxy(target.baseUrl, 'b');
    reportDir = folder();
    ran = await runKitCommand([
      'run',
      '--base-url',
      hostile.baseUrl,
      '--api-key',
      target.keyA,
      '--api-key-b',
      target.keyB,
      '--verbose',
      '--report-dir',
      reportDir,
    ]);
  });
  afterAll(async () => {
    await hostile?.close();
    await otherwiseHostile?.close();
    await target?.stop();
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  test('run --verbose prints the messages, observations and curl lines with the sequences escaped', () => {
    expect(ran.code, ran.err).toBe(1);
    expectSafe(ran);
    const shown = terminalText(HOSTILE.a);
    // Error codes read from JSON bodies, in failure messages and observations.
    expect(ran.out).toMatch(/observed: status \d{3} with code \\u001b\]0;pwned\\u0007\\u001b\[2J\\u000dHIDDEN/);
    expect(ran.out).toContain(shown);
    // Curl lines of failed checks, whose JSON bodies carry ids the server made (asset ids): JSON
    // escapes the C0 controls in them, not C1 and DEL, which come out escaped all the same.
    expect(ran.out.split('\n').some((line) => line.trimStart().startsWith('curl ') && line.includes('HIDDEN\\u0007\\u009b31m\\ud800\\u007f'))).toBe(true);
    // Headers reach the kit as Latin-1: their C1 controls (X-Request-ID) are escaped too.
    expect(ran.out).toContain('\\u009b2J\\u0085\\u009d0;pwned\\u009c');
    const results = expectReportsClean(reportDir) as { checks: Array<{ message?: string }> };
    expect(results.checks.some((check) => check.message?.includes(HOSTILE.a))).toBe(true);
  });

  test('replay prints changed outcomes, broken rules and their curl lines escaped, as text and as JSON', async () => {
    const results = join(reportDir, 'results.json');
    const args = ['replay', '--results', results, '--base-url', otherwiseHostile.baseUrl, '--api-key', target.keyA, '--api-key-b', target.keyB];
    const text = await runKitCommand(args);
    expect(text.code, text.err).toBe(1);
    expectSafe(text);
    expect(text.out).toMatch(/^CHANGED {2}#\d+ .*became .*\\u001b\[1A\\u000d\\u001b\[2Kok/m);
    expect(text.out).toMatch(/^RULE {5}request-id .*\\u009b2J/m);
    // The JSON format writes the same verdicts: a replay of the exchanges of a few checks the text
    // replay saw changed shows it, without a second full replay.
    const changedChecks = new Set([...text.out.matchAll(/^CHANGED {2}#\d+ ([A-Z0-9-]+):/gm)].map((match) => match[1]).slice(0, 5));
    expect(changedChecks.size).toBeGreaterThan(0);
    const recorded = JSON.parse(readFileSync(results, 'utf8')) as { checks: Array<{ id: string }> };
    const fewChecks = join(reportDir, 'results-changed.json');
    writeFileSync(fewChecks, JSON.stringify({ ...recorded, checks: recorded.checks.filter((check) => changedChecks.has(check.id)) }));
    const json = await runKitCommand([...args.map((arg) => (arg === results ? fewChecks : arg)), '--format', 'json']);
    expect(json.code, json.err).toBe(1);
    expectSafe(json);
    // The JSON output is the same value: C1 and DEL written as \u escapes are still JSON.
    const parsed = JSON.parse(json.out) as { changed: Array<{ changes: string[] }> };
    expect(parsed.changed.some((change) => change.changes.some((line) => line.includes(HOSTILE.b)))).toBe(true);
  });

  test('load run prints nothing raw, and its reports (failed-check examples, body excerpts) carry nothing unprintable', async () => {
    const dir = folder();
    const load = await runKitCommand([
      'load',
      'run',
      '--node',
      '--scenario',
      'decide-steady',
      '--duration',
      '2',
      '--repeat',
      '1',
      '--base-url',
      hostile.baseUrl,
      '--api-key',
      target.keyA,
      '--report-dir',
      dir,
    ]);
    expect(load.code, load.err).toBe(1);
    expectSafe(load);
    expectReportsClean(dir);
  });

  test('error lines on stderr that quote a file of a run, an argument or a server escape it', async () => {
    const dir = folder();
    const foreign = join(dir, 'results.json');
    writeFileSync(foreign, JSON.stringify({ schema_version: 2, kind: HOSTILE.a, checks: [] }));
    const commands = [
      ['replay', '--results', foreign],
      ['load', 'run', '--scenario', 'decide-steady', '--from-results', foreign, '--base-url', hostile.baseUrl, '--api-key', target.keyA],
      ['run', '--timeout-ms', HOSTILE.a],
      [`frobnicate${HOSTILE.a}`],
    ];
    for (const args of commands) {
      const failed = await runKitCommand(args);
      expect(failed.code, failed.err).toBe(2);
      expectSafe(failed);
      expect(failed.err).toMatch(/\\u001b/);
    }
  });
});

// `load history add` and `load history check` as users run them: one line per added run, exit
// codes 0 / 1 / 2, history.html written where asked and never into the store, and a hostile label
// reaching neither the terminal raw nor the page as markup. The store and the verdict themselves:
// load/test/history.test.ts.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { flatLevels, syntheticEntries, writeResultsFolder, type SyntheticEntry, scratchFolders, storeIn } from '../../load/test/synthetic-history.ts';
import { runLoadCommand } from './support/load-command.ts';

const folders = scratchFolders('history-command-');
afterAll(folders.removeAll);
const scratch = folders.make;
/** A store made as CI makes one: a `load run` folder per entry, each added with its label. */
const storeOf = async (entries: readonly SyntheticEntry[]) => storeIn(await scratch(), entries);

describe('the command', () => {
  const command = (...argv: string[]) => runLoadCommand('history', ...argv);
  /** `load history add` of a results folder per entry, as CI adds them; each command's run. */
  const addEach = async (dir: string, store: string, entries: readonly SyntheticEntry[]) => {
    const added = [];
    for (const [i, entry] of entries.entries())
      added.push(await command('add', await writeResultsFolder(join(dir, `run-${i}`), entry.runs, entry.startedAt), '--store', store, '--label', entry.label));
    return added;
  };

  test('add prints one line; check exits 0 on a flat history, writes history.html where asked and nothing into the store', async () => {
    const dir = await scratch();
    const store = join(dir, 'store');
    const entries = syntheticEntries(61, flatLevels(12));
    for (const [i, added] of (await addEach(dir, store, entries)).entries()) {
      expect(added.code).toBe(0);
      expect(added.out).toMatch(
        new RegExp(`^stored decide-capacity \\(k6 v2\\.2\\.0, nearest-rank\\), 3 runs, label "${entries[i]!.label}", in .*\\.json\\n$`),
      );
    }
    const before = (await readdir(store)).sort();
    const checked = await command('check', '--store', store, '--report-dir', join(dir, 'report'));
    expect(checked).toMatchObject({ code: 0, err: '' });
    expect(checked.out).toMatch(/^no regression in the newest runs of 1 series/);
    expect(checked.out).toContain('✓ throughput_rps (higher is better): no change point');
    expect((await readdir(store)).sort()).toEqual(before);
    expect(await readFile(join(dir, 'report', 'history.html'), 'utf8')).toContain('<svg class="history-chart"');
  });

  test('check exits 1 on a change for the worse in the newest runs, naming it; --json says the same', async () => {
    const store = await storeOf(syntheticEntries(62, [...flatLevels(20), 0.8, 0.8, 0.8, 0.8]));
    const reportDir = join(await scratch(), 'report');
    const checked = await command('check', '--store', store, '--report-dir', reportDir);
    expect(checked.code).toBe(1);
    expect(checked.out).toMatch(/^REGRESSION in the newest runs of 1 of 1 series/);
    expect(checked.out).toMatch(
      /✗ throughput_rps \(higher is better\): worse in the newest 4 runs than in the segment before\n {6}change at run 21 "commit-021": 1\d\d\d -> [78]\d\d(\.\d)? \(-\d\d\.\d %\), p 0\.00\d\n/,
    );
    const json = await command('check', '--store', store, '--report-dir', reportDir, '--json');
    expect(json.code).toBe(1);
    const parsed = JSON.parse(json.out);
    expect(parsed).toMatchObject({ regression: true, html: join(reportDir, 'history.html') });
    expect(parsed.series[0].metrics[0]).toMatchObject({ metric: 'throughput_rps', verdict: 'worse', change_points: [{ index: 20, label: 'commit-021' }] });
  });

  test('usage errors exit 2 with a one-line reason', async () => {
    const dir = await scratch();
    const empty = join(dir, 'empty');
    await writeFile(join(dir, 'not-a-folder'), '');
    await mkdir(empty);
    const cases: [string[], RegExp][] = [
      [['check', '--store', join(dir, 'missing')], /missing: not a readable store folder/],
      [['check', '--store', join(dir, 'not-a-folder')], /not-a-folder: not a readable store folder \(not a folder\)/],
      [['check', '--store', empty], /empty holds no history entries/],
      [['check', '--store', empty, '--fast'], /Unknown option '--fast'/],
      [['check', '--store', empty, '--newest', '2'], /newest must be a whole number of at least 3/],
      [['check'], /needs --store DIR/],
      [['add', '--store', empty], /takes one results folder/],
      [['add', join(dir, 'nothing-here'), '--store', empty], /nothing-here: no such folder or file/],
      [['compare'], /unknown load history command "compare"/],
      [[], /needs a command: add or check/],
    ];
    for (const [argv, reason] of cases) {
      const result = await command(...argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.out).toBe('');
      const [first, second, ...more] = result.err.split('\n');
      expect(first).toMatch(/^decision-conformance load history: /);
      expect(first).toMatch(reason);
      expect([second, more]).toEqual(['See "decision-conformance load --help".', ['']]);
    }
  });

  test('a hostile label reaches neither the terminal raw nor history.html as markup', async () => {
    // ESC and BEL (colour, window title), C1 CSI (clears the screen; JSON leaves it raw), CR LF (a fake line).
    const hostile = 'fix \u001b[31mred\u001b]0;owned\u0007 \u009b2J <script>alert(1)</script>\r\n✓ everything fine';
    const entries = syntheticEntries(63, [...flatLevels(20), 0.8, 0.8, 0.8]);
    entries[20]!.label = hostile;
    const dir = await scratch();
    const store = join(dir, 'store');
    const outputs = (await addEach(dir, store, entries)).map((added) => added.out);
    const checked = await command('check', '--store', store, '--report-dir', join(dir, 'report'));
    const json = await command('check', '--store', store, '--report-dir', join(dir, 'report'), '--json');
    expect(checked.code).toBe(1);
    for (const text of [outputs[20]!, checked.out, json.out]) {
      expect(text).not.toMatch(/[\u001b\u0007\r\u0080-\u009f]/);
      expect(text).toContain('\\u009b2J');
      expect(text).toContain('\\u001b[31mred');
      // The line break in the label stays inside its quotes: no line of the output starts with its text.
      expect(text.split('\n').some((line) => line.startsWith('✓ everything fine'))).toBe(false);
    }
    expect(checked.out).toContain('change at run 21 "fix \\u001b[31mred');
    const page = await readFile(join(dir, 'report', 'history.html'), 'utf8');
    expect(page).not.toContain('<script>alert(1)');
    expect(page).not.toMatch(/[\u001b\u0007\u0080-\u009f]/);
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.match(/<script>/g)).toHaveLength(1);
  });

  test('load history is a load command, and its usage is in load --help', async () => {
    const { loadCommand, LOAD_USAGE } = await import('../../cli/load.ts');
    expect(LOAD_USAGE).toMatch(/^Usage: decision-conformance load <[a-z|-]*\|history> /);
    expect(LOAD_USAGE).toContain('load history add RESULTS_DIR --store DIR [--label TEXT]');
    expect(LOAD_USAGE).toContain('load history check --store DIR [--report-dir DIR] [--newest N] [--json]');
    let err = '';
    const code = await loadCommand(
      ['history', 'check', '--store', join(await scratch(), 'missing')],
      {},
      () => {},
      (text) => (err += text),
    );
    expect(code).toBe(2);
    expect(err).toMatch(/^decision-conformance load history: .*missing: not a readable store folder/);
  });
});

// The command line as users run it: exit statuses, messages, keys kept out of output and reports.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runMainInProcess } from './support/in-process.ts';
import { startMutatingProxy, type RunningProxy } from '../../harness/testing/mutating-proxy.ts';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../api/embedded-target.ts';
import { parseRunArgs, type RunSettings } from '../args.ts';
import { DEFAULT_CONCURRENCY } from '../../harness/overlap.ts';
import { specSha256, specVersion } from '../../spec/index.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
// Read here, not through the kit's own reader, so that a reader that went wrong is caught.
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string };

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], env: Record<string, string> = {}, cwd: string = root): Promise<Ran> {
  const child = spawn(process.execPath, [join(root, 'bin', 'decision-conformance.mjs'), ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

/**
 * The command line's main() in this process: usage and its errors are the same as from the
 * started command (the first --version is asked of it), without a process for each.
 */
async function inProcess(args: string[]): Promise<Ran> {
  const ran = await runMainInProcess(args);
  return { code: ran.code, stdout: ran.out, stderr: ran.err };
}

// Every report of these tests goes to a temporary folder, removed at the end: tests write nothing into the repository.
const reportDirs: string[] = [];
const reportDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'decision-cli-'));
  reportDirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of reportDirs) rmSync(dir, { recursive: true, force: true });
});
const readReports = (dir: string) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(dir, entry.name), 'utf8'))
    .join('\n');

describe('usage', () => {
  test('--version, -V and version print the package version and the spec version, exit 0', async () => {
    const printed = await Promise.all([cli(['--version']), inProcess(['-V']), inProcess(['version'])]);
    for (const ran of printed) {
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stdout).toBe(`decision-conformance ${manifest.version}\nspec ${specVersion} (sha256 ${specSha256.slice(0, 12)})\n`);
    }
    expect(specVersion).toMatch(/^\d+\.\d+\.\d+/);
  });

  test('--concurrency sets how many requests the concurrency checks keep in flight, 8 by default', () => {
    expect((parseRunArgs([], {}) as RunSettings).concurrency).toBe(DEFAULT_CONCURRENCY);
    expect(DEFAULT_CONCURRENCY).toBe(8);
    expect((parseRunArgs(['--concurrency', '4'], {}) as RunSettings).concurrency).toBe(4);
  });

  test('unknown options, bad values and keys without a target exit 2 with the reason', async () => {
    const cases = [
      ['run', '--expiry-api-key', 'svc_live_x', '--expiry-ttl-seconds', '3'],
      ['run', '--bogus'],
      ['run', '--timeout-ms', 'soon'],
      ['run', '--capabilities', 'video'],
      ['run', '--api-key', 'svc_live_x'],
      ['run', '--base-url', 'http://127.0.0.1:9'],
      ['frobnicate'],
      ['run', '--reference-profile', 'strict'],
      ['run', '--concurrency', '1'],
      ['run', '--concurrency', 'many'],
    ];
    const runs = await Promise.all(cases.map((args) => inProcess(args)));
    runs.forEach((ran, i) => {
      expect(ran.code, cases[i]!.join(' ')).toBe(2);
      expect(ran.stderr.trim().length).toBeGreaterThan(0);
    });
  });

  // With --base-url an unreachable target exits 2 too: each case names its reason, so that a
  // rule gone missing cannot pass for another one.
  test('options of the bundled server are refused with --base-url, and bad choices name the flag and the value', async () => {
    const withTarget = ['--base-url', 'http://127.0.0.1:9', '--api-key', 'svc_live_x'];
    const cases: Array<[string[], RegExp]> = [
      [['run', '--reference-profile', 'alternate', ...withTarget], /--reference-profile is for the bundled reference server/],
      [['run', '--reference-choice', 'upload-body-limit=alternate', ...withTarget], /--reference-choice is for the bundled reference server/],
      [['run', '--reference-choice', 'upload-body-limit'], /--reference-choice must be <open-point>=reference\|alternate, got "upload-body-limit"/],
      [['run', '--reference-choice', 'upload-body-limit=strict'], /--reference-choice must be .*"upload-body-limit=strict"/],
      [['run', '--reference-choice', 'no-such-point=alternate'], /--reference-choice: no open point no-such-point/i],
    ];
    const runs = await Promise.all(cases.map(([args]) => inProcess(args)));
    runs.forEach((ran, i) => {
      expect(ran.code, cases[i]![0].join(' ')).toBe(2);
      expect(ran.stderr).toMatch(cases[i]![1]);
    });
  });

  test('list-checks prints the catalogue of every suite with ids, levels and seed sections; --suite selects', async () => {
    const [ran, asJson, property, wrong] = await Promise.all([
      inProcess(['list-checks']),
      inProcess(['list-checks', '--json']),
      inProcess(['list-checks', '--suite', 'property']),
      inProcess(['list-checks', '--suite', 'propety']),
    ]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/AUTH-MISSING-KEY\s+MUST\s+§4,5,7/);
    expect(ran.stdout).toMatch(/PROP-DECIDE-VALID\s+MUST/);
    const json = JSON.parse(asJson.stdout) as Array<{ id: string; suite: string }>;
    expect(json.map((check) => check.id)).toContain('AUTH-VALID-KEY');
    expect(json.find((check) => check.id === 'PROP-ASSET-LIFECYCLE')?.suite).toBe('property');
    expect(property.code).toBe(0);
    expect(property.stdout).toMatch(/PROP-ASSET-LIFECYCLE\s+MUST/);
    expect(property.stdout).not.toContain('AUTH-');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/unknown suite "propety"/);
  });

  test('an --only or --skip id outside the selected suites, or a selection that leaves nothing to run, exits 2 naming the closest ids', async () => {
    const [notACheck, typo, otherSuite, nothingLeft] = await Promise.all([
      inProcess(['run', '--only', 'NOT-A-CHECK']),
      inProcess(['run', '--skip', 'AUTH-MISING-KEY']),
      inProcess(['run', '--suite', 'property', '--only', 'AUTH-VALID-KEY']),
      inProcess(['run', '--only', 'AUTH-VALID-KEY', '--skip', 'AUTH-VALID-KEY']),
    ]);
    for (const ran of [notACheck, typo, otherSuite, nothingLeft]) {
      expect(ran.code).toBe(2);
      expect(ran.stdout).toBe('');
    }
    expect(notACheck.stderr).toMatch(/unknown check id: NOT-A-CHECK in --only \(closest: /);
    expect(typo.stderr).toMatch(/AUTH-MISING-KEY in --skip \(closest: AUTH-MISSING-KEY, /);
    expect(otherSuite.stderr).toMatch(/AUTH-VALID-KEY in --only \(closest: PROP-/);
    expect(nothingLeft.stderr).toMatch(/leaves no check to run/);
  });
});

test('--reference-choice reaches the bundled server: its upload-body-limit alternate, served only alone, is observed and fails nothing', {
  timeout: 60_000,
}, async () => {
  const readCheck = (dir: string) =>
    (
      JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
        checks: Array<{ id: string; status: string; observation?: { matches_reference: boolean } }>;
      }
    ).checks[0]!;
  const [chosenDir, defaultDir] = [reportDir(), reportDir()];
  const [chosen, byDefault] = await Promise.all([
    cli(['run', '--reference-choice', 'upload-body-limit=alternate', '--only', 'ASSET-UPLOAD-BODY-LIMIT', '--report-dir', chosenDir]),
    cli(['run', '--only', 'ASSET-UPLOAD-BODY-LIMIT', '--report-dir', defaultDir]),
  ]);
  expect(chosen.code, chosen.stdout + chosen.stderr).toBe(0);
  expect(chosen.stdout).toContain('(reference profile, upload-body-limit=alternate)');
  expect(readCheck(chosenDir)).toMatchObject({ id: 'ASSET-UPLOAD-BODY-LIMIT', status: 'observed', observation: { matches_reference: false } });
  expect(byDefault.code, byDefault.stdout + byDefault.stderr).toBe(0);
  expect(readCheck(defaultDir)).toMatchObject({ id: 'ASSET-UPLOAD-BODY-LIMIT', status: 'observed', observation: { matches_reference: true } });
});

test("without --report-dir, reports land in reports/out/<timestamp>/ under the directory the command runs in, none in the kit's folder, and record both versions", {
  timeout: 60_000,
}, async () => {
  const kitOut = join(root, 'reports', 'out');
  const kitOutBefore = existsSync(kitOut) ? readdirSync(kitOut) : [];
  const project = reportDir();
  const ran = await cli(['run', '--only', 'DECIDE-UNKNOWN-FIELD-TOP'], {}, project);
  expect(ran.code, ran.stdout + ran.stderr).toBe(0);
  const stamps = readdirSync(join(project, 'reports', 'out'));
  expect(stamps).toHaveLength(1);
  expect(stamps[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z$/);
  const written = join(project, 'reports', 'out', stamps[0]!);
  expect(readdirSync(written).sort()).toEqual(['junit.xml', 'report.html', 'results.json', 'summary.md']);
  expect(ran.stdout).toContain(`Reports: ${join(written, 'report.html')}`);
  expect(existsSync(kitOut) ? readdirSync(kitOut) : []).toEqual(kitOutBefore);
  // Every report records the kit's package version and the spec's version.
  const results = JSON.parse(readFileSync(join(written, 'results.json'), 'utf8')) as { kit: unknown; spec: unknown };
  expect(results.kit).toEqual({ name: manifest.name, version: manifest.version });
  expect(results.spec).toEqual({ version: specVersion, sha256: specSha256 });
  for (const file of ['junit.xml', 'report.html', 'summary.md']) {
    const text = readFileSync(join(written, file), 'utf8');
    expect(text, file).toContain(`${manifest.name} ${manifest.version}`);
    expect(text, file).toContain(specVersion);
  }
});

test('load run without --report-dir writes its reports under the directory it runs in too', { timeout: 60_000 }, async () => {
  const project = reportDir();
  const ran = await cli(['load', 'run', '--scenario', 'decide-capacity', '--node', '--duration', '0.5', '--repeat', '1', '--set', 'VUS=1'], {}, project);
  // Half a second on a shared machine says nothing about thresholds: here, where the reports went.
  expect([0, 1], ran.stdout + ran.stderr).toContain(ran.code);
  const [stamp, ...others] = readdirSync(join(project, 'reports', 'out'));
  expect(others).toEqual([]);
  const results = JSON.parse(readFileSync(join(project, 'reports', 'out', stamp!, 'results.json'), 'utf8')) as { kind: string; kit: unknown };
  expect(results).toMatchObject({ kind: 'load', kit: { name: manifest.name, version: manifest.version } });
  expect(ran.stdout).toContain(`reports in ${join(project, 'reports', 'out', stamp!)}`);
});

test('an unreachable target exits 2 with one line naming the URL, what failed and what to try', async () => {
  const ran = await cli(['run', '--base-url', 'http://127.0.0.1:9', '--api-key', 'svc_live_unreachable_key_1', '--report-dir', reportDir()]);
  expect(ran.code).toBe(2);
  const lines = ran.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/http:\/\/127\.0\.0\.1:9.*refused.*check that the server is running/);
  expect(ran.stdout + ran.stderr).not.toContain('svc_live_unreachable_key_1');
});

describe('against a separately started server', () => {
  let target: EmbeddedTarget;
  let broken: RunningProxy;
  beforeAll(async () => {
    target = await startEmbeddedTarget();
    broken = await startMutatingProxy(target.baseUrl, { response: (received) => ({ ...received, headers: { ...received.headers, 'x-request-id': '' } }) });
  });
  afterAll(async () => {
    await broken.close();
    await target.stop();
  });

  test('keys from the environment; exit 0; keys appear in neither output nor reports', async () => {
    const dir = reportDir();
    const ran = await cli(['run', '--base-url', target.baseUrl, '--only', 'AUTH-VALID-KEY,AUTH-MISSING-KEY', '--report-dir', dir], {
      DECISION_API_KEY: target.keyA,
      DECISION_API_KEY_B: target.keyB,
    });
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    expect(ran.stdout).toContain('2 passed, 0 failed');
    // AUTH-MISSING-KEY's passing baseline uploads a file: its bytes are kept for the reproduce line.
    expect(readdirSync(dir).sort()).toEqual(['bodies', 'junit.xml', 'report.html', 'results.json', 'summary.md']);
    const bodies = readdirSync(join(dir, 'bodies'))
      .map((name) => readFileSync(join(dir, 'bodies', name), 'latin1'))
      .join('\n');
    for (const text of [ran.stdout, ran.stderr, readReports(dir), bodies]) {
      expect(text).not.toContain(target.keyA);
      expect(text).not.toContain(target.keyB);
    }
  });

  test('a MUST failure exits 1', async () => {
    const ran = await cli([
      'run',
      '--base-url',
      broken.baseUrl,
      '--api-key',
      target.keyA,
      '--only',
      'AUTH-VALID-KEY,AUTH-MISSING-KEY',
      '--report-dir',
      reportDir(),
    ]);
    expect(ran.code, ran.stdout).toBe(1);
    expect(ran.stdout).toMatch(/✗ AUTH-MISSING-KEY/);
  });

  test('--skip reports a check as skipped; --capabilities skips what the target does not claim', async () => {
    const dir = reportDir();
    const ran = await cli([
      'run',
      '--base-url',
      target.baseUrl,
      '--api-key',
      target.keyA,
      '--only',
      'AUTH-VALID-KEY,AUTH-MISSING-KEY',
      '--skip',
      'AUTH-MISSING-KEY',
      '--report-dir',
      dir,
    ]);
    expect(ran.code).toBe(0);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { checks: Array<{ id: string; status: string; message?: string }> };
    expect(results.checks.find((check) => check.id === 'AUTH-MISSING-KEY')).toMatchObject({ status: 'skip', message: 'excluded by --skip' });
    // The reason is in the terminal too, under the skipped check.
    expect(ran.stdout).toMatch(/- AUTH-MISSING-KEY .*\n\s+excluded by --skip\n/);
  });

  test('a key of project B or of the short-lifetime project that the target refuses exits 2 with one line naming its flag', async () => {
    const base = ['run', '--base-url', target.baseUrl, '--api-key', target.keyA, '--only', 'AUTH-VALID-KEY'];
    const [wrongB, wrongExpiry] = await Promise.all([
      cli([...base, '--api-key-b', 'svc_live_not_a_key_of_project_b', '--report-dir', reportDir()]),
      cli([
        ...base,
        '--api-key-b',
        target.keyB,
        '--expiry-api-key',
        'svc_live_not_a_key_of_any_project',
        '--expiry-ttl-seconds',
        '3',
        '--report-dir',
        reportDir(),
      ]),
    ]);
    for (const [ran, flag] of [
      [wrongB, '--api-key-b'],
      [wrongExpiry, '--expiry-api-key'],
    ] as const) {
      expect(ran.code, ran.stdout + ran.stderr).toBe(2);
      const lines = ran.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`check ${flag} or`);
      expect(ran.stdout).not.toMatch(/passed|failed/);
    }
  });

  test('the expiry checks share one wait, shown in the terminal', async () => {
    const dir = reportDir();
    const ran = await cli(
      [
        'run',
        '--base-url',
        target.baseUrl,
        '--only',
        'ASSET-EXPIRED-REFERENCE,ASSET-EXPIRED-READ',
        '--expiry-ttl-seconds',
        String(target.shortTtlMs / 1000),
        '--report-dir',
        dir,
      ],
      { DECISION_API_KEY: target.keyA, DECISION_EXPIRY_API_KEY: target.keyShortTtl },
    );
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    const waitSeconds = Math.ceil(target.shortTtlMs / 1000) + 1;
    expect(ran.stdout.split(`waiting ${waitSeconds} s for uploaded assets to expire`)).toHaveLength(2);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
      checks: Array<{ id: string; area: string; status: string; evidence: Array<{ request: { method: string; url: string } }> }>;
    };
    expect(results.checks.filter((check) => check.area !== 'response-rules').map((check) => check.status)).toEqual(['pass', 'observed']);
    expect(results.checks.filter((check) => check.area === 'response-rules' && check.status === 'fail')).toEqual([]);
    const uploads = results.checks.flatMap((check) => check.evidence).filter(({ request }) => request.method === 'POST' && request.url.endsWith('/v1/assets'));
    expect(uploads).toHaveLength(1);
  });
});

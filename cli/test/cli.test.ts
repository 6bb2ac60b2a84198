// The command line as users run it: exit statuses, messages, keys kept out of output and reports.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMutatingProxy, type RunningProxy } from '../../harness/testing/mutating-proxy.ts';
import { startEmbeddedTarget, type EmbeddedTarget } from '../embedded-target.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface Ran { code: number | null; stdout: string; stderr: string }

function cli(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  const child = spawn(process.execPath, ['bin/decision-conformance.mjs', ...args], { cwd: root, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

const reportDir = () => mkdtempSync(join(tmpdir(), 'decision-cli-'));
const readReports = (dir: string) => readdirSync(dir).map((file) => readFileSync(join(dir, file), 'utf8')).join('\n');

describe('usage', () => {
  test('unknown options, bad values and keys without a target exit 2 with the reason', async () => {
    const cases = [['run', '--bogus'], ['run', '--timeout-ms', 'soon'], ['run', '--capabilities', 'video'], ['run', '--api-key', 'svc_live_x'], ['run', '--base-url', 'http://127.0.0.1:9'], ['frobnicate'], ['run', '--reference-profile', 'strict'], ['run', '--reference-profile', 'alternate', '--base-url', 'http://127.0.0.1:9', '--api-key', 'svc_live_x']];
    const runs = await Promise.all(cases.map((args) => cli(args)));
    runs.forEach((ran, i) => {
      expect(ran.code, cases[i]!.join(' ')).toBe(2);
      expect(ran.stderr.trim().length).toBeGreaterThan(0);
    });
  });

  test('list-checks prints the catalogue with ids, levels and seed sections', async () => {
    const ran = await cli(['list-checks']);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/AUTH-MISSING-KEY\s+MUST\s+§4,5,7/);
    const json = JSON.parse((await cli(['list-checks', '--json'])).stdout) as Array<{ id: string; level: string }>;
    expect(json.map((check) => check.id)).toContain('AUTH-VALID-KEY');
  });
});

test('an unreachable target exits 2 with one line naming the URL, what failed and what to try', async () => {
  const ran = await cli(['run', '--base-url', 'http://127.0.0.1:9', '--api-key', 'svc_live_unreachable_key_1']);
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
    const ran = await cli(['run', '--base-url', target.baseUrl, '--only', 'AUTH-VALID-KEY,AUTH-MISSING-KEY', '--report-dir', dir], { DECISION_API_KEY: target.keyA, DECISION_API_KEY_B: target.keyB });
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    expect(ran.stdout).toContain('2 passed, 0 failed');
    expect(readdirSync(dir).sort()).toEqual(['junit.xml', 'report.html', 'results.json', 'summary.md']);
    for (const text of [ran.stdout, ran.stderr, readReports(dir)]) {
      expect(text).not.toContain(target.keyA);
      expect(text).not.toContain(target.keyB);
    }
  });

  test('a MUST failure exits 1', async () => {
    const ran = await cli(['run', '--base-url', broken.baseUrl, '--api-key', target.keyA, '--only', 'AUTH-VALID-KEY,AUTH-MISSING-KEY', '--report-dir', reportDir()]);
    expect(ran.code, ran.stdout).toBe(1);
    expect(ran.stdout).toMatch(/✗ AUTH-MISSING-KEY/);
  });

  test('--skip reports a check as skipped; --capabilities skips what the target does not claim', async () => {
    const dir = reportDir();
    const ran = await cli(['run', '--base-url', target.baseUrl, '--api-key', target.keyA, '--only', 'AUTH-VALID-KEY,AUTH-MISSING-KEY', '--skip', 'AUTH-MISSING-KEY', '--report-dir', dir]);
    expect(ran.code).toBe(0);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { checks: Array<{ id: string; status: string; message?: string }> };
    expect(results.checks.find((check) => check.id === 'AUTH-MISSING-KEY')).toMatchObject({ status: 'skip', message: 'excluded by --skip' });
  });
});

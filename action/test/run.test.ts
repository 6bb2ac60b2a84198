// The action's script run as the action's step runs it: inputs in environment variables, the
// job summary and step outputs in files. Each run selects two checks, to stay short.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../api/embedded-target.ts';
import { startMutatingProxy, type RunningProxy } from '../../harness/testing/mutating-proxy.ts';

const script = fileURLToPath(new URL('../run.mjs', import.meta.url));
const CHECKS = 'AUTH-VALID-KEY,REQID-ON-SUCCESS';

interface ActionRun {
  code: number | null;
  stdout: string;
  stderr: string;
  summary: string;
  outputs: Record<string, string>;
}

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** Runs the script in a fresh workspace folder, with only the variables the action's step would set. */
function runAction(env: Record<string, string>): Promise<ActionRun> {
  const workspace = mkdtempSync(join(tmpdir(), 'decision-action-'));
  folders.push(workspace);
  const summaryFile = join(workspace, 'step-summary.md');
  const outputFile = join(workspace, 'step-output.txt');
  const child = spawn(process.execPath, [script], {
    cwd: workspace,
    env: {
      PATH: process.env.PATH ?? '',
      // The test run's temporary folder (test/scratch-folder.ts), as a runner gives its steps one:
      // without it, the bundled server's onnxruntime and tsx wrote to /tmp and left files there.
      TMPDIR: tmpdir(),
      NO_COLOR: '1',
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_OUTPUT: outputFile,
      DECISION_CONFORMANCE_ONLY: CHECKS,
      // The action passes every input, empty ones as empty strings.
      DECISION_CONFORMANCE_BASE_URL: '',
      DECISION_CONFORMANCE_SUITES: '',
      DECISION_CONFORMANCE_CAPABILITIES: '',
      DECISION_CONFORMANCE_SKIP: '',
      DECISION_CONFORMANCE_REPORT_DIR: 'conformance-report',
      DECISION_API_KEY: '',
      DECISION_API_KEY_B: '',
      DECISION_EXPIRY_API_KEY: '',
      DECISION_EXPIRY_TTL_SECONDS: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const read = (file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return '';
    }
  };
  return new Promise((resolve) =>
    child.on('close', (code) => {
      const outputs = Object.fromEntries(
        read(outputFile)
          .split('\n')
          .filter(Boolean)
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      );
      resolve({ code, stdout, stderr, summary: read(summaryFile), outputs });
    }),
  );
}

/** The environment the action sets for a target given with its keys. */
const targetInputs = (target: EmbeddedTarget, baseUrl = target.baseUrl) => ({
  DECISION_CONFORMANCE_BASE_URL: baseUrl,
  DECISION_API_KEY: target.keyA,
  DECISION_API_KEY_B: target.keyB,
  DECISION_EXPIRY_API_KEY: target.keyShortTtl,
  DECISION_EXPIRY_TTL_SECONDS: String(target.shortTtlMs / 1000),
});

test('without a base URL it tests the bundled server, writes the summary and the outputs, and exits 0', async () => {
  const ran = await runAction({});
  expect(ran.code, ran.stderr).toBe(0);
  expect(ran.summary).toContain('PASSED');
  expect(ran.summary).toContain("the kit's embedded reference server");
  const reportDir = ran.outputs['report-dir']!;
  expect(reportDir).toMatch(/decision-action-[^/]+\/conformance-report$/);
  expect(ran.outputs).toEqual({ 'report-dir': reportDir, junit: join(reportDir, 'junit.xml'), html: join(reportDir, 'report.html'), 'exit-code': '0' });
  expect(readFileSync(ran.outputs.junit!, 'utf8')).toContain('<testcase');
  expect(readFileSync(join(reportDir, 'summary.md'), 'utf8')).toBe(`${ran.summary.trimEnd()}\n`);
  expect(ran.stdout).not.toContain('::error');
});

describe('against a server given by its base URL and keys', () => {
  let target: EmbeddedTarget;
  let broken: RunningProxy;
  beforeAll(async () => {
    target = await startEmbeddedTarget();
    // Broken in one way: GET /health answers without its X-Request-ID.
    broken = await startMutatingProxy(target.baseUrl, {
      response: (received, sent) => {
        if (sent.path !== '/health') return received;
        const { 'x-request-id': _dropped, ...headers } = received.headers;
        return { ...received, headers };
      },
    });
  });
  afterAll(async () => {
    await broken?.close();
    await target?.stop();
  });

  test('a good server passes, and the keys appear in the log only to be masked', async () => {
    const ran = await runAction(targetInputs(target));
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.outputs['exit-code']).toBe('0');
    expect(ran.summary).toContain(`Target \`${target.baseUrl}\``);
    for (const key of [target.keyA, target.keyB, target.keyShortTtl]) {
      expect(ran.stdout.split('\n').filter((line) => line.includes(key))).toEqual([`::add-mask::${key}`]);
      expect(ran.stderr).not.toContain(key);
      expect(readFileSync(join(ran.outputs['report-dir']!, 'results.json'), 'utf8')).not.toContain(key);
    }
  });

  test('a MUST failure exits 1, names the check in the summary and in an error annotation', async () => {
    const ran = await runAction(targetInputs(target, broken.baseUrl));
    expect(ran.code, ran.stderr).toBe(1);
    expect(ran.outputs['exit-code']).toBe('1');
    expect(ran.summary).toContain('FAILED');
    expect(ran.summary).toContain('REQID-ON-SUCCESS');
    expect(ran.outputs.junit).toBe(join(ran.outputs['report-dir']!, 'junit.xml'));
    // The check that exists for the rule, and the response rule the same responses break.
    expect(ran.stdout).toMatch(/^::error title=Conformance::1 MUST check\(s\) failed: REQID-ON-SUCCESS\. 1 MUST response rule\(s\) broken: request-id\. /m);
  });
});

test('an unreachable server exits 2 with the kit’s reason as an error annotation', async () => {
  const ran = await runAction({ DECISION_CONFORMANCE_BASE_URL: 'http://127.0.0.1:9', DECISION_API_KEY: 'svc_live_unused' });
  expect(ran.code).toBe(2);
  expect(ran.outputs['exit-code']).toBe('2');
  const annotation = ran.stdout.split('\n').find((line) => line.startsWith('::error'));
  expect(annotation).toMatch(/^::error title=Conformance run did not start::decision-conformance: http:\/\/127\.0\.0\.1:9 did not answer/);
  expect(annotation).toContain('connection was refused');
});

test('a usage error exits 2 with the reason, not the pointer to --help', async () => {
  const ran = await runAction({ DECISION_CONFORMANCE_ONLY: 'NO-SUCH-CHECK' });
  expect(ran.code).toBe(2);
  expect(ran.stdout).toMatch(/^::error title=Conformance run did not start::decision-conformance run: .*NO-SUCH-CHECK/m);
});

test('behind a gateway: headers go on every request, a secret header is masked in the log and kept out of the reports', async () => {
  const target = await startEmbeddedTarget();
  const gatewayKey = 'gw_live_8e2d41c07b9a5f36';
  const gateway = await startMutatingProxy(target.baseUrl, {
    answer: (sent) =>
      sent.headers['x-tenant'] === 'acme' && sent.headers['x-gateway-key'] === gatewayKey
        ? undefined
        : { status: 403, headers: { 'content-type': 'text/plain' }, body: Buffer.from('gateway: unknown tenant') },
  });
  try {
    const ran = await runAction({
      ...targetInputs(target, gateway.baseUrl),
      DECISION_CONFORMANCE_ONLY: 'AUTH-MISSING-KEY,DECIDE-ONE-ANSWER-PER-QUESTION,COVERAGE-GET-HEALTH',
      DECISION_CONFORMANCE_HEADERS: 'X-Tenant: acme\n',
      DECISION_SECRET_HEADERS: `X-Gateway-Key: ${gatewayKey}\n`,
    });
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout.split('\n').filter((line) => line.includes(gatewayKey))).toEqual([`::add-mask::${gatewayKey}`]);
    expect(ran.stderr).not.toContain(gatewayKey);
    expect(readFileSync(join(ran.outputs['report-dir']!, 'results.json'), 'utf8')).not.toContain(gatewayKey);
  } finally {
    await gateway.close();
    await target.stop();
  }
});

// A server behind a gateway that admits only requests with its tenant header and its own key:
// `--header` and `--header-secret` put them on every request (the warm-up's, the auth checks'
// with the credential removed, the coverage phase's), the verdicts are those of the direct run,
// and the secret value appears in neither the output nor any report.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../api/embedded-target.ts';
import { runKitCommand } from '../../harness/testing/kit-command.ts';
import { startMutatingProxy, type RunningProxy } from '../../harness/testing/mutating-proxy.ts';

const GATEWAY_KEY = 'gw_live_4f1c0a9d2b7e6358';
const CHECKS = 'AUTH-MISSING-KEY,AUTH-INVALID-KEY,DECIDE-ONE-ANSWER-PER-QUESTION,COVERAGE-DECIDE,COVERAGE-GET-HEALTH';

describe('a server behind a gateway that needs two headers', () => {
  let target: EmbeddedTarget;
  let gateway: RunningProxy;
  let seen = 0;
  beforeAll(async () => {
    target = await startEmbeddedTarget();
    gateway = await startMutatingProxy(target.baseUrl, {
      answer: (sent) => {
        seen += 1;
        if (sent.headers['x-tenant'] === 'acme' && sent.headers['x-gateway-key'] === GATEWAY_KEY) return undefined;
        return { status: 403, headers: { 'content-type': 'text/plain' }, body: Buffer.from('gateway: unknown tenant') };
      },
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await target?.stop();
  });

  const run = (extra: string[], dir: string) =>
    runKitCommand(['run', '--base-url', gateway.baseUrl, '--suite', 'conformance,coverage', '--only', CHECKS, '--report-dir', dir, ...extra], {
      DECISION_API_KEY: target.keyA,
    });

  test('with --header and --header-secret, the checks pass as on the direct run, and the secret is nowhere in the output or reports', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'decision-headers-'));
    const ran = await run(['--header', 'X-Tenant: acme', '--header-secret', `X-Gateway-Key: ${GATEWAY_KEY}`], dir);
    expect(ran.code, ran.out + ran.err).toBe(0);
    expect(ran.out).toMatch(/0 failed/);
    expect(seen).toBeGreaterThan(300);
    const reports = readdirSync(dir).filter((name) => /\.(json|xml|html|md)$/.test(name));
    expect(reports).toEqual(expect.arrayContaining(['results.json', 'junit.xml', 'report.html', 'summary.md']));
    for (const text of [ran.out, ran.err, ...reports.map((name) => readFileSync(join(dir, name), 'utf8'))]) expect(text).not.toContain(GATEWAY_KEY);
    // The tenant header is no secret: the reproduce lines carry it.
    expect(readFileSync(join(dir, 'results.json'), 'utf8')).toMatch(/x-tenant: acme/i);
  });

  test('without them, the gateway refuses every request and the run fails', async () => {
    const ran = await run([], mkdtempSync(join(tmpdir(), 'decision-headers-')));
    expect(ran.code).toBe(1);
  });

  test('a header the kit sets itself, or one written without a colon, is a usage error naming the flag', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'decision-headers-'));
    const authorization = await run(['--header', 'Authorization: Bearer x'], dir);
    expect(authorization.code).toBe(2);
    expect(authorization.err).toMatch(/--header authorization: the kit sets this header itself.*--api-key/);
    const malformed = await run(['--header-secret', 'X-Gateway-Key'], dir);
    expect(malformed.code).toBe(2);
    expect(malformed.err).toMatch(/--header-secret "X-Gateway-Key": write it as "Name: value"/);
  });
});

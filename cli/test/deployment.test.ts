// A deployed server reached as users reach one (the deployment matrix): over HTTPS with a
// certificate of a private CA; through a forward proxy, given by --proxy or by HTTP_PROXY (and
// skipped for NO_PROXY); one region away (50 ms added to every request); under a path prefix;
// behind a gateway that needs a header of its own; behind one that answers 429 past 20 requests a
// second. Each gives the verdicts of the direct run; an untrusted certificate is a usage error
// that says what to give, and so is a gateway's refusal of a run without its header.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../api/embedded-target.ts';
import { startForwardProxy, type ForwardProxy } from '../../harness/testing/forward-proxy.ts';
import { runKitCommand } from '../../harness/testing/kit-command.ts';
import { startMutatingProxy, type RunningProxy } from '../../harness/testing/mutating-proxy.ts';
import { addedLatency, gateway as gatewayOf, pathPrefix, rateLimit, requiredHeader, type GatewayStep } from '../../harness/testing/gateways.ts';
import { runConformance } from '../../api/index.ts';

/** A test-only certificate for localhost and 127.0.0.1, and its key: trusted nowhere but here. */
const TLS_DIR = new URL('../../harness/testing/tls/', import.meta.url);
const CERT_FILE = new URL('localhost-cert.pem', TLS_DIR).pathname;
const tls = { cert: readFileSync(CERT_FILE, 'utf8'), key: readFileSync(new URL('localhost-key.pem', TLS_DIR), 'utf8') };
const CHECKS = 'AUTH-MISSING-KEY,DECIDE-ONE-ANSWER-PER-QUESTION,COVERAGE-GET-HEALTH';
/** The gateway rows' checks: every operation, errors of the seed's body, and the coverage phase's cases on two. */
const GATEWAY_CHECKS = [
  'AUTH-MISSING-KEY',
  'AUTH-INVALID-KEY',
  'DECIDE-ONE-ANSWER-PER-QUESTION',
  'ASSET-GET-SAME',
  'ASSET-DELETED-GET-FAILS',
  'FEEDBACK-MALFORMED-JSON',
  'ERRORS-BODY-UNKNOWN-ROUTE',
  'SERVICE-HEALTH-ANSWERS',
  'COVERAGE-GET-HEALTH',
  'COVERAGE-LIST-MODELS',
];

describe('a deployed server', () => {
  let target: EmbeddedTarget;
  let https: RunningProxy;
  let proxy: ForwardProxy;
  beforeAll(async () => {
    target = await startEmbeddedTarget();
    https = await startMutatingProxy(target.baseUrl, {}, tls);
    proxy = await startForwardProxy();
  });
  afterAll(async () => {
    await proxy?.close();
    await https?.close();
    await target?.stop();
  });

  const run = (baseUrl: string, extra: string[] = [], env: Record<string, string> = {}) =>
    runKitCommand(
      [
        'run',
        '--base-url',
        baseUrl,
        '--suite',
        'conformance,coverage',
        '--only',
        CHECKS,
        '--report-dir',
        mkdtempSync(join(tmpdir(), 'decision-deployed-')),
        ...extra,
      ],
      { DECISION_API_KEY: target.keyA, ...env },
    );

  test('over HTTPS with a private CA: --ca-cert or --insecure pass as the direct run; neither is exit 2 saying what to give', async () => {
    const trusted = await run(https.baseUrl, ['--ca-cert', CERT_FILE]);
    expect(trusted.code, trusted.out + trusted.err).toBe(0);
    const insecure = await run(https.baseUrl, ['--insecure']);
    expect(insecure.code, insecure.out + insecure.err).toBe(0);
    const untrusted = await run(https.baseUrl);
    expect(untrusted.code).toBe(2);
    expect(untrusted.err).toMatch(/certificate is not trusted: give its CA with --ca-cert FILE \(or NODE_EXTRA_CA_CERTS\), or --insecure/);
    const unreadable = await run(https.baseUrl, ['--ca-cert', join(tmpdir(), 'no-such-ca.pem')]);
    expect(unreadable.code).toBe(2);
    expect(unreadable.err).toMatch(/--ca-cert .*no-such-ca\.pem: cannot read it \(ENOENT\)/);
  });

  test('through a forward proxy, named by --proxy or by HTTP_PROXY, and not for a host NO_PROXY lists', async () => {
    const before = proxy.used();
    const flagged = await run(target.baseUrl, ['--proxy', proxy.url]);
    expect(flagged.code, flagged.out + flagged.err).toBe(0);
    const throughFlag = proxy.used() - before;
    expect(throughFlag).toBeGreaterThan(0);

    const fromEnvironment = await run(target.baseUrl, [], { HTTP_PROXY: proxy.url });
    expect(fromEnvironment.code, fromEnvironment.out + fromEnvironment.err).toBe(0);
    const throughEnvironment = proxy.used() - before - throughFlag;
    expect(throughEnvironment).toBeGreaterThan(0);

    const bypassed = await run(target.baseUrl, [], { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' });
    expect(bypassed.code, bypassed.out + bypassed.err).toBe(0);
    expect(proxy.used() - before - throughFlag - throughEnvironment).toBe(0);

    // The bundled server, on this machine, is reached directly whatever proxy the environment names.
    const bundled = await runKitCommand(['run', '--only', 'AUTH-MISSING-KEY', '--report-dir', mkdtempSync(join(tmpdir(), 'decision-deployed-'))], {
      HTTP_PROXY: 'http://127.0.0.1:9',
    });
    expect(bundled.code, bundled.out + bundled.err).toBe(0);

    // HTTPS through the proxy, trusting the private CA: the CA applies to the server behind the tunnel.
    const tunnelled = await run(https.baseUrl, ['--proxy', proxy.url, '--ca-cert', CERT_FILE]);
    expect(tunnelled.code, tunnelled.out + tunnelled.err).toBe(0);
  });

  describe('behind gateways: each row gives the verdicts of the direct run', () => {
    const verdictsOf = (report: Awaited<ReturnType<typeof runConformance>>) => Object.fromEntries(report.checks.map((check) => [check.id, check.status]));
    const runThrough = (baseUrl: string, headers: string[] = []) =>
      runConformance({
        baseUrl,
        apiKey: target.keyA,
        apiKeyB: target.keyB,
        suites: ['conformance', 'coverage'],
        only: GATEWAY_CHECKS,
        seed: 7,
        ...(headers.length > 0 ? { headers } : {}),
      });
    let direct: Record<string, string>;
    const gateways: RunningProxy[] = [];
    const behind = async (...steps: GatewayStep[]) => {
      const started = await startMutatingProxy(target.baseUrl, gatewayOf(...steps));
      gateways.push(started);
      return started.baseUrl;
    };
    beforeAll(async () => {
      const report = await runThrough(target.baseUrl);
      direct = verdictsOf(report);
      expect(report.summary.must_failed).toBe(0);
      expect(Object.keys(direct)).toHaveLength(GATEWAY_CHECKS.length + 18);
    });
    afterAll(async () => {
      for (const started of gateways) await started.close();
    });

    test('50 ms added to every request', async () => {
      expect(verdictsOf(await runThrough(await behind(addedLatency(50))))).toEqual(direct);
    });

    test('served under a path prefix (the base URL ends in /svc)', async () => {
      expect(verdictsOf(await runThrough(`${await behind(pathPrefix('/svc'))}/svc`))).toEqual(direct);
    });

    test('a gateway that refuses requests without its header: --header passes it on; without it the warm-up says so', async () => {
      const baseUrl = await behind(requiredHeader('X-Tenant', 'acme'));
      expect(verdictsOf(await runThrough(baseUrl, ['X-Tenant: acme']))).toEqual(direct);
      // Without it, every request is the gateway's 403: the checks fail, and the warm-up said why first.
      const refused = await runThrough(baseUrl);
      expect(refused.summary.must_failed).toBeGreaterThan(0);
      expect(refused.warmup.message).toMatch(/answered 403 \("the gateway needs X-Tenant"\).*--header 'Name: value'/);
    });

    test('replay takes the same options: a recorded run replays through the header gateway with --header, and through the proxy', async () => {
      const reportDir = mkdtempSync(join(tmpdir(), 'decision-deployed-replay-'));
      const recorded = await runKitCommand(
        ['run', '--base-url', target.baseUrl, '--only', 'AUTH-MISSING-KEY,DECIDE-ONE-ANSWER-PER-QUESTION', '--report-dir', reportDir],
        {
          DECISION_API_KEY: target.keyA,
        },
      );
      expect(recorded.code, recorded.out + recorded.err).toBe(0);
      // Replayed against a server that has not seen the run (feedback on a decision is given once), behind the gateway.
      const fresh = await startEmbeddedTarget();
      const gateway = await startMutatingProxy(fresh.baseUrl, gatewayOf(requiredHeader('X-Tenant', 'acme')));
      const replayThrough = (args: string[]) =>
        runKitCommand(['replay', '--results', join(reportDir, 'results.json'), '--base-url', gateway.baseUrl, ...args], { DECISION_API_KEY: fresh.keyA });
      const before = proxy.used();
      const withHeader = await replayThrough(['--header-secret', 'X-Tenant: acme', '--proxy', proxy.url]);
      expect(withHeader.code, withHeader.out + withHeader.err).toBe(0);
      expect(proxy.used()).toBeGreaterThan(before);
      expect(withHeader.out).not.toContain('acme');
      // Without it, the gateway answers every request 403: outcomes changed.
      const without = await replayThrough([]);
      expect(without.code, without.out + without.err).toBe(1);
      await gateway.close();
      await fresh.stop();
    });

    test('a gateway that answers 429 past 20 requests a second: every worker waits out the Retry-After together', async () => {
      const limiter = rateLimit(20);
      const report = await runThrough(await behind(limiter));
      expect(verdictsOf(report)).toEqual(direct);
      expect(limiter.refused()).toBeGreaterThan(0);
      expect(report.workers?.rate_limit_pauses).toBeGreaterThan(0);
    });
  });
});

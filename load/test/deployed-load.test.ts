// `load run` reaches a deployed server as `run` does (the deployment matrix's load rows): behind a
// gateway that refuses requests without its header (--header, --header-secret), under a path
// prefix, over HTTPS with a private CA (--ca-cert, --insecure), and through a forward proxy
// (--proxy), with each generator.
// A run that does not pass the gateway's header has every request refused, so the thresholds fail:
// the header, not luck, is what made the other runs pass. k6 is Go: it never sends a request for a
// loopback address through a proxy, so the proxy row is the Node runner's alone.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../api/embedded-target.ts';
import { startForwardProxy, type ForwardProxy } from '../../harness/testing/forward-proxy.ts';
import { gateway, pathPrefix, requiredHeader } from '../../harness/testing/gateways.ts';
import { runKitCommand } from '../../harness/testing/kit-command.ts';
import { startMutatingProxy, type RunningProxy } from '../../harness/testing/mutating-proxy.ts';
import { k6ForTests, LATENCY_OUT_OF_REACH_FLAGS } from './support.ts';

const k6 = k6ForTests();
const TLS_DIR = new URL('../../harness/testing/tls/', import.meta.url);
const CERT_FILE = new URL('localhost-cert.pem', TLS_DIR).pathname;
const tls = { cert: readFileSync(CERT_FILE, 'utf8'), key: readFileSync(new URL('localhost-key.pem', TLS_DIR), 'utf8') };

let target: EmbeddedTarget;
let tenantGateway: RunningProxy;
let prefixed: RunningProxy;
let https: RunningProxy;
let proxy: ForwardProxy;
beforeAll(async () => {
  target = await startEmbeddedTarget();
  tenantGateway = await startMutatingProxy(target.baseUrl, gateway(requiredHeader('X-Tenant', 'acme')));
  prefixed = await startMutatingProxy(target.baseUrl, gateway(pathPrefix('/svc')));
  https = await startMutatingProxy(target.baseUrl, {}, tls);
  proxy = await startForwardProxy();
});
afterAll(async () => {
  await proxy?.close();
  await https?.close();
  await tenantGateway?.close();
  await prefixed?.close();
  await target?.stop();
});

const generators = [{ name: 'the Node runner', args: ['--node'] }, ...(k6 ? [{ name: 'k6', args: ['--k6', k6] }] : [])];

/** A short steady run (one second, five decides a second, one repeat, latency out of reach) of `load run` against `baseUrl`. */
const loadRun = (baseUrl: string, args: string[], env: Record<string, string> = {}) => {
  const reportDir = mkdtempSync(join(tmpdir(), 'decision-deployed-load-'));
  return runKitCommand(
    [
      'load',
      'run',
      '--scenario',
      'decide-steady',
      '--base-url',
      baseUrl,
      '--duration',
      '1',
      '--rate',
      '5',
      '--repeat',
      '1',
      '--report-dir',
      reportDir,
      ...LATENCY_OUT_OF_REACH_FLAGS,
      ...args,
    ],
    { DECISION_API_KEY: target.keyA, ...env },
  ).then((ran) => ({ ...ran, reportDir }));
};

describe.each(generators)('load run with $name', ({ args }) => {
  test('behind a gateway that needs a header: --header passes it on, --header-secret too and unwritten in the reports; without it the thresholds fail', async () => {
    const passed = await loadRun(tenantGateway.baseUrl, [...args, '--header', 'X-Tenant: acme']);
    expect(passed.code, passed.out + passed.err).toBe(0);
    const secret = await loadRun(tenantGateway.baseUrl, [...args, '--header-secret', 'X-Tenant: acme']);
    expect(secret.code, secret.out + secret.err).toBe(0);
    expect(readFileSync(join(secret.reportDir, 'results.json'), 'utf8')).not.toContain('acme');
    // Without it, the first call says what the gateway answered, and every request of the load is refused.
    const refused = await loadRun(tenantGateway.baseUrl, args);
    expect(refused.code, refused.out + refused.err).toBe(1);
    expect(refused.out).toMatch(/warning: the warm-up decide, a valid request with key A, was answered 403 .*--header 'Name: value'/);
    expect(refused.out).toMatch(/THRESHOLDS MISSED/);
  });

  test('served under a path prefix (the base URL ends in /svc): every request goes under it', async () => {
    const ran = await loadRun(`${prefixed.baseUrl}/svc`, args);
    expect(ran.code, ran.out + ran.err).toBe(0);
  });

  test('over HTTPS with a private CA: --ca-cert or --insecure pass', async () => {
    const trusted = await loadRun(https.baseUrl, [...args, '--ca-cert', CERT_FILE]);
    expect(trusted.code, trusted.out + trusted.err).toBe(0);
    const insecure = await loadRun(https.baseUrl, [...args, '--insecure']);
    expect(insecure.code, insecure.out + insecure.err).toBe(0);
  });
});

test('load run against a server it cannot use says why before any load (exit 2): an untrusted certificate, a refused key', async () => {
  const untrusted = await loadRun(https.baseUrl, ['--node']);
  expect(untrusted.code, untrusted.out + untrusted.err).toBe(2);
  expect(untrusted.err).toMatch(/certificate is not trusted: give its CA with --ca-cert FILE \(or NODE_EXTRA_CA_CERTS\), or --insecure/);
  expect(untrusted.out).not.toMatch(/warm-up \(not counted\)/);
  const refusedKey = await loadRun(target.baseUrl, ['--node'], { DECISION_API_KEY: 'svc_live_not_a_key_of_this_server' });
  expect(refusedKey.code, refusedKey.out + refusedKey.err).toBe(2);
  expect(refusedKey.err).toMatch(/refused the key given for project A \(401\): check --api-key or DECISION_API_KEY/);
});

test('load run with the Node runner through a forward proxy (--proxy), HTTPS tunnelled with the CA', async () => {
  const before = proxy.used();
  const plain = await loadRun(target.baseUrl, ['--node', '--proxy', proxy.url]);
  expect(plain.code, plain.out + plain.err).toBe(0);
  const tunnelled = await loadRun(https.baseUrl, ['--node', '--proxy', proxy.url, '--ca-cert', CERT_FILE]);
  expect(tunnelled.code, tunnelled.out + tunnelled.err).toBe(0);
  // The warm-up and the run, each of the two commands.
  expect(proxy.used() - before).toBeGreaterThanOrEqual(2);
});

test('load run refuses the deployment options without --base-url, and malformed ones, as run does (exit 2)', async () => {
  const bundled = await runKitCommand(['load', 'run', '--scenario', 'decide-steady', '--node', '--header', 'X-Tenant: acme']);
  expect(bundled.code).toBe(2);
  expect(bundled.err).toMatch(/--header is for --base-url/);
  const malformed = await runKitCommand(['load', 'run', '--scenario', 'decide-steady', '--node', '--base-url', target.baseUrl, '--proxy', 'proxy:3128'], {
    DECISION_API_KEY: target.keyA,
  });
  expect(malformed.code).toBe(2);
  expect(malformed.err).toMatch(/--proxy "proxy:3128": give the proxy as http:\/\/host:port/);
});

// Every stock k6 script is accepted by k6 and runs green against the reference server, in both
// of its profiles (the alternate one makes another allowed choice on every open point); a broken
// server makes the same script miss its thresholds.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../api/embedded-target.ts';
import { isOperation, startMutatingProxy } from '../../harness/testing/mutating-proxy.ts';
import { SCENARIO_DIR, runWithK6 } from '../k6.ts';
import { SCENARIOS } from '../runner/definition.ts';
import { warmUp } from '../run.ts';
import { k6ForTests, LATENCY_OUT_OF_REACH, loadRunErrors, NO_K6, settingsFor, SHORT_SETTINGS } from './support.ts';

const k6 = k6ForTests();
if (!k6) console.warn(NO_K6);

describe.skipIf(!k6)('scenarios under k6', () => {
  let target: EmbeddedTarget;
  let alternate: EmbeddedTarget;

  beforeAll(async () => {
    [target, alternate] = await Promise.all([startEmbeddedTarget(), startEmbeddedTarget({ profile: 'alternate' })]);
    await Promise.all([warmUp('mixed', settingsFor(target.baseUrl, target.keyA)), warmUp('mixed', settingsFor(alternate.baseUrl, alternate.keyA))]);
  });
  afterAll(async () => Promise.all([target?.stop(), alternate?.stop()]));

  test.each(SCENARIOS.map((name) => [name]))('k6 inspect accepts load/scenarios/%s.js', async (name) => {
    const { stdout } = await promisify(execFile)(k6!, ['inspect', join(SCENARIO_DIR, `${name}.js`)]);
    expect(JSON.parse(stdout).scenarios[name]).toBeDefined();
  });

  describe.each(SCENARIOS.map((name) => [name]))('%s under k6', (name) => {
    test.each(['reference', 'alternate'] as const)('runs green against the bundled server, %s profile', { timeout: 60_000 }, async (profile) => {
      const server = profile === 'reference' ? target : alternate;
      // Green is no error and no failed check; latency is the machine's (LATENCY_OUT_OF_REACH), yet judged by k6 as always.
      const run = await runWithK6(k6!, name, settingsFor(server.baseUrl, server.keyA, { ...SHORT_SETTINGS[name], ...LATENCY_OUT_OF_REACH }));
      expect(loadRunErrors(run)).toEqual([]);
      expect(run.generator.name).toBe('k6');
      // The kit's percentiles from k6's raw samples, as for the Node runner.
      expect(run.percentile_method).toBe('nearest-rank');
      expect(run.requests).toBeGreaterThan(0);
      expect(run.checks.filter((check) => check.fails > 0)).toEqual([]);
      expect(run.thresholds.filter((threshold) => !threshold.ok)).toEqual([]);
      expect(run.passed).toBe(true);
    });
  });

  test('a server that drops X-Request-ID and answers decide with 500 misses the thresholds under k6', { timeout: 60_000 }, async () => {
    const proxy = await startMutatingProxy(target.baseUrl, {
      response: (received, sent) => {
        const { 'x-request-id': _dropped, ...headers } = received.headers;
        return isOperation(sent, 'POST', '/v1/decide') && sent.headers['x-request-id']?.endsWith('0')
          ? { status: 500, headers, body: Buffer.from('{}') }
          : { ...received, headers };
      },
    });
    try {
      const run = await runWithK6(k6!, 'decide-steady', settingsFor(proxy.baseUrl, target.keyA, SHORT_SETTINGS['decide-steady']));
      expect(run.passed).toBe(false);
      expect(run.error_rate).toBeGreaterThan(0);
      const failing = run.checks.filter((check) => check.fails > 0).map((check) => check.name);
      expect(failing).toEqual(expect.arrayContaining(['decide request-id', 'decide contract-body']));
      expect(failing.some((name) => name.startsWith('decide status'))).toBe(true);
    } finally {
      await proxy.close();
    }
  });
});

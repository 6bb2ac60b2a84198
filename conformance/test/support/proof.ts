// The proof that checks can fail: every check of an area runs against the reference server
// (and must pass, or be observed), and every MUST check runs against the reference server
// behind a mutating proxy that breaks exactly what the check is about (and must fail).
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../../api/embedded-target.ts';
import { checks } from '../../registry.ts';
import { withBurstBarrier } from '../../../harness/testing/burst-barrier.ts';
import { startMutatingProxy, type Mutation } from '../../../harness/testing/mutating-proxy.ts';
import { runOneCheck } from './run-check.ts';
import type { Check } from '../../../harness/check.ts';

export interface BrokenServer {
  /** What is wrong with the server, in a few words. */
  fault: string;
  mutation(target: EmbeddedTarget): Mutation;
}

/** Check id -> the broken servers that must make it fail (at least one per MUST check). */
export type BrokenServers = Record<string, BrokenServer[]>;

/** Proves the checks of an area (of the conformance catalogue, or of `catalogue`) against the reference server and each broken server. */
export function proveChecks(area: string, brokenServers: BrokenServers, catalogue: readonly Check[] = checks, timeoutMs?: number): void {
  const areaChecks = catalogue.filter((check) => check.area === area);
  let target: EmbeddedTarget;

  beforeAll(async () => {
    target = await startEmbeddedTarget();
  });
  afterAll(async () => target.stop());

  const asTarget = (baseUrl: string) => ({ baseUrl, keyA: target.keyA, keyB: target.keyB, keyShortTtl: target.keyShortTtl, shortTtlMs: target.shortTtlMs });

  test(`area ${area} has checks, and every MUST check has a broken server that makes it fail`, () => {
    expect(areaChecks.length).toBeGreaterThan(0);
    for (const check of areaChecks.filter((c) => c.level === 'MUST')) {
      expect(brokenServers[check.id]?.length ?? 0, `${check.id} has no broken server`).toBeGreaterThan(0);
    }
    for (const id of Object.keys(brokenServers))
      expect(
        areaChecks.map((c) => c.id),
        `${id} is not a check of ${area}`,
      ).toContain(id);
  });

  /**
   * A concurrent check sends its bursts through a barrier in front of the server it talks to, so
   * that they overlap on any machine (burst-barrier.ts); the others run as they are.
   */
  const overlapping = <T>(check: { concurrent?: boolean }, server: Server, use: () => Promise<T>) => (check.concurrent ? withBurstBarrier(server, use) : use());

  describe.each(areaChecks.map((check) => [check.id, check] as const))('%s', (id, check) => {
    test('passes against the reference server', async () => {
      const result = await overlapping(check, target.server, () => runOneCheck(check, asTarget(target.baseUrl), timeoutMs));
      const expected = check.level === 'OBSERVE' ? 'observed' : 'pass';
      expect(result.status, `${result.message ?? ''}\n${result.notes.join('\n')}`).toBe(expected);
      // A check of requests sent together passes only on a real overlap (the runner skips it otherwise).
      if (check.concurrent) expect(result.overlap?.answeredTogether ?? 0).toBeGreaterThan(1);
    });

    for (const broken of brokenServers[id] ?? []) {
      test(`fails against a server that ${broken.fault}`, async () => {
        const proxy = await startMutatingProxy(target.baseUrl, broken.mutation(target));
        try {
          const result = await overlapping(check, proxy.server, () => runOneCheck(check, asTarget(proxy.baseUrl), timeoutMs));
          expect(result.status, `${result.message ?? ''}\n${result.notes.join('\n')}`).toBe(check.level === 'OBSERVE' ? 'observed' : 'fail');
          if (check.level !== 'OBSERVE') expect(result.message).toBeTruthy();
          // Caught with requests that really overlapped: in flight together, and answered together.
          if (check.concurrent) {
            expect(result.overlap?.maxInFlight ?? 0).toBeGreaterThan(1);
            expect(result.overlap?.answeredTogether ?? 0).toBeGreaterThan(1);
          }
        } finally {
          await proxy.close();
        }
      });
    }
  });
}

// The embedded default target: the bundled reference server, started in-process on a free port
// with three projects — two for isolation, and a third whose assets expire within seconds so
// that expiry can be seen in a run. Keys are random per start and never printed. The server's
// code is imported only here and only when started: its packages are optional (optional-parts.ts).
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiKeyPrefix } from '../spec/index.ts';
import type { ChoiceOverrides, ProfileName } from '../reference-impl/server/profile.ts';
import { requirePart } from './optional-parts.ts';
import { ALL_CAPABILITIES } from '../harness/check.ts';
import type { RunOptions } from '../harness/runner.ts';

export const EMBEDDED_SHORT_TTL_MS = 3_000;

export interface EmbeddedTarget {
  baseUrl: string;
  keyA: string;
  keyB: string;
  /** A key of a project whose assets live EMBEDDED_SHORT_TTL_MS. */
  keyShortTtl: string;
  shortTtlMs: number;
  /** Which choice the server makes on the spec's open points. */
  profile: ProfileName;
  /** The Node HTTP server it listens with (the kit's tests put a burst barrier in front of its handlers). */
  server: Server;
  stop(): Promise<void>;
}

const newKey = (label: string) => `${apiKeyPrefix}${label}_${randomBytes(12).toString('hex')}`;

/**
 * How the runner reaches the bundled server: every capability, both projects and the
 * short-lifetime one; at `baseUrl` when something stands in front of it (a broken proxy, a gateway).
 */
export function runnerTargetOf(target: EmbeddedTarget, baseUrl = target.baseUrl): Pick<RunOptions, 'target' | 'keyA' | 'keyB'> {
  return {
    target: { baseUrl, capabilities: new Set(ALL_CAPABILITIES), hasSecondKey: true, shortTtl: { key: target.keyShortTtl, ttlMs: target.shortTtlMs } },
    keyA: target.keyA,
    keyB: target.keyB,
  };
}

export async function startEmbeddedTarget(options: { shortTtlMs?: number; profile?: ProfileName; choices?: ChoiceOverrides } = {}): Promise<EmbeddedTarget> {
  requirePart('reference-server');
  const { createReferenceServer } = await import('../reference-impl/server/app.ts');
  const profile = options.profile ?? 'reference';
  const dataDir = mkdtempSync(join(tmpdir(), 'decision-embedded-'));
  const shortTtlMs = options.shortTtlMs ?? EMBEDDED_SHORT_TTL_MS;
  const keyA = newKey('a');
  const keyB = newKey('b');
  const keyShortTtl = newKey('ttl');
  const { app } = await createReferenceServer({
    dataDir,
    projects: [
      { projectId: 'proj_conformance_a', keys: [keyA] },
      { projectId: 'proj_conformance_b', keys: [keyB] },
      { projectId: 'proj_conformance_short_ttl', keys: [keyShortTtl], assetTtlMs: shortTtlMs },
    ],
    // The suites send bursts; the embedded server must not rate-limit the run itself.
    rateLimit: { perSecond: 100_000, burst: 100_000 },
    logger: false,
    profile,
    ...(options.choices ? { choices: options.choices } : {}),
  });
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    baseUrl,
    keyA,
    keyB,
    keyShortTtl,
    shortTtlMs,
    profile,
    server: app.server,
    async stop() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

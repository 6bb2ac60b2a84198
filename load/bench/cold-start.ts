// Cold start of the bundled reference server as a deployment starts it: a new process, timed from
// spawn to "listening" and to the first successful decision. The seed allows a cold start of up
// to about 2 minutes (section 8); the kit's own target is far tighter (see README.md).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { median } from '../compare.ts';
import { startServerProcess } from './server-process.ts';

export interface ColdStart {
  listeningMs: number;
  firstDecideMs: number;
}

export interface DecideCall {
  key: string;
  body: string;
}

const FIRST_DECIDE_TIMEOUT_MS = 180_000;

/** One start: `command args… --port 0 --data-dir <fresh> --keys bench=<key>`, then decisions until one succeeds. */
export async function coldStart(command: string, args: string[], decide: DecideCall): Promise<ColdStart> {
  const dataDir = mkdtempSync(join(tmpdir(), 'decision-cold-start-'));
  const server = await startServerProcess(command, [...args, '--port', '0', '--data-dir', dataDir, '--keys', `bench=${decide.key}`, '--log-level', 'warn']);
  try {
    for (;;) {
      const reply = await request(`${server.baseUrl}/v1/decide`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${decide.key}` },
        body: decide.body,
      }).catch(() => undefined);
      await reply?.body.dump();
      if (reply && reply.statusCode >= 200 && reply.statusCode < 300) return { listeningMs: server.listeningMs, firstDecideMs: server.sinceSpawn() };
      if (server.sinceSpawn() > FIRST_DECIDE_TIMEOUT_MS) throw new Error(`no successful decision within ${FIRST_DECIDE_TIMEOUT_MS} ms of spawn`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Wall time of `node -e ''` with the environment as it is and without the named variables,
 * medians of `runs` alternating spawns. Some environments set variables that every Node process
 * pays for at start (NODE_EXTRA_CA_CERTS is read and parsed before any script runs); `npm run
 * serve` starts Node twice, npm's and the server's. What such a variable costs is printed beside
 * the cold start, which is measured with the environment as it is.
 */
export function nodeStartCost(variables: readonly string[], runs = 5): { asIs: number; without: number } {
  const without = { ...process.env };
  for (const name of variables) delete without[name];
  const time = (env: NodeJS.ProcessEnv) => {
    const started = performance.now();
    spawnSync(process.execPath, ['-e', ''], { env, stdio: 'ignore' });
    return performance.now() - started;
  };
  const asIs: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < runs; i++) {
    asIs.push(time(process.env));
    bare.push(time(without));
  }
  return { asIs: median(asIs), without: median(bare) };
}

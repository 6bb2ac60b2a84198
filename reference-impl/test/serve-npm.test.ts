// `npm run serve` exactly as a user, a container or a CI job starts it: the development keys it
// prints work (the expiry project's assets live a few seconds), and a SIGTERM to the started
// process (npm) ends the server itself, leaving no orphan behind.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Ids of live processes whose command line mentions the marker (the test's own data folder). */
function processesMentioning(marker: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
      } catch {
        return false; // ended while we looked
      }
    })
    .map(Number);
}

const portAccepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

test('npm run serve prints a working expiry-project key, and SIGTERM to npm ends the server', { timeout: 60_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'decision-serve-npm-'));
  const port = await freePort();
  const npm = spawn('npm', ['run', 'serve', '--', '--port', String(port), '--data-dir', dataDir, '--log-level', 'warn'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    let out = '';
    await new Promise<void>((resolve, reject) => {
      npm.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('--expiry-ttl-seconds')) resolve();
      });
      npm.on('exit', (code) => reject(new Error(`npm run serve exited with ${code}: ${out}`)));
    });
    const expiryKey = /--expiry-api-key (svc_live_\S+)/.exec(out)?.[1];
    const ttlSeconds = Number(/--expiry-ttl-seconds (\d+)/.exec(out)?.[1]);
    expect(out).toMatch(new RegExp(`Development key of \\S+ \\(its assets expire ${ttlSeconds} s after upload\\): ${expiryKey}`));

    // The printed key belongs to a project whose uploads expire after the printed lifetime.
    const upload = await request(`http://127.0.0.1:${port}/v1/assets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${expiryKey}`, 'content-type': 'text/plain' },
      body: 'A short note.\n',
    });
    const asset = (await upload.body.json()) as { created_at: string; expires_at: string };
    expect(upload.statusCode).toBe(201);
    expect(Date.parse(asset.expires_at) - Date.parse(asset.created_at)).toBe(ttlSeconds * 1000);

    const serverProcesses = processesMentioning(dataDir);
    expect(serverProcesses).toContain(npm.pid);
    expect(serverProcesses.length).toBeGreaterThan(1); // npm and the server it started

    npm.kill('SIGTERM');
    expect(await waitFor(async () => !(await portAccepts(port)), 10_000)).toBe(true);
    expect(await waitFor(() => processesMentioning(dataDir).length === 0, 10_000)).toBe(true);
  } finally {
    for (const pid of processesMentioning(dataDir)) process.kill(pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});

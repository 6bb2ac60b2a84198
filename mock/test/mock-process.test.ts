// `npm run mock` as a container stop or a cancelled CI job ends it: SIGTERM to the started process
// (npm) must end the mock server and Prism with it, leaving no process and no open port behind.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function answers(port: number): Promise<boolean> {
  try {
    const response = await request(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1_000) });
    await response.body.dump();
    return true;
  } catch {
    return false;
  }
}

/** Parent pid of every live process, from /proc. */
function parents(): Map<number, number> {
  const table = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name may hold spaces and parentheses: the fields after its closing one are fixed.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      table.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  return table;
}

/** `pid` and every process below it. */
function processTree(pid: number): number[] {
  const table = parents();
  const tree = [pid];
  for (let i = 0; i < tree.length; i += 1) for (const [child, parent] of table) if (parent === tree[i]) tree.push(child);
  return tree;
}

const alive = (pids: number[]) => {
  const table = parents();
  return pids.filter((pid) => table.has(pid));
};

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await sleep(200);
  }
  return condition();
}

describe('npm run mock', () => {
  it('ends with SIGTERM to the started process: no process remains and the port closes', async () => {
    const port = await freePort();
    const npm = spawn('npm', ['run', 'mock', '--', '--port', String(port), '--quiet'], { cwd: root, stdio: 'ignore' });
    let tree: number[] = [];
    try {
      expect(await until(() => answers(port), 90_000), 'the mock never answered').toBe(true);
      tree = processTree(npm.pid!);
      // npm, the mock server and Prism at least.
      expect(tree.length).toBeGreaterThanOrEqual(3);
      const exited = new Promise((resolve) => npm.once('exit', resolve));
      npm.kill('SIGTERM');
      await exited;
      expect(await until(async () => !(await answers(port)), 15_000), 'the port still answers').toBe(true);
      expect(await until(() => alive(tree).length === 0, 15_000), `still running: ${alive(tree).join(', ')}`).toBe(true);
    } finally {
      // Whatever the outcome, nothing this test started outlives it.
      for (const pid of alive(tree.length > 0 ? tree : [npm.pid!])) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    }
  }, 150_000);
});

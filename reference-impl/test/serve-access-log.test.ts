// Access logs are written in batches, after the responses: none is lost when the server is
// stopped with SIGTERM right after answering.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const KEY = 'svc_live_access_log_test_key';
const DECISIONS = 50;

test('N decisions then SIGTERM: N completed-request lines in the access log', { timeout: 60_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'decision-access-log-'));
  const child = spawn(process.execPath, ['reference-impl/start.mjs', '--port', '0', '--data-dir', dataDir, '--keys', `logs=${KEY}`, '--log-level', 'info'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const baseUrl = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', () => {
        const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
        if (url) resolve(url);
      });
      child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
    });
    const statuses = await Promise.all(
      Array.from({ length: DECISIONS }, async (_, i) => {
        const reply = await request(`${baseUrl}/v1/decide`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'x-request-id': `access-${i}` },
          body: JSON.stringify({ context: 'Refund my double charge, please.', questions: { q: { type: 'choice', options: { billing: '', shipping: '' } } } }),
        });
        await reply.body.dump();
        return reply.statusCode;
      }),
    );
    expect(statuses.every((status) => status === 200)).toBe(true);
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);

    const completed = out.split('\n').filter((line) => line.includes('"request completed"') && line.includes('"access-'));
    expect(new Set(completed.map((line) => JSON.parse(line).reqId)).size).toBe(DECISIONS);
  } finally {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});

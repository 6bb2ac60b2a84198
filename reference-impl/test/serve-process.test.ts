// `npm run serve` as a user runs it: prints its address and dev keys, answers, and on SIGTERM
// finishes the requests in flight before exiting.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { crc32 } from '../../harness/samples/checksums.ts';
import { pngImage } from '../../harness/samples/media.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Waits until serve prints its address and both development keys; returns the address and what it printed. */
function startedServe(child: ChildProcessByStdio<null, Readable, Readable>): Promise<{ baseUrl: string; out: string }> {
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url && out.includes('proj_dev_b')) resolve({ baseUrl: url, out });
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
}

/** `npm run serve` from the sources, on a free port and a data folder of its own; stop() ends it and removes the folder. */
function serve(env: NodeJS.ProcessEnv = process.env) {
  const dataDir = mkdtempSync(join(tmpdir(), 'decision-serve-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'reference-impl/serve.ts', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return {
    child,
    stderr: () => stderr,
    stop: () => {
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The development key serve printed for project proj_dev_a. */
const devKeyA = (out: string) => /Development key of proj_dev_a: (svc_live_\S+)/.exec(out)?.[1];

test('serve prints the base URL and dev keys, and a SIGTERM lets an in-flight upload finish', async () => {
  const server = serve();
  const { child } = server;
  try {
    const { baseUrl, out } = await startedServe(child);
    const key = devKeyA(out);
    expect(key).toMatch(/^svc_live_/);

    const bytes = pngImage({ totalBytes: 400_000 });
    const { port } = new URL(baseUrl);
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/v1/assets',
          // Expect: 100-continue: the server's 100 says it has the request in hand, whatever the machine's speed.
          headers: { authorization: `Bearer ${key}`, 'content-type': 'image/png', 'content-length': bytes.length, expect: '100-continue' },
        },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      // Once the server has the request in hand: half the body, the signal, then the rest. The
      // request is in flight when SIGTERM arrives (a fixed 200 ms once stood for "in hand", which a
      // busy machine need not keep).
      req.once('continue', () => {
        req.write(bytes.subarray(0, 200_000), () => {
          child.kill('SIGTERM');
          setTimeout(() => req.end(bytes.subarray(200_000)), 300);
        });
      });
      req.flushHeaders();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const reply = await response;
    expect(reply.status).toBe(201);
    expect(JSON.parse(reply.body).object).toBe('asset');
    expect(await exited).toBe(0);
  } finally {
    server.stop();
  }
});

test('serve --profile alternate (or env DECISION_PROFILE) serves the alternate open-point choices', async () => {
  const server = serve({ ...process.env, DECISION_PROFILE: 'alternate' });
  const { child } = server;
  try {
    const { baseUrl, out } = await startedServe(child);
    expect(out).toContain('Open-point profile: alternate');
    // The alternate choice of open point unknown-route: 400 INVALID_REQUEST.
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      httpRequest(`${baseUrl}/v1/no-such-route`, { headers: { authorization: `Bearer ${devKeyA(out)}` } }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      })
        .on('error', reject)
        .end();
    });
    expect([status, JSON.parse(body).error.code]).toEqual([400, 'INVALID_REQUEST']);
  } finally {
    server.stop();
  }
});

/** A PNG whose chunks are sound but whose pixel data is not zlib: stored, then not readable by any decoder. */
function pngWithBrokenPixels(): Uint8Array {
  const picture = pngImage({ width: 64, height: 64 });
  const idat = 8 + 25; // the signature, then IHDR's 25 bytes
  const length = new DataView(picture.buffer, picture.byteOffset).getUint32(idat);
  const broken = Uint8Array.from(picture);
  broken.fill(0xff, idat + 8, idat + 8 + length);
  new DataView(broken.buffer).setUint32(idat + 8 + length, crc32(broken.subarray(idat + 4, idat + 8 + length)));
  return broken;
}

test("a picture OCR cannot read answers 500 VISION_FAILED, and nothing of the engine's reaches the server's stderr", async () => {
  const server = serve();
  const { child } = server;
  try {
    const { baseUrl, out } = await startedServe(child);
    const authorization = `Bearer ${devKeyA(out)}`;
    const upload = await fetch(`${baseUrl}/v1/assets`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'image/png' },
      body: Buffer.from(pngWithBrokenPixels()),
    });
    expect(upload.status).toBe(201);
    const { id } = (await upload.json()) as { id: string };
    const decide = await fetch(`${baseUrl}/v1/decide`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ context: [{ type: 'image', asset_id: id }], questions: { q: { type: 'noul', instructions: 'Is anything written?' } } }),
    });
    expect([decide.status, ((await decide.json()) as { error: { code: string } }).error.code]).toEqual([500, 'VISION_FAILED']);
    // The engine's worker thread writes to the process's stderr asynchronously: give it time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(server.stderr()).toBe('');
  } finally {
    server.stop();
  }
});

// A body the parser refuses is read to its end before the answer (server/drain-request.ts): a
// client still sending gets its 413 in the error body and a clean close, not a reset connection.
import { connect } from 'node:net';
import { PassThrough } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { drainRequestBody } from '../server/drain-request.ts';
import { KEY_A, startServer, type RunningServer } from './support/server.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server.stop());

interface RawExchange {
  response: string;
  /** The socket error while sending or reading, if any (a reset shows here). */
  error?: string;
}

/** Sends a request of `bodyBytes` zero bytes over a plain socket, heeding backpressure, and reads until the server closes. */
function sendWhole(path: string, headers: Record<string, string>, bodyBytes: number): Promise<RawExchange> {
  const { hostname, port } = new URL(server.baseUrl);
  const socket = connect(Number(port), hostname);
  let response = '';
  let error: string | undefined;
  socket.on('data', (chunk: Buffer) => (response += chunk.toString('latin1')));
  socket.on('error', (failure: NodeJS.ErrnoException) => (error = failure.code ?? failure.message));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  const head = [
    `POST ${path} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${bodyBytes}`,
  ];
  socket.write(`${head.join('\r\n')}\r\n\r\n`);
  const chunk = Buffer.alloc(1024 * 1024);
  const sendBody = async () => {
    for (let sent = 0; sent < bodyBytes && !socket.destroyed; sent += chunk.length) {
      const piece = chunk.subarray(0, Math.min(chunk.length, bodyBytes - sent));
      if (!socket.write(piece)) await new Promise((resolve) => socket.once('drain', resolve).once('close', resolve));
    }
  };
  return sendBody()
    .then(() => closed)
    .then(() => ({ response, ...(error ? { error } : {}) }));
}

const statusOf = (response: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1]);
const codeOf = (response: string) => (JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)) as { error: { code: string } }).error.code;

describe('a body the parser refuses', () => {
  test('an upload over the largest size limit, still being sent, gets 413 ASSET_TOO_LARGE whole, then a clean close', async () => {
    const exchange = await sendWhole('/v1/assets', { Authorization: `Bearer ${KEY_A}`, 'Content-Type': 'application/pdf' }, 27 * 1024 * 1024);
    expect(exchange.error).toBeUndefined();
    expect(statusOf(exchange.response)).toBe(413);
    expect(codeOf(exchange.response)).toBe('ASSET_TOO_LARGE');
  });

  test('a decide body over 256 KiB, still being sent, gets 413 PAYLOAD_TOO_LARGE whole, then a clean close', async () => {
    const exchange = await sendWhole('/v1/decide', { Authorization: `Bearer ${KEY_A}`, 'Content-Type': 'application/json' }, 8 * 1024 * 1024);
    expect(exchange.error).toBeUndefined();
    expect(statusOf(exchange.response)).toBe(413);
    expect(codeOf(exchange.response)).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('drainRequestBody', () => {
  const request = () => Object.assign(new PassThrough(), { complete: false }) as unknown as IncomingMessage & PassThrough;

  test('resolves when the body ends', async () => {
    const raw = request();
    const drained = drainRequestBody(raw, { maxBytes: 1024, maxMs: 60_000 });
    raw.write(Buffer.alloc(100));
    raw.end();
    await drained;
  });

  test('stops reading past its byte bound, and at its time bound, so that no client holds the server', async () => {
    const flooding = request();
    const flooded = drainRequestBody(flooding, { maxBytes: 1024, maxMs: 60_000 });
    flooding.write(Buffer.alloc(2048));
    await flooded;
    const stalled = request();
    const started = performance.now();
    await drainRequestBody(stalled, { maxBytes: 1024, maxMs: 50 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });
});

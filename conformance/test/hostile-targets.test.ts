// A target that hangs, resets connections, answers non-JSON or sends an endless body never
// hangs or crashes a run: each such failure is reported on its check with what happened.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { checkById } from '../registry.ts';
import { runCheck } from '../../harness/runner.ts';
import { ALL_CAPABILITIES } from '../../harness/check.ts';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function hostile(handler: Parameters<typeof createServer>[1]): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const run = (baseUrl: string, timeoutMs = 500) =>
  runCheck(checkById('AUTH-VALID-KEY'), {
    target: { baseUrl, capabilities: new Set(ALL_CAPABILITIES), hasSecondKey: false },
    keyA: 'svc_live_hostile_target_key',
    timeoutMs,
  });

test('a server that never answers: the check fails with a timeout, within the timeout', async () => {
  const baseUrl = await hostile(() => {});
  const started = Date.now();
  const result = await run(baseUrl);
  expect(result.status).toBe('fail');
  expect(result.message).toMatch(/within 500 ms/);
  expect(Date.now() - started).toBeLessThan(3_000);
  expect(result.exchanges[0]?.transportError).toMatch(/^timeout/);
});

test('a server that resets the connection: the check fails saying so', async () => {
  const baseUrl = await hostile((request) => request.socket.destroy());
  const result = await run(baseUrl);
  expect(result.status).toBe('fail');
  expect(result.message).toMatch(/reset|closed/);
});

test('a server that answers 200 with HTML: the check reports the body it got', async () => {
  const baseUrl = await hostile((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<html>maintenance</html>');
  });
  const result = await runCheck(checkById('AUTH-MISSING-KEY'), {
    target: { baseUrl, capabilities: new Set(ALL_CAPABILITIES), hasSecondKey: false },
    keyA: 'svc_live_hostile_target_key',
    timeoutMs: 500,
  });
  expect(result.status).toBe('fail');
  expect(result.message).toContain('maintenance');
});

test('a server that streams an endless body: reading stops at the cap and the check fails', async () => {
  const baseUrl = await hostile((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (response.write(chunk)) {
        /* keep writing until the socket pushes back */
      }
      response.once('drain', pump);
    };
    response.on('error', () => {});
    pump();
  });
  const result = await run(baseUrl, 10_000);
  expect(result.status).toBe('fail');
  expect(result.message).toMatch(/exceeded/);
});

test('keys never appear in recorded evidence', async () => {
  const baseUrl = await hostile((_request, response) => {
    response.writeHead(500, { 'content-type': 'application/json' });
    response.end('{"echo":"svc_live_hostile_target_key"}');
  });
  const result = await run(baseUrl);
  expect(JSON.stringify(result)).not.toContain('svc_live_hostile_target_key');
});

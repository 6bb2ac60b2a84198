// The launcher: Prism starts on a free port, answers, stops without leaving a process, and a
// failed start says why in Prism's own words.
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startPrismMock } from '../prism.ts';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('startPrismMock', () => {
  it('starts on a free port, answers once resolved, and stop() ends its process group', async () => {
    const mock = await startPrismMock({});
    expect(mock.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = await fetch(`${mock.baseUrl}/health`);
    await health.arrayBuffer();
    expect(health.status).toBe(200);
    expect(isRunning(-mock.pid)).toBe(true);

    await mock.stop();
    await mock.stop();
    expect(isRunning(-mock.pid)).toBe(false);
    expect(await mock.exited).toMatchObject({ signal: 'SIGTERM' });
    await expect(fetch(`${mock.baseUrl}/health`)).rejects.toThrow();
  });

  it("rejects with Prism's stderr when Prism exits before answering", async () => {
    const missing = '/nonexistent/openapi.yaml';
    const started = startPrismMock({ document: missing });
    await expect(started).rejects.toThrow(/Prism exited before answering \(code 1/);
    await expect(started).rejects.toThrow(/Prism stderr:[\s\S]*ENOENT/);
  });

  it('rejects at once when the requested port is taken', async () => {
    const holder = createServer();
    holder.listen(0, '127.0.0.1');
    await once(holder, 'listening');
    const { port } = holder.address() as AddressInfo;
    try {
      await expect(startPrismMock({ port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      holder.close();
    }
  });
});

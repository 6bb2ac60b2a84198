// Starts the reference server in-process for a test: a free port, a fresh data directory, two
// projects, captured logs and a controllable clock.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { request as httpRequest } from 'undici';
import { createReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../../server/app.ts';

export const KEY_A = 'svc_live_test_project_a_secret';
export const KEY_B = 'svc_live_test_project_b_secret';

export interface RunningServer extends ReferenceServer {
  baseUrl: string;
  dataDir: string;
  logs: string[];
  /** Moves the server's clock forward. */
  advance(ms: number): void;
  stop(options?: { keepData?: boolean }): Promise<void>;
}

export async function startServer(overrides: Partial<ReferenceServerOptions> & { dataDir?: string; startAt?: number } = {}): Promise<RunningServer> {
  const dataDir = overrides.dataDir ?? mkdtempSync(join(tmpdir(), 'decision-ref-'));
  let offset = 0;
  const startAt = overrides.startAt;
  const now = () => (startAt ?? Date.now()) + offset;
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const server = await createReferenceServer({
    projects: [
      { projectId: 'proj_a', keys: [KEY_A] },
      { projectId: 'proj_b', keys: [KEY_B] },
    ],
    logger: { level: 'debug', stream },
    now,
    ...overrides,
    dataDir,
  });
  const baseUrl = await server.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    ...server,
    baseUrl,
    dataDir,
    logs,
    advance: (ms) => {
      offset += ms;
    },
    async stop({ keepData = false } = {}) {
      await server.app.close();
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

export async function call(
  server: { baseUrl: string },
  method: string,
  path: string,
  options: { key?: string | null; body?: unknown; raw?: string | Uint8Array; contentType?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== null) headers.authorization = `Bearer ${options.key ?? KEY_A}`;
  let body: string | Uint8Array | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  const response = await httpRequest(`${server.baseUrl}${path}`, { method: method as 'GET', headers, ...(body !== undefined ? { body } : {}) });
  const text = await response.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, headers: response.headers, text, json };
}

export const choiceQuestion = (options: Record<string, string> = { billing: 'Payments, refunds and invoices', shipping: 'Delivery and tracking' }) => ({
  type: 'choice',
  options,
});

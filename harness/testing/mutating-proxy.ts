// A deliberately broken server: a proxy in front of a good one that rewrites requests or
// responses in one named way. The kit's tests use it to prove that each check can fail.
import { listenOnLoopback } from './loopback.ts';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { request } from 'undici';

export interface ProxiedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  /** Whether the body came in chunked transfer coding (the framing header itself is hop-by-hop, so not among `headers`). */
  chunked?: boolean;
}

export interface ProxiedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface Mutation {
  /** Rewrites the request before it reaches the good server. */
  request?(sent: ProxiedRequest): ProxiedRequest | Promise<ProxiedRequest>;
  /** Answers in place of the good server (return undefined to forward). */
  answer?(sent: ProxiedRequest): ProxiedResponse | undefined | Promise<ProxiedResponse | undefined>;
  /** Rewrites the good server's response. */
  response?(received: ProxiedResponse, sent: ProxiedRequest): ProxiedResponse | Promise<ProxiedResponse>;
}

export interface RunningProxy {
  baseUrl: string;
  /** The Node HTTP server it listens with (for a burst barrier in front of its handler). */
  server: Server;
  close(): Promise<void>;
}

async function readBody(message: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

/** Sends a request to the good server as it stands and reads its whole response. */
export async function forward(upstream: string, sent: ProxiedRequest): Promise<ProxiedResponse> {
  const reply = await request(`${upstream}${sent.path}`, {
    method: sent.method as 'GET',
    headers: sent.headers,
    ...(sent.body.length > 0 || !['GET', 'HEAD'].includes(sent.method) ? { body: sent.body } : {}),
  });
  return {
    status: reply.statusCode,
    headers: Object.fromEntries(
      Object.entries(reply.headers)
        .filter(([name]) => !HOP_BY_HOP.has(name))
        .map(([name, value]) => [name, String(value)]),
    ),
    body: Buffer.from(await reply.body.arrayBuffer()),
  };
}

/** A certificate and key for serving HTTPS (a gateway that terminates TLS). */
export interface ServingTls {
  key: string;
  cert: string;
}

/** Starts the proxy on 127.0.0.1; with `tls`, it serves HTTPS, its base URL naming localhost (the name the test certificate holds). */
export async function startMutatingProxy(upstream: string, mutation: Mutation, tls?: ServingTls): Promise<RunningProxy> {
  const handle = async (incoming: IncomingMessage, outgoing: ServerResponse) => {
    try {
      let sent: ProxiedRequest = {
        method: incoming.method ?? 'GET',
        path: incoming.url ?? '/',
        headers: Object.fromEntries(
          Object.entries(incoming.headers)
            .filter(([name]) => !HOP_BY_HOP.has(name))
            .map(([name, value]) => [name, String(value)]),
        ),
        body: await readBody(incoming),
        ...(/chunked/i.test(incoming.headers['transfer-encoding'] ?? '') ? { chunked: true } : {}),
      };
      if (mutation.request) sent = await mutation.request(sent);
      let received = mutation.answer ? await mutation.answer(sent) : undefined;
      if (!received) {
        received = await forward(upstream, sent);
        if (mutation.response) received = await mutation.response(received, sent);
      }
      outgoing.writeHead(received.status, { ...received.headers, 'content-length': String(received.body.length) });
      outgoing.end(received.body);
    } catch (error) {
      outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end(`proxy failure: ${(error as Error).message}`);
    }
  };
  const server: Server = tls ? createHttpsServer(tls, handle) : createServer(handle);
  const listening = await listenOnLoopback(server);
  return { baseUrl: tls ? `https://localhost:${listening.port}` : listening.url, server, close: listening.close };
}

/** Rewrites a JSON response body; leaves other bodies alone. */
export function rewriteJson(received: ProxiedResponse, edit: (body: any) => unknown): ProxiedResponse {
  let body: unknown;
  try {
    body = JSON.parse(received.body.toString('utf8'));
  } catch {
    return received;
  }
  return { ...received, body: Buffer.from(JSON.stringify(edit(body))) };
}

/** Rewrites a JSON request body; leaves other bodies alone. */
export function rewriteJsonRequest(sent: ProxiedRequest, edit: (body: any) => unknown): ProxiedRequest {
  let body: unknown;
  try {
    body = JSON.parse(sent.body.toString('utf8'));
  } catch {
    return sent;
  }
  return { ...sent, body: Buffer.from(JSON.stringify(edit(body))) };
}

export function isOperation(sent: ProxiedRequest, method: string, pathPrefix: string): boolean {
  return sent.method === method && sent.path.split('?')[0]!.startsWith(pathPrefix);
}

/** The Asset body a server that stores an upload with no file would answer (a broken server's). */
export function emptyFileAsset(id = `asset_${randomBytes(12).toString('hex')}`): Record<string, unknown> {
  return {
    id,
    object: 'asset',
    mime_type: 'image/png',
    size_bytes: 0,
    sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    created_at: new Date().toISOString(),
    expires_at: new Date(Date.now() + 86_400_000).toISOString(),
  };
}

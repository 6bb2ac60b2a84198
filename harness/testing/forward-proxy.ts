// A forward proxy as a corporate network puts in front of the internet, for the kit's own tests:
// it tunnels CONNECT requests (what undici's proxy agents send, for http and https targets alike)
// and forwards absolute-form requests, and counts both, so that a test can tell its requests went
// through it.
import { listenOnLoopback } from './loopback.ts';
import { createServer, request as httpRequest } from 'node:http';
import { connect } from 'node:net';

export interface ForwardProxy {
  url: string;
  /** Tunnels opened and requests forwarded so far. */
  used(): number;
  close(): Promise<void>;
}

export async function startForwardProxy(): Promise<ForwardProxy> {
  let used = 0;
  const server = createServer((incoming, outgoing) => {
    // An absolute-form request: GET http://host:port/path.
    used += 1;
    const target = new URL(incoming.url ?? '/');
    const forwarded = httpRequest(
      { host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: incoming.method, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(forwarded);
  });
  server.on('connect', (incoming, client, head) => {
    used += 1;
    const [host, port] = (incoming.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    const end = () => {
      upstream.destroy();
      client.destroy();
    };
    upstream.on('error', end);
    client.on('error', end);
  });
  const { url, close } = await listenOnLoopback(server);
  return { url, used: () => used, close };
}

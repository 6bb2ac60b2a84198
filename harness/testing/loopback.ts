// A test server listening on a free loopback port: its port, and a close that ends every
// connection first (kept-alive ones would otherwise hold `close` open until they time out).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  port: number;
  /** http://127.0.0.1:<port> */
  url: string;
  close(): Promise<void>;
}

export async function listenOnLoopback(server: Server): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

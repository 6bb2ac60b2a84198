// A lingering close. When the body parser refuses a request (a body over its limit, a wrong
// Content-Length), Fastify answers at once and closes the connection, since the client may send
// more. If the client is still sending, closing a socket with unread data makes the kernel send a
// reset, and a reset can reach the client before it has read the answer: it then sees "connection
// reset" where the seed promises 413 in the error body (seen under load, about one upload of 26 MB
// in three). Reading the rest of the body first, up to a bound, lets the answer arrive whole.
import type { IncomingMessage } from 'node:http';

/** How much of a refused body is read before answering anyway: beyond it, a client that keeps sending gets the reset. */
export const DRAIN_LIMITS = { maxBytes: 64 * 1024 * 1024, maxMs: 10_000 } as const;

/** Reads and discards what is left of a request's body; resolves when it ended, or at a bound. */
export function drainRequestBody(raw: IncomingMessage, limits: { maxBytes: number; maxMs: number } = DRAIN_LIMITS): Promise<void> {
  if (raw.complete || raw.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let received = 0;
    const finish = () => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', finish);
      raw.off('error', finish);
      raw.off('close', finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limits.maxBytes) finish();
    };
    const timer = setTimeout(finish, limits.maxMs);
    raw.on('data', onData);
    raw.once('end', finish);
    raw.once('error', finish);
    raw.once('close', finish);
    raw.resume();
  });
}

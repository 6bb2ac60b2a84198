// One HTTP request through undici's dispatch API, body collected as a string. pool.request()
// wraps every response in a Readable stream and a promise chain; at thousands of requests per
// second on a two-core machine that wrapping was a large share of the generator's CPU, which the
// server under test then lacked. The runner and the open-loop benchmark both send through here.
import type { Dispatcher } from 'undici';

export interface SendOptions {
  /** The server's origin, for a dispatcher that serves many (an Agent, a proxy); a Pool has its own. */
  origin?: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | ArrayBuffer;
}

export interface Reply {
  status: number;
  /** Lower-case names; a repeated header's values joined with ", ", as k6 gives them. */
  headers: Record<string, string>;
  body: string;
}

export function send(dispatcher: Dispatcher, options: SendOptions): Promise<Reply> {
  return new Promise<Reply>((resolve, reject) => {
    let status = 0;
    let headers: Record<string, string> = {};
    const chunks: Buffer[] = [];
    dispatcher.dispatch(
      {
        ...(options.origin !== undefined ? { origin: options.origin } : {}),
        method: options.method as Dispatcher.HttpMethod,
        path: options.path,
        headers: options.headers ?? {},
        ...(options.body !== undefined ? { body: typeof options.body === 'string' ? options.body : Buffer.from(options.body as Uint8Array) } : {}),
      },
      {
        // Its presence marks a handler of the current API (undici checks for it).
        onRequestStart() {},
        onResponseStart(_controller, statusCode, responseHeaders) {
          status = statusCode;
          headers = {};
          for (const [name, value] of Object.entries(responseHeaders)) {
            if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
          }
        },
        onResponseData(_controller, chunk) {
          chunks.push(chunk);
        },
        onResponseEnd() {
          resolve({ status, headers, body: chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8') });
        },
        onResponseError(_controller, error) {
          reject(error);
        },
      },
    );
  });
}

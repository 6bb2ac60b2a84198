import { randomBytes } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../api/embedded-target.ts';
import { createHttp, type Exchange } from '../../harness/http.ts';
import { decideBody } from '../../harness/requests.ts';
import { emptyFileAsset, type ProxiedRequest, type ProxiedResponse } from '../../harness/testing/mutating-proxy.ts';
import { checks } from '../registry.ts';
import { proveChecks } from './support/proof.ts';
import { runOneCheck } from './support/run-check.ts';

const bare = (sent: ProxiedRequest) => sent.path.split('?')[0]!;
const isV1 = (sent: ProxiedRequest) => /^\/v1\//i.test(sent.path) || sent.path.startsWith('/%76');
const hasKey = (sent: ProxiedRequest) => sent.headers.authorization !== undefined;
const withKey = (sent: ProxiedRequest, target: EmbeddedTarget): ProxiedRequest => ({
  ...sent,
  headers: { ...sent.headers, authorization: `Bearer ${target.keyA}` },
});
/** The spec's /v1 paths, written out here so that the proofs do not share the checks' reading of them. */
const SPEC_PATH = /^\/v1\/(decide|feedback|models|assets|assets\/[^/]+)$/;

const newId = () => `req_${randomBytes(8).toString('hex')}`;
const jsonAnswer = (status: number, body: unknown): ProxiedResponse => ({
  status,
  headers: { 'content-type': 'application/json', 'x-request-id': newId() },
  body: Buffer.from(JSON.stringify(body)),
});
const errorAnswer = (status: number, code: string): ProxiedResponse => {
  const id = newId();
  return {
    status,
    headers: { 'content-type': 'application/json', 'x-request-id': id },
    body: Buffer.from(JSON.stringify({ error: { code, message: 'Broken on purpose.', request_id: id } })),
  };
};
const plainAnswer = (status: number, text: string): ProxiedResponse => ({ status, headers: { 'content-type': 'text/plain' }, body: Buffer.from(text) });
const emptyAnswer = (status: number): ProxiedResponse => ({ status, headers: { 'x-request-id': newId() }, body: Buffer.alloc(0) });
const withoutRequestId = (received: ProxiedResponse): ProxiedResponse => {
  const { 'x-request-id': _dropped, ...headers } = received.headers;
  return { ...received, headers };
};
const isPost = (sent: ProxiedRequest, path: string) => sent.method === 'POST' && bare(sent) === path;
const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('surface-edges checks', () => {
  proveChecks('surface-edges', {
    'EDGE-METHOD-NO-KEY': [
      {
        fault: 'answers OPTIONS on /v1 paths with 204 before any key check (a CORS preflight handler)',
        mutation: () => ({
          answer: (sent) =>
            sent.method === 'OPTIONS' && isV1(sent) ? { ...emptyAnswer(204), headers: { ...emptyAnswer(204).headers, allow: 'GET, POST' } } : undefined,
        }),
      },
      {
        fault: 'serves HEAD on GET paths without checking the key',
        mutation: (target) => ({ request: (sent) => (sent.method === 'HEAD' && !hasKey(sent) ? withKey(sent, target) : sent) }),
      },
      {
        fault: 'answers a method a path does not serve with a plain-text 405 page and no X-Request-ID',
        mutation: () => ({
          response: (received, sent) => (received.status === 404 && SPEC_PATH.test(bare(sent)) ? plainAnswer(405, 'Method Not Allowed') : received),
        }),
      },
    ],
    'EDGE-METHOD-WITH-KEY': [
      {
        fault: 'answers a method a path does not serve with a plain-text 405 page and no X-Request-ID',
        mutation: () => ({
          response: (received, sent) => (received.status === 404 && SPEC_PATH.test(bare(sent)) ? plainAnswer(405, 'Method Not Allowed') : received),
        }),
      },
      {
        fault: 'answers OPTIONS with a key with 500 INTERNAL_ERROR',
        mutation: () => ({ answer: (sent) => (sent.method === 'OPTIONS' && hasKey(sent) ? errorAnswer(500, 'INTERNAL_ERROR') : undefined) }),
      },
      {
        fault: 'drops X-Request-ID on HEAD answers',
        mutation: () => ({ response: (received, sent) => (sent.method === 'HEAD' ? withoutRequestId(received) : received) }),
      },
      {
        fault: 'answers PATCH with a 404 whose body is not the error body',
        mutation: () => ({
          response: (received, sent) => (sent.method === 'PATCH' ? { ...received, body: Buffer.from(JSON.stringify({ message: 'Not Found' })) } : received),
        }),
      },
    ],
    'EDGE-SPELLING-NO-KEY': [
      {
        fault: 'serves a /v1 path with a trailing slash with the key check bypassed',
        mutation: (target) => ({
          request: (sent) =>
            isV1(sent) && bare(sent).endsWith('/') && !hasKey(sent) ? withKey({ ...sent, path: sent.path.replace(/\/(\?|$)/, '$1') }, target) : sent,
        }),
      },
      {
        fault: 'serves /V1/… with the key check bypassed',
        mutation: (target) => ({
          request: (sent) => (sent.path.startsWith('/V1/') && !hasKey(sent) ? withKey({ ...sent, path: `/v1/${sent.path.slice(4)}` }, target) : sent),
        }),
      },
      {
        fault: 'answers a doubled slash with a 500',
        mutation: () => ({ answer: (sent) => (isV1(sent) && bare(sent).includes('//') ? errorAnswer(500, 'INTERNAL_ERROR') : undefined) }),
      },
    ],
    'EDGE-SPELLING-WITH-KEY': [
      {
        fault: 'answers a doubled slash with 200 and an empty object (a catch-all route)',
        mutation: () => ({ answer: (sent) => (isV1(sent) && bare(sent).includes('//') ? jsonAnswer(200, {}) : undefined) }),
      },
      {
        fault: "answers a trailing slash with a framework's plain-text 404 and no X-Request-ID",
        mutation: () => ({ answer: (sent) => (isV1(sent) && bare(sent).endsWith('/') ? plainAnswer(404, 'Not Found') : undefined) }),
      },
      {
        fault: 'answers a dot segment with 502 and an HTML page',
        mutation: () => ({
          answer: (sent) =>
            sent.path.includes('/./')
              ? { status: 502, headers: { 'content-type': 'text/html', 'x-request-id': newId() }, body: Buffer.from('<h1>Bad Gateway</h1>') }
              : undefined,
        }),
      },
    ],
    'EDGE-BODY-NOT-AN-OBJECT': [
      {
        fault: 'accepts an upload with no file (201 with an asset body)',
        mutation: () => ({
          answer: (sent) => (isPost(sent, '/v1/assets') && sent.body.length === 0 && hasKey(sent) ? jsonAnswer(201, emptyFileAsset()) : undefined),
        }),
      },
      {
        fault: 'answers a decide whose body is JSON null with a default decision (200)',
        mutation: () => ({
          request: (sent) =>
            isPost(sent, '/v1/decide') && sent.body.toString() === 'null' ? { ...sent, body: Buffer.from(JSON.stringify(decideBody())) } : sent,
        }),
      },
      {
        fault: 'answers an empty feedback body with a 500',
        mutation: () => ({ answer: (sent) => (isPost(sent, '/v1/feedback') && sent.body.length === 0 ? errorAnswer(500, 'INTERNAL_ERROR') : undefined) }),
      },
    ],
    'EDGE-BODY-PARSER-EXTREMES': [
      {
        fault: "answers 500 to JSON nested 5,000 levels deep (a recursive parser's stack overflow)",
        mutation: () => ({ answer: (sent) => (sent.body.includes('['.repeat(1000)) ? errorAnswer(500, 'INTERNAL_ERROR') : undefined) }),
      },
      {
        fault: 'answers 500 to the number 1e400',
        mutation: () => ({ answer: (sent) => (sent.body.includes('1e400') ? errorAnswer(500, 'INTERNAL_ERROR') : undefined) }),
      },
      {
        fault: 'reads a context of nested arrays as the text they flatten to, and answers it',
        mutation: () => ({
          request: (sent) =>
            isPost(sent, '/v1/decide') && sent.body.includes('"context":[[') ? { ...sent, body: Buffer.from(JSON.stringify(decideBody())) } : sent,
        }),
      },
    ],
    'EDGE-BODY-JSON-EDGES': [
      {
        fault: 'answers 500 to a body that starts with a byte-order mark',
        mutation: () => ({
          answer: (sent) => (sent.body.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])) ? errorAnswer(500, 'INTERNAL_ERROR') : undefined),
        }),
      },
      {
        fault: 'answers duplicate member names with a 200 and an empty body',
        mutation: () => ({ answer: (sent) => (occurrences(sent.body.toString(), '"context":') > 1 ? emptyAnswer(200) : undefined) }),
      },
      {
        fault: 'answers 500 to bytes that are not UTF-8',
        mutation: () => ({
          answer: (sent) =>
            isV1(sent) && !isUtf8(sent.body) && sent.headers['content-type'] === 'application/json' ? errorAnswer(500, 'INTERNAL_ERROR') : undefined,
        }),
      },
      {
        fault: 'drops X-Request-ID when a string holds an unpaired surrogate',
        mutation: () => ({ response: (received, sent) => (sent.body.includes('\\ud800') ? withoutRequestId(received) : received) }),
      },
    ],
    'EDGE-BODY-CONTENT-TYPE': [
      {
        fault: 'reads a text/plain decide body as JSON but answers it with an empty 200',
        mutation: () => ({ answer: (sent) => (isPost(sent, '/v1/decide') && sent.headers['content-type'] === 'text/plain' ? emptyAnswer(200) : undefined) }),
      },
      {
        fault: 'stores an upload sent without a Content-Type (as image/png)',
        mutation: () => ({
          request: (sent) =>
            isPost(sent, '/v1/assets') && sent.headers['content-type'] === undefined
              ? { ...sent, headers: { ...sent.headers, 'content-type': 'image/png' } }
              : sent,
        }),
      },
      {
        fault: 'answers 500 to a feedback body without a Content-Type',
        mutation: () => ({
          answer: (sent) => (isPost(sent, '/v1/feedback') && sent.headers['content-type'] === undefined ? errorAnswer(500, 'INTERNAL_ERROR') : undefined),
        }),
      },
    ],
  });
});

describe('surface-edges against the alternate profile', () => {
  let target: EmbeddedTarget;
  beforeAll(async () => {
    target = await startEmbeddedTarget({ profile: 'alternate' });
  });
  afterAll(async () => target.stop());

  test.each(checks.filter((check) => check.area === 'surface-edges').map((check) => [check.id, check.level] as const))(
    '%s (%s) holds against the alternate choices of the open points',
    async (id, level) => {
      const result = await runOneCheck(id, { baseUrl: target.baseUrl, keyA: target.keyA, keyB: target.keyB });
      expect(result.status, `${result.message ?? ''}\n${result.notes.join('\n')}`).toBe(level === 'OBSERVE' ? 'observed' : 'pass');
    },
  );
});

describe('requests go on the wire as written', () => {
  interface Seen {
    url: string;
    headers: IncomingHttpHeaders;
    body: Buffer;
  }
  let server: Server;
  let baseUrl: string;
  const seen: Seen[] = [];
  const exchanges: Exchange[] = [];
  beforeAll(async () => {
    server = createServer(async (incoming, outgoing) => {
      const chunks: Buffer[] = [];
      for await (const chunk of incoming) chunks.push(chunk as Buffer);
      seen.push({ url: incoming.url ?? '', headers: incoming.headers, body: Buffer.concat(chunks) });
      outgoing.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_00' });
      outgoing.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));
  const http = () => createHttp({ baseUrl, timeoutMs: 5_000, secrets: [], record: (exchange) => exchanges.push(exchange) });

  test('an exact path keeps dot segments, doubled slashes, percent escapes and case; a plain one is normalised as a URL', async () => {
    const paths = ['/v1/decide/', '/v1//decide', '/%761/decide', '/v1/d%65cide', '/v1/./decide', '/v1/x/../decide', '/V1/decide', '/v1/decide?x=1'];
    for (const path of paths) {
      seen.length = 0;
      await http()({ method: 'POST', path, json: decideBody(), exactPath: true });
      expect(seen.map((entry) => entry.url)).toEqual([path]);
    }
    // Without exactPath, the URL parser removes dot segments: why the surface-edges area sends exact paths.
    seen.length = 0;
    await http()({ method: 'POST', path: '/v1/./decide', json: decideBody() });
    expect(seen.map((entry) => entry.url)).toEqual(['/v1/decide']);
    // The reproduce line sends the path as written too.
    expect(exchanges.find((exchange) => exchange.request.url.endsWith('/v1/x/../decide'))?.curl).toContain('--path-as-is');
  });

  test('a chunked body goes without Content-Length; a raw body without a type goes without Content-Type', async () => {
    seen.length = 0;
    const text = JSON.stringify(decideBody());
    await http()({ method: 'POST', path: '/v1/decide', raw: text, contentType: 'application/json', chunked: true, exactPath: true });
    await http()({ method: 'POST', path: '/v1/decide', raw: text, exactPath: true });
    expect(seen[0]?.headers['transfer-encoding']).toBe('chunked');
    expect(seen[0]?.headers['content-length']).toBeUndefined();
    expect(seen[0]?.body.toString()).toBe(text);
    expect(seen[1]?.headers['content-type']).toBeUndefined();
    expect(seen[1]?.headers['content-length']).toBe(String(Buffer.byteLength(text)));
    expect(exchanges.at(-2)?.request.headers['transfer-encoding']).toBe('chunked');
  });
});

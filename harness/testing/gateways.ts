// Small gateways in front of a good server, as deployed servers are reached: one region away,
// under a path prefix, behind a gateway that wants its own header, or one that rate-limits. Each
// is a mutation of the mutating proxy (which also serves HTTPS); the kit's tests run the suites
// through them and expect the verdicts of the direct run.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { isRequestId } from '../../spec/index.ts';
import type { Mutation, ProxiedRequest, ProxiedResponse } from './mutating-proxy.ts';

/** A refusal in the gateway's own words: plain text, as gateways answer, not the API's error body. */
const gatewayAnswer = (status: number, text: string, headers: Record<string, string> = {}): ProxiedResponse => ({
  status,
  headers: { 'content-type': 'text/plain', ...headers },
  body: Buffer.from(text),
});

/** What one gateway does with a request: passes it on (rewritten or not), or answers it itself. */
export type GatewayStep = (sent: ProxiedRequest) => ProxiedRequest | ProxiedResponse | Promise<ProxiedRequest | ProxiedResponse>;

const isAnswer = (outcome: ProxiedRequest | ProxiedResponse): outcome is ProxiedResponse => 'status' in outcome;

/** Every request waits `ms` before it goes on: a server one region away. */
export const addedLatency =
  (ms: number): GatewayStep =>
  async (sent) => {
    await sleep(ms);
    return sent;
  };

/** The server is served under `prefix` (`{base_url}` = `https://host/svc`); anything else is the gateway's 404. */
export const pathPrefix =
  (prefix: string): GatewayStep =>
  (sent) =>
    sent.path.startsWith(`${prefix}/`) ? { ...sent, path: sent.path.slice(prefix.length) } : gatewayAnswer(404, 'no route at the gateway');

/** Refuses any request without `name: value` (a tenant header, a gateway's own key), and keeps the header from the server. */
export const requiredHeader =
  (name: string, value: string): GatewayStep =>
  (sent) =>
    sent.headers[name.toLowerCase()] !== value
      ? gatewayAnswer(403, `the gateway needs ${name}`)
      : { ...sent, headers: Object.fromEntries(Object.entries(sent.headers).filter(([header]) => header !== name.toLowerCase())) };

/**
 * At most `perSecond` requests a second pass (a fixed one-second window, counted from the first
 * request of each); the rest are answered as the seed says a rate limit is (4.5, 7): 429
 * RATE_LIMITED in the error body, with its X-Request-ID and Retry-After: 1, before the server sees them.
 */
export function rateLimit(perSecond: number): GatewayStep & { refused(): number } {
  let windowStart = 0;
  let passed = 0;
  let refused = 0;
  const step = (sent: ProxiedRequest) => {
    const now = Date.now();
    if (now - windowStart >= 1000) {
      windowStart = now;
      passed = 0;
    }
    if (passed < perSecond) {
      passed += 1;
      return sent;
    }
    refused += 1;
    // The caller's id when it is one the seed allows (2.7), as the API itself answers.
    const caller = sent.headers['x-request-id'];
    const requestId = caller !== undefined && isRequestId(caller) ? caller : `req_${randomBytes(8).toString('hex')}`;
    return {
      status: 429,
      headers: { 'content-type': 'application/json', 'x-request-id': requestId, 'retry-after': '1' },
      body: Buffer.from(JSON.stringify({ error: { code: 'RATE_LIMITED', message: 'Rate limited.', request_id: requestId } })),
    };
  };
  return Object.assign(step, { refused: () => refused });
}

/**
 * A gateway doing each step in turn, as a mutation of the mutating proxy (which rewrites a request,
 * then asks for an answer to the rewritten one): the first step that answers stands.
 */
export function gateway(...steps: GatewayStep[]): Mutation {
  const answers = new WeakMap<ProxiedRequest, ProxiedResponse>();
  return {
    request: async (sent) => {
      let current = sent;
      for (const step of steps) {
        const outcome = await step(current);
        if (isAnswer(outcome)) {
          answers.set(current, outcome);
          return current;
        }
        current = outcome;
      }
      return current;
    },
    answer: (sent) => answers.get(sent),
  };
}

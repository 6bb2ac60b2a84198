// Per-key rate limit (open point rate-limits): generous by default, configurable. The
// @fastify/rate-limit plugin runs it on every /v1 route, after authentication (its hook is the
// route's own onRequest, which runs after the scope's auth hook), keyed by the caller's API key,
// and answers 429 RATE_LIMITED in the seed's error body (section 7) with Retry-After.
//
// The plugin's own store counts requests in fixed windows and reads Date.now(). The server keeps
// a token bucket as the plugin's store instead: a sustained rate with a burst on top (a client
// that used its burst may send again after 1/perSecond s, not after a whole window; a window
// boundary never lets 2 x burst through), and the server's injectable clock, which tests advance.
import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { failure, RaisedFailure } from './errors.ts';
import { bearerKey } from './keys.ts';

export interface RateLimitOptions {
  /** Sustained requests per second per key. */
  perSecond: number;
  /** Requests a key may send at once before being limited. */
  burst: number;
}

type Counted = Parameters<FastifyRateLimitStore['incr']>[1];

/** A token bucket per key, as the plugin's store: `current` over `max` means limited; `ttl` is the wait in ms. */
function tokenBucketStore({ perSecond, burst }: RateLimitOptions, now: () => number): FastifyRateLimitStoreCtor {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return class TokenBucketStore implements FastifyRateLimitStore {
    incr(key: string, done: Counted, _timeWindow: number, max: number): void {
      const time = now();
      const bucket = buckets.get(key) ?? { tokens: burst, at: time };
      bucket.tokens = Math.min(burst, bucket.tokens + ((time - bucket.at) / 1000) * perSecond);
      bucket.at = time;
      buckets.set(key, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        done(null, { current: Math.min(max, Math.ceil(burst - bucket.tokens)), ttl: ((burst - bucket.tokens) / perSecond) * 1000 });
      } else {
        done(null, { current: max + 1, ttl: ((1 - bucket.tokens) / perSecond) * 1000 });
      }
    }

    // Route-level overrides are not used: every route shares the key's one bucket.
    child(): FastifyRateLimitStore {
      return this;
    }
  };
}

/** Registers the limit on the scope's routes; call it before they are added. */
export async function installRateLimit(scope: FastifyInstance, options: RateLimitOptions, now: () => number): Promise<void> {
  await scope.register(rateLimit, {
    store: tokenBucketStore(options, now),
    max: options.burst,
    timeWindow: 1000,
    // The auth hook ran first: every request that gets here carries a valid key.
    keyGenerator: (request) => bearerKey(request.headers.authorization) ?? '',
    // The seed names Retry-After on a 429 and nothing else: answers within the limit stay as they were.
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    addHeaders: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false, 'retry-after': true },
    // Thrown by the plugin, sent by the error handler in the seed's error body; Retry-After is the plugin's.
    errorResponseBuilder: (_request, context) =>
      new RaisedFailure(failure('RATE_LIMITED', `Rate limit exceeded for this key; retry in ${Math.ceil(context.ttl / 1000)} s.`)),
  });
}

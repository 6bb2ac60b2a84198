// Per-key token bucket (open point rate-limits): generous by default, configurable.

export interface RateLimitOptions {
  /** Sustained requests per second per key. */
  perSecond: number;
  /** Requests a key may send at once before being limited. */
  burst: number;
}

export interface RateLimiter {
  /** Takes a token for the key; returns the whole seconds to wait when none is left. */
  take(key: string): { allowed: true } | { allowed: false; retryAfterSeconds: number };
}

export function createRateLimiter({ perSecond, burst }: RateLimitOptions, now: () => number = Date.now): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(key) {
      const time = now();
      const bucket = buckets.get(key) ?? { tokens: burst, at: time };
      bucket.tokens = Math.min(burst, bucket.tokens + ((time - bucket.at) / 1000) * perSecond);
      bucket.at = time;
      buckets.set(key, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { allowed: true };
      }
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond)) };
    },
  };
}

/** No rate limit below the service's capacity (the alternate choice of open point rate-limits). */
export const unlimited: RateLimiter = { take: () => ({ allowed: true }) };

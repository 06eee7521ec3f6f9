import type { FakeAnswer } from './faults.js';

/** Limits the fake enforces like Discord: a bucket per route and major parameter, and a global per-second cap. */
export interface FakeRateLimits {
  route?: { limit: number; windowMs: number };
  globalPerSecond?: number;
}

interface Window {
  startedAt: number;
  count: number;
}

/** Fixed windows per bucket; answers the X-RateLimit-* headers of an allowed request, or a 429. */
export function createRateLimiter(limits: FakeRateLimits, now: () => number = Date.now) {
  const buckets = new Map<string, Window>();
  let global: Window = { startedAt: 0, count: 0 };

  function take(windows: Map<string, Window> | null, key: string, limit: number, windowMs: number) {
    const at = now();
    let w = windows ? windows.get(key) : global;
    if (!w || at - w.startedAt >= windowMs) {
      w = { startedAt: at, count: 0 };
      if (windows) windows.set(key, w);
      else global = w;
    }
    const resetAfterMs = w.startedAt + windowMs - at;
    if (w.count >= limit) return { allowed: false, remaining: 0, resetAfterMs };
    w.count += 1;
    return { allowed: true, remaining: limit - w.count, resetAfterMs };
  }

  return {
    /** Undefined when the request may go on, with the headers to add; a 429 otherwise. */
    check(bucketKey: string): { headers: Record<string, string>; refusal?: FakeAnswer } {
      if (limits.globalPerSecond !== undefined) {
        const g = take(null, '', limits.globalPerSecond, 1000);
        if (!g.allowed) {
          const retryAfter = g.resetAfterMs / 1000;
          return {
            headers: {},
            refusal: {
              status: 429,
              headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfter))), 'X-RateLimit-Global': 'true', 'X-RateLimit-Scope': 'global' },
              body: { message: 'You are being rate limited.', retry_after: retryAfter, global: true },
            },
          };
        }
      }
      if (!limits.route) return { headers: {} };
      const r = take(buckets, bucketKey, limits.route.limit, limits.route.windowMs);
      const headers = {
        'X-RateLimit-Limit': String(limits.route.limit),
        'X-RateLimit-Remaining': String(r.remaining),
        'X-RateLimit-Reset-After': (r.resetAfterMs / 1000).toFixed(3),
        'X-RateLimit-Bucket': Buffer.from(bucketKey).toString('base64url').slice(0, 32),
      };
      if (r.allowed) return { headers };
      const retryAfter = r.resetAfterMs / 1000;
      return {
        headers,
        refusal: {
          status: 429,
          headers: { ...headers, 'Retry-After': String(Math.max(1, Math.ceil(retryAfter))), 'X-RateLimit-Scope': 'user' },
          body: { message: 'You are being rate limited.', retry_after: retryAfter, global: false },
        },
      };
    },
  };
}

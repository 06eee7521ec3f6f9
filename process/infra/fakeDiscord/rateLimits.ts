import { createHash } from 'node:crypto';
import type { FakeAnswer } from './faults.js';

/**
 * Limits the fake enforces like Discord (https://discord.com/developers/docs/topics/rate-limits): a bucket per route and
 * major parameter (guild, channel, webhook or interaction token), the bot's global cap per second, and `shared` buckets
 * (a resource's limit that every client of it spends: their 429s carry `X-RateLimit-Scope: shared` and count toward
 * no ban).
 */
export interface FakeRateLimits {
  route?: { limit: number; windowMs: number };
  globalPerSecond?: number;
  /** Routes (`METHOD /pattern`) limited per resource, across everyone who uses it. */
  shared?: { routes: string[]; limit: number; windowMs: number };
}

/**
 * What the fake enforces unless told otherwise. Discord names no per-route figures (they are learnt from the headers);
 * 10 per second per route and major parameter is within what it answers for most routes, and the global limit is its
 * documented 50 per second.
 */
export const DISCORD_RATE_LIMITS: Readonly<FakeRateLimits> = Object.freeze({ route: { limit: 10, windowMs: 1_000 }, globalPerSecond: 50 });

interface Window {
  startedAt: number;
  count: number;
}

type Scope = 'user' | 'shared';

/** Interaction callbacks and follow-ups are not bound by the global limit (Discord's docs, "Global Rate Limit"). */
const GLOBAL_EXEMPT = /^(POST \/interactions\/|\S+ \/webhooks\/:application\/:token)/;

/** Discord's bucket id: the same for every major parameter of a route (the limit is kept per bucket and parameter). */
const bucketHash = (route: string) => createHash('sha1').update(route).digest('hex').slice(0, 32);

/** Fixed windows per bucket; answers the X-RateLimit-* headers of an allowed request, or a 429. */
export function createRateLimiter(limits: FakeRateLimits, now: () => number = Date.now) {
  const buckets = new Map<string, Window>();
  let global: Window = { startedAt: 0, count: 0 };

  function take(key: string | null, limit: number, windowMs: number) {
    const at = now();
    let w = key === null ? global : buckets.get(key);
    if (!w || at - w.startedAt >= windowMs) {
      w = { startedAt: at, count: 0 };
      if (key === null) global = w;
      else buckets.set(key, w);
    }
    const resetAfterMs = w.startedAt + windowMs - at;
    if (w.count >= limit) return { allowed: false, remaining: 0, resetAfterMs };
    w.count += 1;
    return { allowed: true, remaining: limit - w.count, resetAfterMs };
  }

  const tooMany = (retryAfterSeconds: number, headers: Record<string, string>, global: boolean): FakeAnswer => ({
    status: 429,
    headers: { ...headers, 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    body: { message: 'You are being rate limited.', retry_after: Number(retryAfterSeconds.toFixed(3)), global },
  });

  return {
    /** The headers to add to an allowed request, or the 429 to answer instead. `route` is `METHOD /pattern`. */
    check(route: string, majorParameter: string): { headers: Record<string, string>; refusal?: FakeAnswer } {
      if (limits.globalPerSecond !== undefined && !GLOBAL_EXEMPT.test(route)) {
        const g = take(null, limits.globalPerSecond, 1000);
        if (!g.allowed) return { headers: {}, refusal: tooMany(g.resetAfterMs / 1000, { 'X-RateLimit-Global': 'true', 'X-RateLimit-Scope': 'global' }, true) };
      }
      const shared = limits.shared?.routes.includes(route) ? limits.shared : undefined;
      const bucket = shared ?? limits.route;
      if (!bucket) return { headers: {} };
      const scope: Scope = shared ? 'shared' : 'user';
      const r = take(`${route} ${majorParameter}`, bucket.limit, bucket.windowMs);
      const headers = {
        'X-RateLimit-Limit': String(bucket.limit),
        'X-RateLimit-Remaining': String(r.remaining),
        'X-RateLimit-Reset': ((now() + r.resetAfterMs) / 1000).toFixed(3),
        'X-RateLimit-Reset-After': (r.resetAfterMs / 1000).toFixed(3),
        'X-RateLimit-Bucket': bucketHash(route),
      };
      if (r.allowed) return { headers };
      return { headers, refusal: tooMany(r.resetAfterMs / 1000, { ...headers, 'X-RateLimit-Scope': scope }, false) };
    },
  };
}

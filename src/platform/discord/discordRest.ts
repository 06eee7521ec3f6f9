import { DefaultRestOptions, REST, type RESTOptions } from '@discordjs/rest';
import type { PlatformMetrics } from '../../core/metrics.js';
import type { BanLatch } from './banLatch.js';
import { GLOBAL_REQUESTS_PER_SECOND, createGlobalPace } from './globalPace.js';
import { countRequests } from './discordMetrics.js';

export interface DiscordRestOptions {
  token: string;
  /** The API root without the version (DISCORD_API_URL): the fleet's egress (discord-proxy), or Discord itself. */
  apiUrl: string;
  /** The process's stop after a ban-like 429. */
  latch: BanLatch;
  /** The longest rate-limit wait a call sits out; a longer one fails the call (RateLimitError) for its caller to retry. */
  maxRateLimitWaitMs?: number;
  metrics?: PlatformMetrics;
}

/**
 * The one REST client of a process: the adapter, the bot's gateway, member list and interaction answers all share it,
 * so the process has one global limit and one set of buckets (and, behind the egress, none of its own to learn:
 * docs/deployment.md, "Discord egress"). The library's own retries are off (its 5xx retries have no backoff and its 429
 * retries never end: TOOLCHAIN.md pitfall 12); callers bound each call with their own signal.
 */
export function createDiscordRest(options: DiscordRestOptions): REST {
  const maxWait = options.maxRateLimitWaitMs ?? 10_000;
  const rest = latchedRest(
    { api: options.apiUrl, version: '10', retries: 0, timeout: 15_000, rejectOnRateLimit: (limit) => limit.retryAfter > maxWait },
    options.latch,
  ).setToken(options.token);
  if (options.metrics) countRequests(rest, options.metrics);
  return rest;
}

/**
 * A REST client whose every HTTP request passes the latch: none leaves while it is set (the library's own waits
 * and retries included), none goes past the global pace (globalPace.ts), and every answer is read by it. A rate
 * limit met while the latch is set fails the call (RateLimitError) instead of being waited out.
 */
function latchedRest(options: Partial<RESTOptions>, latch: BanLatch): REST {
  const own = options.rejectOnRateLimit;
  const pace = createGlobalPace(GLOBAL_REQUESTS_PER_SECOND);
  return new REST({
    ...options,
    // The library would sit out a ban's retry-after (hours) before trying again: once the latch is set, the call fails.
    async rejectOnRateLimit(limit) {
      if (latch.remainingMs() > 0) return true;
      if (typeof own === 'function') return own(limit);
      return Array.isArray(own) && own.some((route) => limit.route.startsWith(route.toLowerCase()));
    },
    async makeRequest(url, init) {
      latch.check();
      await pace(url);
      latch.check();
      const res = await DefaultRestOptions.makeRequest(url, init);
      latch.observe(res.status, res.headers);
      return res;
    },
  });
}

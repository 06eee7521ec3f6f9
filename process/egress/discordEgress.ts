import type { IncomingMessage, ServerResponse } from 'node:http';
import { proxyRequests } from '@discordjs/proxy';
import { DefaultRestOptions, REST, type ResponseLike } from '@discordjs/rest';
import type { Logger } from '../../src/core/logger.js';
import type { PlatformMetrics } from '../../src/core/metrics.js';
import { BLOCKED_HEADER, DiscordBlockedError, EGRESS_HEADER, type BanLatch } from '../../src/platform/discord/banLatch.js';
import { countRequests } from '../../src/platform/discord/discordMetrics.js';
import { GLOBAL_REQUESTS_PER_SECOND, createGlobalPace } from '../../src/platform/discord/globalPace.js';

export interface DiscordEgressOptions {
  /** Where the egress sends: Discord's API root without the version (DISCORD_UPSTREAM_URL), a fake in tests. */
  upstreamUrl: string;
  /** The egress process's latch, shared with the fleet (process/latchSharing.ts). */
  latch: BanLatch;
  logger: Logger;
  metrics?: PlatformMetrics;
  /** The longest rate-limit wait a request is held for; a longer one is answered 429 with its Retry-After. */
  maxRateLimitWaitMs?: number;
}

/**
 * The synthetic answer while the latch is set: Discord's own global 429 for as long as the stop lasts. The library
 * then treats every route as globally limited, and (the latch being set) refuses at once rather than waiting, so no
 * request queued in the egress reaches Discord during the stop.
 */
function blockedAnswer(err: DiscordBlockedError): ResponseLike {
  const seconds = (err.remainingMs / 1000).toFixed(3);
  return synthetic(429, { message: err.message, retry_after: Number(seconds), global: true }, { 'Retry-After': seconds, 'X-RateLimit-Global': 'true', 'X-RateLimit-Scope': 'global', [BLOCKED_HEADER]: err.reason });
}

/** The synthetic answer when the latch is set now, undefined when requests may go. */
function blockedNow(latch: BanLatch): ResponseLike | undefined {
  try {
    latch.check();
    return undefined;
  } catch (err) {
    if (err instanceof DiscordBlockedError) return blockedAnswer(err);
    throw err;
  }
}

// Node's Response and the library's ResponseLike differ only in the web stream types of `body`.
const synthetic = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } }) as unknown as ResponseLike;

/**
 * The fleet's one way to Discord's REST API: `@discordjs/proxy` over one `@discordjs/rest` client, which holds the
 * route buckets and the 50/s global limit for every api, worker and bot process (their DISCORD_API_URL points here).
 * It needs no token: each request carries its caller's Authorization, passed on as is. Around the package:
 * - every upstream answer is read by the latch, and while it is set nothing is sent (blockedAnswer);
 * - the global limit is kept over any second (globalPace.ts), not the library's fixed windows;
 * - a network failure upstream is answered 502 (the package would otherwise end the answer as an empty 200);
 * - every answer carries EGRESS_HEADER, and a 429 given while the latch is set carries BLOCKED_HEADER and the stop's
 *   whole Retry-After, so a caller's own latch closes at once (before the fleet's notification reaches it).
 */
export function discordEgressHandler(options: DiscordEgressOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { latch, logger } = options;
  const maxWait = options.maxRateLimitWaitMs ?? 10_000;
  const pace = createGlobalPace(GLOBAL_REQUESTS_PER_SECOND);
  const rest = new REST({
    api: options.upstreamUrl,
    version: '10',
    // 5xx and network failures go back to the caller, whose own retry policy backs off (pitfall 12: the library's do not).
    retries: 0,
    timeout: 15_000,
    rejectOnRateLimit: (limit) => latch.remainingMs() > 0 || limit.timeToReset > maxWait || limit.retryAfter > maxWait,
    async makeRequest(url, init) {
      const before = blockedNow(latch);
      if (before) return before;
      await pace(url);
      // The stop may have been set while this request waited for its turn.
      const after = blockedNow(latch);
      if (after) return after;
      try {
        const res = await DefaultRestOptions.makeRequest(url, init);
        latch.observe(res.status, res.headers);
        return res;
      } catch (err) {
        if (err instanceof Error && err.name === 'AbortError') throw err;
        logger.warn({ err }, 'Discord is unreachable from the egress');
        return synthetic(502, { message: 'Discord is unreachable from the egress.', code: 0 });
      }
    },
  });
  if (options.metrics) countRequests(rest, options.metrics);
  const forward = proxyRequests(rest);
  return (req, res) => {
    res.setHeader(EGRESS_HEADER, '1');
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.end = ((...args: unknown[]) => {
      const state = latch.state();
      if (res.statusCode === 429 && state.blocked && !res.headersSent) {
        res.setHeader('Retry-After', String(Math.ceil(latch.remainingMs() / 1000)));
        res.setHeader(BLOCKED_HEADER, state.reason!);
      }
      return end(...args);
    }) as ServerResponse['end'];
    Promise.resolve(forward(req, res)).catch((err: unknown) => {
      logger.error({ err, method: req.method, path: req.url?.split('?')[0] }, 'the Discord egress failed a request');
      if (!res.headersSent) res.statusCode = 502;
      res.end();
    });
  };
}

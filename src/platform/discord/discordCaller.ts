import { DiscordAPIError, HTTPError, RateLimitError, type REST, type RequestData, type RouteLike } from '@discordjs/rest';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { PlatformMetrics } from '../../core/metrics.js';
import { PlatformConfigurationError } from '../../core/platform.js';
import { DiscordBlockedError, createBanLatch, type BanLatch } from './banLatch.js';
import { UNAUTHORIZED_MESSAGE, discordCode, translateDiscordError } from './discordErrors.js';
import { routeTemplate } from './discordMetrics.js';
import { createDiscordRest } from './discordRest.js';
import { createRefusalGuard } from './refusalGuard.js';
import { createTtlCache } from './ttlCache.js';

export interface DiscordPlatformOptions {
  token: string;
  /** The API root without the version (DISCORD_API_URL). */
  apiUrl: string;
  clock: Clock;
  logger: Logger;
  /** Member lookups (spec: a member may be up to 5 minutes old); a change made here forgets the member at once. */
  memberCacheMs?: number;
  /** Guild, roles and channels: briefly, so a burst of checks costs one request. */
  guildCacheMs?: number;
  /** The longest rate-limit wait the adapter sits out itself; a longer one fails the call for its caller to retry. */
  maxRateLimitWaitMs?: number;
  /** Every call gives up after this long, waits included (below the platform activities' 30 s start-to-close). */
  callDeadlineMs?: number;
  /** The caller's own cancellation (the worker passes the running activity's), so a cancelled step stops waiting at once. */
  callSignal?: () => AbortSignal | undefined;
  /** Where every request and every 429 is counted (the process's Prometheus counters; none in tools and most tests). */
  metrics?: PlatformMetrics;
  /** The process's stop on Discord requests after a ban-like 429 (one per process; a test gives its own). */
  latch?: BanLatch;
  /** The process's one REST client (discordRest.ts), built on `latch`; without it the adapter builds its own (tools, tests). */
  rest?: REST;
  /** The bot's server-level permissions as last known (undefined: unknown, ask Discord); checked before a request needing one. */
  botPermissions?: (guildId: string) => Promise<bigint | null | undefined>;
  /** How long a 50013/50001 refusal is answered from memory for the same request. */
  refusalMemoryMs?: number;
}

/**
 * How the adapter calls Discord: one REST client behind the process's ban latch, the refusal guard (known
 * permissions, remembered 403s), a deadline and the caller's cancellation per call, and every failure typed by the
 * port. The 401 latch: a 401 makes the library drop its token, so every later call would fail the same way; it is said
 * once, loudly, and no request is made after it.
 */
export function createDiscordCaller(options: DiscordPlatformOptions) {
  const { clock, logger } = options;
  const deadline = options.callDeadlineMs ?? 25_000;
  const latch = options.latch ?? createBanLatch({ clock, logger });
  const rest = options.rest ?? createDiscordRest({ token: options.token, apiUrl: options.apiUrl, latch, maxRateLimitWaitMs: options.maxRateLimitWaitMs, metrics: options.metrics });
  // Read often (each guarded call) and changed rarely: a few seconds old is fine.
  const permissionReads = createTtlCache<bigint | null | undefined>(clock, 5_000);
  const { botPermissions } = options;
  const guardedPermissions = botPermissions && ((guildId: string) => permissionReads.get(guildId, () => botPermissions(guildId)));
  const guard = createRefusalGuard({ clock, memoryMs: options.refusalMemoryMs, botPermissions: guardedPermissions });
  rest.on('rateLimited', (info) => logger.debug({ route: info.route, global: info.global, retryAfterMs: info.retryAfter }, 'discord rate limit'));

  let unauthorized = false;

  /** `guildId`: the server of a request whose path does not name one (a channel's), so its refusals are that server's. */
  async function call<T>(what: string, method: 'get' | 'post' | 'put' | 'patch' | 'delete', route: RouteLike, data: RequestData = {}, guildId?: string): Promise<T> {
    if (unauthorized) throw new PlatformConfigurationError(UNAUTHORIZED_MESSAGE);
    const path = String(route);
    const server = guildId ?? /^\/guilds\/(\d+)/.exec(path)?.[1];
    // Unknown while the database is out: the refusals stay as they are.
    if (server && guardedPermissions) guard.permissionsSeen(server, await guardedPermissions(server).catch(() => undefined));
    // Refused here, before any request: a stop after a ban-like 429, or a refusal Discord gave this very request lately.
    try {
      latch.check();
    } catch (err) {
      throw translateDiscordError(err, what);
    }
    guard.before(method, path);
    try {
      const caller = options.callSignal?.();
      const signal = caller ? AbortSignal.any([AbortSignal.timeout(deadline), caller]) : AbortSignal.timeout(deadline);
      return (await rest[method](route, { ...data, signal })) as T;
    } catch (err) {
      const failure = translateDiscordError(err, what);
      if (options.metrics && sentWithoutAnswer(err)) options.metrics.request(routeTemplate(route), method.toUpperCase(), 'no_answer');
      if (failure instanceof PlatformConfigurationError && !unauthorized) {
        unauthorized = true;
        logger.fatal({ what }, UNAUTHORIZED_MESSAGE);
      }
      const typed = Object.assign(failure, { discordCode: discordCode(err) });
      guard.after(method, path, typed, server);
      throw typed;
    }
  }

  /** Runs the call; Discord codes in `none` mean "nothing there" and answer `fallback` instead of failing. */
  async function unless<T, F>(none: number[], fallback: F, run: () => Promise<T>): Promise<T | F> {
    try {
      return await run();
    } catch (err) {
      const code = (err as { discordCode?: number }).discordCode;
      if (code !== undefined && none.includes(code)) return fallback;
      throw err;
    }
  }

  return { call, unless, guard };
}

/**
 * A request that went out and got no HTTP answer (refused connection, reset, DNS). Answered ones are counted by
 * their response; an abort or timeout is not counted, as the call may have been waiting in a rate-limit queue, and a
 * call the latch stopped never went out.
 */
function sentWithoutAnswer(err: unknown): boolean {
  if (!(err instanceof Error) || err instanceof DiscordAPIError || err instanceof HTTPError || err instanceof RateLimitError || err instanceof DiscordBlockedError) return false;
  return err.name !== 'AbortError' && err.name !== 'TimeoutError';
}

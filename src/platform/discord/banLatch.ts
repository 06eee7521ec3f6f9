import { DefaultRestOptions, REST, type RESTOptions } from '@discordjs/rest';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';

/**
 * Why Discord stopped answering: its global limit, a 429 without bucket headers (Cloudflare's ban of the address,
 * https://docs.discord.com/developers/topics/rate-limits#invalid-request-limit-aka-cloudflare-bans), or a wait longer
 * than a minute on a route.
 */
export type BlockReason = 'global' | 'cloudflare' | 'long-retry-after';

export interface BanLatchState {
  blocked: boolean;
  blockedUntil: string | null;
  reason: BlockReason | null;
}

/** What the latch reports: each invalid answer (401, 403, 429 other than `shared`) and each block it starts. */
export interface LatchMetrics {
  invalidRequest(status: number): void;
  blocked(reason: BlockReason): void;
}

/** No request leaves while the latch is set: the caller sees an outage and backs off. */
export class DiscordBlockedError extends Error {
  override name = 'DiscordBlockedError';
  constructor(
    readonly until: Date,
    readonly reason: BlockReason,
    /** From the latch's own clock, when it was thrown. */
    readonly remainingMs: number,
  ) {
    super(`Discord requests are stopped until ${until.toISOString()} (${reason} 429)`);
  }
}

export interface BanLatch {
  /** Throws DiscordBlockedError while blocked. */
  check(): void;
  /** Reads an answer's status and headers: a ban-like 429 sets the latch. */
  observe(status: number, headers: { get(name: string): string | null }): void;
  remainingMs(): number;
  state(): BanLatchState;
}

/** The longest route wait sat out without stopping everything. */
export const LONG_RETRY_AFTER_MS = 60_000;

function classify(headers: { get(name: string): string | null }, retryAfterMs: number): BlockReason | undefined {
  if (headers.get('x-ratelimit-global') !== null || headers.get('x-ratelimit-scope') === 'global') return 'global';
  if (headers.get('x-ratelimit-bucket') === null) return 'cloudflare';
  return retryAfterMs > LONG_RETRY_AFTER_MS ? 'long-retry-after' : undefined;
}

/**
 * A process-wide stop on Discord requests. Each request made while Discord is refusing the address prolongs a ban
 * and counts toward the next one, so after a global 429, a Cloudflare 429 or a multi-minute wait every Discord call
 * of the process fails at once, without a request, until `retry-after` has passed. Said once in the log when it
 * starts and once when it ends.
 */
export function createBanLatch(options: { clock: Clock; logger: Logger; metrics?: LatchMetrics }): BanLatch {
  const { clock, logger, metrics } = options;
  let until = 0;
  let reason: BlockReason | null = null;
  const remainingMs = () => Math.max(0, until - clock.now().getTime());

  return {
    check() {
      if (reason === null) return;
      if (remainingMs() > 0) throw new DiscordBlockedError(new Date(until), reason, remainingMs());
      logger.info({ reason }, 'Discord requests resume: the rate-limit stop has passed');
      reason = null;
    },
    observe(status, headers) {
      if (status === 401 || status === 403 || (status === 429 && headers.get('x-ratelimit-scope') !== 'shared')) metrics?.invalidRequest(status);
      if (status !== 429) return;
      const seconds = Number(headers.get('retry-after'));
      // Cloudflare's answer carries retry-after in seconds; without one, a minute is a safe guess.
      const retryAfterMs = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : LONG_RETRY_AFTER_MS;
      const kind = classify(headers, retryAfterMs);
      if (!kind) return;
      const next = clock.now().getTime() + retryAfterMs;
      if (next <= until) return;
      const started = reason === null || remainingMs() === 0;
      until = next;
      reason = kind;
      metrics?.blocked(kind);
      if (started) {
        logger.error(
          { reason: kind, retryAfterSeconds: retryAfterMs / 1000, until: new Date(until).toISOString() },
          'Discord answered a ban-like 429: every Discord request of this process is stopped until it passes',
        );
      }
    },
    remainingMs,
    state: () => {
      const blocked = reason !== null && remainingMs() > 0;
      return { blocked, blockedUntil: blocked ? new Date(until).toISOString() : null, reason: blocked ? reason : null };
    },
  };
}

/**
 * A REST client whose every HTTP request passes the latch: none leaves while it is set (the library's own waits
 * and retries included), and every answer is read by it. A rate limit met while the latch is set fails the call
 * (RateLimitError) instead of being waited out.
 */
export function latchedRest(options: Partial<RESTOptions>, latch: BanLatch): REST {
  const own = options.rejectOnRateLimit;
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
      const res = await DefaultRestOptions.makeRequest(url, init);
      latch.observe(res.status, res.headers);
      return res;
    },
  });
}

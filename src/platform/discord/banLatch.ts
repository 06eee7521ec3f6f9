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
  /** Who met the 429: `this process`, or the process another one named (the fleet's stop, platform_blocks). */
  setBy: string | null;
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

type Headers = { get(name: string): string | null };

export interface BanLatch {
  /** Throws DiscordBlockedError while blocked. */
  check(): void;
  /** Reads an answer's status and headers: a ban-like 429 sets the latch (and tells the `onBlock` listeners). */
  observe(status: number, headers: Headers): void;
  /** A block another process met (the fleet's, platform_blocks) or the egress answered: set without telling the listeners. */
  impose(until: Date, reason: BlockReason, setBy: string): void;
  /** Called with each block this process meets itself (process/latchSharing.ts spreads it to the fleet). */
  onBlock(listener: (until: Date, reason: BlockReason) => void): void;
  remainingMs(): number;
  state(): BanLatchState;
}

/** The longest route wait sat out without stopping everything. */
export const LONG_RETRY_AFTER_MS = 60_000;

/**
 * Headers of the fleet's egress (process/egress/discordEgress.ts) on every answer it gives: an answer carrying
 * EGRESS_HEADER came through it (Discord's own 401/403 are counted there, at the address Discord sees), and one
 * carrying BLOCKED_HEADER is the egress refusing while the fleet's latch is set, its reason the header's value.
 */
export const EGRESS_HEADER = 'x-discord-egress';
export const BLOCKED_HEADER = 'x-discord-blocked';

const REASONS: readonly string[] = ['global', 'cloudflare', 'long-retry-after'];

function classify(headers: Headers, retryAfterMs: number): BlockReason | undefined {
  if (headers.get('x-ratelimit-global') !== null || headers.get('x-ratelimit-scope') === 'global') return 'global';
  if (headers.get('x-ratelimit-bucket') === null) return 'cloudflare';
  return retryAfterMs > LONG_RETRY_AFTER_MS ? 'long-retry-after' : undefined;
}

function retryAfterMsOf(headers: Headers): number {
  const seconds = Number(headers.get('retry-after'));
  // Cloudflare's answer carries retry-after in seconds; without one, a minute is a safe guess.
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : LONG_RETRY_AFTER_MS;
}

/**
 * A process-wide stop on Discord requests. Each request made while Discord is refusing the address prolongs a ban
 * and counts toward the next one, so after a global 429, a Cloudflare 429 or a multi-minute wait every Discord call
 * of the process fails at once, without a request, until `retry-after` has passed. Said once in the log (and once in
 * `platform_blocks_total`) when it starts and once when it ends, whether this process met the 429 or another did.
 */
export function createBanLatch(options: { clock: Clock; logger: Logger; metrics?: LatchMetrics }): BanLatch {
  const { clock, logger, metrics } = options;
  let until = 0;
  let reason: BlockReason | null = null;
  let setBy: string | null = null;
  const listeners: Array<(until: Date, reason: BlockReason) => void> = [];
  const remainingMs = () => Math.max(0, until - clock.now().getTime());

  /** Sets the block unless a longer one is set; answers whether it was. */
  function set(next: number, kind: BlockReason, by: string): boolean {
    if (next <= until) return false;
    const started = reason === null || remainingMs() === 0;
    until = next;
    reason = kind;
    setBy = by;
    if (started) {
      metrics?.blocked(kind);
      const line =
        by === 'this process'
          ? 'Discord answered a ban-like 429: every Discord request of this process is stopped until it passes'
          : `Discord requests of the fleet are stopped (${by} met a ban-like 429): none is sent from this process until it passes`;
      logger.error({ reason: kind, until: new Date(until).toISOString(), setBy: by, retryAfterSeconds: remainingMs() / 1000 }, line);
    }
    return true;
  }

  return {
    check() {
      if (reason === null) return;
      if (remainingMs() > 0) throw new DiscordBlockedError(new Date(until), reason, remainingMs());
      logger.info({ reason }, 'Discord requests resume: the rate-limit stop has passed');
      reason = null;
      setBy = null;
    },
    observe(status, headers) {
      const blockedBy = headers.get(BLOCKED_HEADER);
      if (blockedBy !== null) {
        const kind = REASONS.includes(blockedBy) ? (blockedBy as BlockReason) : 'cloudflare';
        set(clock.now().getTime() + retryAfterMsOf(headers), kind, 'the Discord egress');
        return;
      }
      // Through the egress, Discord's answers are counted and judged there; its own 429 is a wait it asks for.
      if (headers.get(EGRESS_HEADER) !== null) return;
      if (status === 401 || status === 403 || (status === 429 && headers.get('x-ratelimit-scope') !== 'shared')) metrics?.invalidRequest(status);
      if (status !== 429) return;
      const retryAfterMs = retryAfterMsOf(headers);
      const kind = classify(headers, retryAfterMs);
      if (!kind) return;
      const next = clock.now().getTime() + retryAfterMs;
      if (set(next, kind, 'this process')) for (const listener of listeners) listener(new Date(next), kind);
    },
    impose(blockedUntil, kind, by) {
      set(blockedUntil.getTime(), kind, by);
    },
    onBlock(listener) {
      listeners.push(listener);
    },
    remainingMs,
    state: () => {
      const blocked = reason !== null && remainingMs() > 0;
      return { blocked, blockedUntil: blocked ? new Date(until).toISOString() : null, reason: blocked ? reason : null, setBy: blocked ? setBy : null };
    },
  };
}

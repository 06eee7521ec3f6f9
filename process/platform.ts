import type { REST } from '@discordjs/rest';
import { Context } from '@temporalio/activity';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { systemClock } from '../src/core/clock.js';
import type { Config } from '../src/core/config.js';
import type { Logger } from '../src/core/logger.js';
import { latchMetrics, measurePlatformBlock, type PlatformMetrics } from '../src/core/metrics.js';
import type { Platform } from '../src/core/platform.js';
import { readBotPermissions } from '../src/guild/botPermissions.js';
import { createBanLatch, type BanLatch } from '../src/platform/discord/banLatch.js';
import { createDiscordPlatform } from '../src/platform/discord/discordPlatform.js';
import { createDiscordRest } from '../src/platform/discord/discordRest.js';
import { createLocalPlatform } from '../src/platform/localPlatform.js';

/**
 * The adapter PLATFORM names: the platform_* tables (local) or Discord's REST API (discord). `callSignal` ties a
 * Discord call to its caller's cancellation (the worker's: `activityCancellation`); `metrics` counts its requests (the
 * api's and worker's Prometheus counters).
 */
export interface PlatformOptions {
  callSignal?: () => AbortSignal | undefined;
  metrics?: PlatformMetrics;
  /** The stop after a ban-like 429; the process's own unless a test gives one. */
  latch?: BanLatch;
  /** The REST client to share (the bot's deps give theirs); the process's own unless a test gives a latch. */
  rest?: REST;
}

let processLatch: BanLatch | undefined;

/**
 * The one ban latch of this process: every Discord client it builds (the adapter, the bot's gateway, member list and
 * interaction clients) stops on it, and its metrics and `/readyz` detail read it.
 */
export function processDiscordLatch(logger: Logger): BanLatch {
  if (!processLatch) {
    const latch = createBanLatch({ clock: systemClock, logger, metrics: latchMetrics });
    measurePlatformBlock(() => latch.remainingMs() / 1000);
    processLatch = latch;
  }
  return processLatch;
}

const processRests = new Map<string, REST>();

/**
 * The one REST client of this process for a Discord API root and token (in a service process there is one of each):
 * the adapter, the bot's gateway, member list and interaction answers share its buckets, global limit and latch.
 */
export function processDiscordRest(p: { token: string; apiUrl: string }, logger: Logger, metrics?: PlatformMetrics): REST {
  const key = `${p.apiUrl} ${p.token}`;
  let rest = processRests.get(key);
  if (!rest) {
    rest = createDiscordRest({ token: p.token, apiUrl: p.apiUrl, latch: processDiscordLatch(logger), metrics });
    processRests.set(key, rest);
  }
  return rest;
}

export function createPlatform(config: Config, db: Kysely<Database>, logger: Logger, options: PlatformOptions = {}): Platform {
  const p = config.platform;
  if (p.kind !== 'discord') return createLocalPlatform(db);
  return createDiscordPlatform({
    token: p.token,
    apiUrl: p.apiUrl,
    clock: systemClock,
    logger,
    // What the bot process last recorded of its roles in each server: requests Discord would refuse are not sent.
    botPermissions: (guildId) => readBotPermissions(db, guildId),
    ...options,
    latch: options.latch ?? processDiscordLatch(logger),
    // A test's own latch gets a client of its own; otherwise the process's one.
    rest: options.rest ?? (options.latch ? undefined : processDiscordRest(p, logger, options.metrics)),
  });
}

/** The running activity's cancellation (a worker shutting down, a cancelled run); undefined outside an activity. */
export function activityCancellation(): AbortSignal | undefined {
  try {
    return Context.current().cancellationSignal;
  } catch {
    return undefined;
  }
}

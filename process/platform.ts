import { Context } from '@temporalio/activity';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { systemClock } from '../src/core/clock.js';
import type { Config } from '../src/core/config.js';
import type { Logger } from '../src/core/logger.js';
import type { PlatformMetrics } from '../src/core/metrics.js';
import type { Platform } from '../src/core/platform.js';
import { createDiscordPlatform } from '../src/platform/discord/discordPlatform.js';
import { createLocalPlatform } from '../src/platform/localPlatform.js';

/**
 * The adapter PLATFORM names: the platform_* tables (local) or Discord's REST API (discord). `callSignal` ties a
 * Discord call to its caller's cancellation (the worker's: `activityCancellation`); `metrics` counts its requests (the
 * api's and worker's Prometheus counters).
 */
export interface PlatformOptions {
  callSignal?: () => AbortSignal | undefined;
  metrics?: PlatformMetrics;
}

export function createPlatform(config: Config, db: Kysely<Database>, logger: Logger, options: PlatformOptions = {}): Platform {
  const p = config.platform;
  return p.kind === 'discord' ? createDiscordPlatform({ token: p.token, apiUrl: p.apiUrl, clock: systemClock, logger, ...options }) : createLocalPlatform(db);
}

/** The running activity's cancellation (a worker shutting down, a cancelled run); undefined outside an activity. */
export function activityCancellation(): AbortSignal | undefined {
  try {
    return Context.current().cancellationSignal;
  } catch {
    return undefined;
  }
}

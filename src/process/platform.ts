import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { systemClock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import type { Platform } from '../core/platform.js';
import { createDiscordPlatform } from '../platform/discord/discordPlatform.js';
import { createLocalPlatform } from '../platform/localPlatform.js';

/** The adapter PLATFORM names: the platform_* tables (local) or Discord's REST API (discord). */
export function createPlatform(config: Config, db: Kysely<Database>, logger: Logger): Platform {
  const p = config.platform;
  return p.kind === 'discord' ? createDiscordPlatform({ token: p.token, apiUrl: p.apiUrl, clock: systemClock, logger }) : createLocalPlatform(db);
}

import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../src/core/clock.js';
import type { Config } from '../../src/core/config.js';
import type { Logger } from '../../src/core/logger.js';
import { discordMemberList } from '../../src/platform/discord/discordMemberList.js';
import { createInteractionReplies } from '../../src/platform/discord/interactionReplies.js';
import { createDiscordRest } from '../../src/platform/discord/discordRest.js';
import { createPlatform, processDiscordLatch, processDiscordRest, type PlatformOptions } from '../platform.js';
import { discordPlatformOf } from './startBot.js';
import type { BotDeps } from './handler.js';

/** Half of Discord's 3 s: the rest is left for the callback's own trip and a busy dispatch queue. */
export const ANSWER_WITHIN_MS = 1_500;

/** What the bot's handlers use, built from the config (PLATFORM=discord) once per bot process. */
export function createBotDeps(
  config: Config,
  db: Kysely<Database>,
  clock: Clock,
  logger: Logger,
  platformOptions: PlatformOptions = {},
  overrides: Partial<BotDeps> = {},
): BotDeps {
  const p = discordPlatformOf(config);
  const given = overrides.latch ?? platformOptions.latch;
  const latch = given ?? processDiscordLatch(logger);
  // One client for everything the bot sends: the gateway's reads, the adapter, member lists and interaction answers.
  const rest = overrides.rest ?? (given ? createDiscordRest({ ...p, latch, metrics: platformOptions.metrics }) : processDiscordRest(p, logger, platformOptions.metrics));
  return {
    db,
    clock,
    logger,
    platform: createPlatform(config, db, logger, { ...platformOptions, latch, rest }),
    memberList: discordMemberList({ rest }),
    replies: createInteractionReplies({ rest }),
    answerWithinMs: ANSWER_WITHIN_MS,
    latch,
    botUser: { id: null },
    rest,
    ...overrides,
  };
}

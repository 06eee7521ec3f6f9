import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../src/core/clock.js';
import type { Config } from '../../src/core/config.js';
import type { Logger } from '../../src/core/logger.js';
import { watchTemporalCredentials } from '../../src/core/temporal/credentialSource.js';
import { rotatingGateway } from '../../src/core/temporal/rotatingClient.js';
import type { TemporalGateway } from '../../src/core/temporal/gateway.js';
import { discordMemberList } from '../../src/platform/discord/discordMemberList.js';
import { createInteractionReplies } from '../../src/platform/discord/interactionReplies.js';
import { createDiscordRest } from '../../src/platform/discord/discordRest.js';
import { createPlatform, processDiscordLatch, processDiscordRest, type PlatformOptions } from '../platform.js';
import { discordPlatformOf } from './startBot.js';
import type { BotDeps } from './handler.js';

/** Half of Discord's 3 s: the rest is left for the callback's own trip and a busy dispatch queue. */
export const ANSWER_WITHIN_MS = 1_500;

/** How long a moderation command waits for its action's outcome (its answer was deferred meanwhile). */
export const MOD_ACTION_WAIT_MS = 10_000;

/**
 * The bot's Temporal client, connected on first use (Connection.lazy): a Temporal that is down fails those calls,
 * which the commands answer in words, and never the bot's start. None without TEMPORAL_ADDRESS.
 */
export function botTemporalGateway(config: Config, logger: Logger): TemporalGateway | undefined {
  if (!config.temporal.address) return undefined;
  // The API key file and TLS files are re-read (TEMPORAL_CREDENTIALS_RELOAD_MS), as in the api and the worker.
  return rotatingGateway(watchTemporalCredentials(config.temporal, logger), { namespace: config.temporal.namespace }, config.temporal.taskQueue);
}

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
    temporal: 'temporal' in overrides ? overrides.temporal : botTemporalGateway(config, logger),
    modActionWaitMs: MOD_ACTION_WAIT_MS,
    ...overrides,
  };
}

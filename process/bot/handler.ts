import type { REST } from '@discordjs/rest';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../src/core/clock.js';
import type { Logger } from '../../src/core/logger.js';
import type { Platform } from '../../src/core/platform.js';
import type { TemporalGateway } from '../../src/core/temporal/gateway.js';
import type { BanLatch } from '../../src/platform/discord/banLatch.js';
import type { InteractionReplies } from '../../src/platform/discord/interactionReplies.js';
import type { MemberList } from '../../src/platform/discord/discordMemberList.js';

export interface BotDeps {
  db: Kysely<Database>;
  /** A server's members as Discord lists them now (reconciliation after a new gateway session). */
  memberList: MemberList;
  clock: Clock;
  logger: Logger;
  /** The Discord adapter: the reads a handler needs beyond the payload (the server's invites, the bot's user) and the effects of its use cases (level-up reward roles). */
  platform: Platform;
  /** Answers to button presses and forms (Discord's interaction endpoints). */
  replies: InteractionReplies;
  /**
   * How long an interaction's work may take before the bot defers its answer (Discord wants the callback within
   * 3 s of the press); 0 always defers first.
   */
  answerWithinMs: number;
  /** The process's stop on Discord requests after a ban-like 429, shared by every Discord client of the bot. */
  latch: BanLatch;
  /** The bot's own user: its id from READY (startBot sets it), null until a READY came (a process that resumed). */
  botUser: { id: string | null };
  /** The process's one REST client, on `latch`: the gateway's reads and everything above go through it. */
  rest: REST;
  /**
   * Temporal, for what staff commands start or ask of a workflow (a moderation action's start, a giveaway's end
   * and reroll); connected lazily, so the bot runs while Temporal is down. Undefined without TEMPORAL_ADDRESS: the
   * worker's start relay then starts what the bot recorded, and what needs an answer from a workflow says so.
   */
  temporal: TemporalGateway | undefined;
  /** How long a staff command waits for its moderation action to finish before it answers that it is on its way. */
  modActionWaitMs: number;
}

/**
 * One gateway event's handling: it reads Discord's payload (the only place a Discord type is seen) and calls the
 * use case the matching `simulate` command calls. It must be idempotent by Discord's ids: a resumed session or a
 * repeated dispatch may deliver the same event again. An error it throws on an outage (the database down) has the
 * dispatch retried later, so it must leave nothing half done (one transaction).
 */
export type DispatchHandler = ((data: unknown, deps: BotDeps) => Promise<void>) & {
  /** Handles several dispatches of this type for one server in a row, all or nothing (the queue's batches). */
  batch?: (data: unknown[], deps: BotDeps) => Promise<void>;
  /** Most dispatches `batch` takes at once. */
  batchSize?: number;
};

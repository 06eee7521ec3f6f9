import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../../src/core/clock.js';
import type { Logger } from '../../src/core/logger.js';
import type { Platform } from '../../src/core/platform.js';
import type { MemberList } from '../../src/platform/discord/discordMemberList.js';

export interface BotDeps {
  db: Kysely<Database>;
  /** The Discord adapter: the effects a use case has on the server (level-up reward roles ...). */
  platform: Platform;
  /** A server's members as Discord lists them now (reconciliation after a new gateway session). */
  memberList: MemberList;
  clock: Clock;
  logger: Logger;
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

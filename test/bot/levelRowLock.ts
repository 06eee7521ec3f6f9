import { sql } from 'kysely';
import type { TestDatabase } from '../harness/database.js';

/**
 * Holds a member's level row in a transaction of the test's own, so the bot's handling of their next message waits
 * on it (while other servers' messages are handled past it). Resolves once held, with the release.
 */
export async function holdLevelRow(database: TestDatabase, guildId: string, userId: string): Promise<() => Promise<void>> {
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let taken = () => undefined as void;
  const held = new Promise<void>((resolve) => (taken = resolve));
  const done = database.db.transaction().execute(async (trx) => {
    await sql`SELECT 1 FROM level_members WHERE guild_id = ${guildId} AND user_id = ${userId} FOR UPDATE`.execute(trx);
    taken();
    await released;
  });
  await held;
  return async () => {
    release();
    await done;
  };
}

import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

export interface SnapshotBoardRow {
  rank: number;
  userId: string;
  invites: number;
  verified: number;
  bonus: number;
}

export async function findInviteRankSnapshot(db: Kysely<Database>, guildId: string): Promise<{ total: number; refreshedAt: Date } | undefined> {
  const row = await db.selectFrom('invite_rank_snapshot_state').selectAll().where('guild_id', '=', guildId).executeTakeFirst();
  return row && { total: row.total, refreshedAt: row.refreshed_at };
}

/**
 * Recomputes a guild's snapshot in one transaction (readers see the old one until it commits) when its counts
 * changed since the last one (the trigger of migration 2026-11-24-052 marks the guild) or it has none; otherwise
 * the snapshot stands and its total is returned. The mark is taken in its own statement before the recount reads
 * anything, so a change committed meanwhile marks the guild again (and a failed recount puts the mark back).
 */
export async function refreshInviteRankSnapshot(db: Kysely<Database>, guildId: string, at: Date): Promise<number> {
  const current = await findInviteRankSnapshot(db, guildId);
  const marked = await db.deleteFrom('invite_rank_dirty').where('guild_id', '=', guildId).executeTakeFirst();
  if (current && marked.numDeletedRows === 0n) return current.total;
  try {
    return await db.transaction().execute(async (trx) => {
      // One core for maintenance: parallel sort workers would take every core from the api for the whole recount.
      await sql`SET LOCAL max_parallel_workers_per_gather = 0`.execute(trx);
      await trx.deleteFrom('invite_rank_snapshots').where('guild_id', '=', guildId).execute();
      const inserted = await sql`
        INSERT INTO invite_rank_snapshots (guild_id, position, rank, user_id, invites, verified, bonus)
        SELECT guild_id, row_number() OVER w, rank() OVER (ORDER BY invites DESC), user_id, invites, verified, bonus
        FROM invite_members WHERE guild_id = ${guildId} AND invites > 0
        WINDOW w AS (ORDER BY invites DESC, user_id)`.execute(trx);
      const total = Number(inserted.numAffectedRows ?? 0n);
      await trx
        .insertInto('invite_rank_snapshot_state')
        .values({ guild_id: guildId, total, refreshed_at: at })
        .onConflict((oc) => oc.column('guild_id').doUpdateSet({ total, refreshed_at: at }))
        .execute();
      return total;
    });
  } catch (err) {
    await db.insertInto('invite_rank_dirty').values({ guild_id: guildId }).onConflict((oc) => oc.doNothing()).execute();
    throw err;
  }
}

export async function dropInviteRankSnapshot(db: Kysely<Database>, guildId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('invite_rank_snapshots').where('guild_id', '=', guildId).execute();
    await trx.deleteFrom('invite_rank_snapshot_state').where('guild_id', '=', guildId).execute();
  });
}

export async function inviteSnapshotPage(db: Kysely<Database>, guildId: string, offset: number, limit: number): Promise<SnapshotBoardRow[]> {
  const rows = await db
    .selectFrom('invite_rank_snapshots')
    .select(['rank', 'user_id', 'invites', 'verified', 'bonus'])
    .where('guild_id', '=', guildId)
    .where('position', '>', offset)
    .orderBy('position')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ rank: r.rank, userId: r.user_id, invites: r.invites, verified: r.verified, bonus: r.bonus }));
}

/** Guilds whose ranked inviters reach `threshold`, so their ranks are worth a snapshot. */
export async function listLargeInviteGuilds(db: Kysely<Database>, threshold: number): Promise<string[]> {
  const rows = await sql<{ guild_id: string }>`
    SELECT g.id AS guild_id FROM guilds g
    WHERE (SELECT count(*) FROM (SELECT 1 FROM invite_members m WHERE m.guild_id = g.id AND m.invites > 0 LIMIT ${threshold}) s) >= ${threshold}`.execute(db);
  return rows.rows.map((r) => r.guild_id);
}

export async function listInviteSnapshotGuilds(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('invite_rank_snapshot_state').select('guild_id').execute();
  return rows.map((r) => r.guild_id);
}

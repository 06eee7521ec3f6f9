import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

export interface InviteSeasonRecord {
  id: number;
  guildId: string;
  number: number;
  name: string | null;
  startedAt: Date;
  endedAt: Date | null;
}

const toRecord = (r: { id: number; guild_id: string; number: number; name: string | null; started_at: Date; ended_at: Date | null }) => ({
  id: r.id,
  guildId: r.guild_id,
  number: r.number,
  name: r.name,
  startedAt: r.started_at,
  endedAt: r.ended_at,
});

export async function findActiveSeason(db: Kysely<Database>, guildId: string): Promise<InviteSeasonRecord | undefined> {
  const row = await db.selectFrom('invite_seasons').selectAll().where('guild_id', '=', guildId).where('ended_at', 'is', null).executeTakeFirst();
  return row && toRecord(row);
}

/**
 * The active season, locked: `share` by a change that counts toward it (such changes do not wait for each other),
 * `update` by its end, which waits for them (and they for it), so a count lands in a season before it ends or not at all.
 */
export async function lockActiveSeason(trx: Kysely<Database>, guildId: string, mode: 'share' | 'update' = 'share'): Promise<InviteSeasonRecord | undefined> {
  const query = trx.selectFrom('invite_seasons').selectAll().where('guild_id', '=', guildId).where('ended_at', 'is', null);
  const row = await (mode === 'share' ? query.forShare() : query.forUpdate()).executeTakeFirst();
  return row && toRecord(row);
}

/** Starts the server's next season, numbered after its last; undefined when one is active already. */
export async function insertSeason(trx: Kysely<Database>, guildId: string, name: string | null, at: Date): Promise<InviteSeasonRecord | undefined> {
  // Two starts at once: the second waits here, then finds the first one active.
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`invite-seasons/${guildId}`}))`.execute(trx);
  const last = await trx
    .selectFrom('invite_seasons')
    .select((eb) => eb.fn.max('number').as('n'))
    .where('guild_id', '=', guildId)
    .executeTakeFirst();
  const row = await trx
    .insertInto('invite_seasons')
    .values({ guild_id: guildId, number: (last?.n ?? 0) + 1, name, started_at: at, ended_at: null })
    .onConflict((oc) => oc.column('guild_id').where('ended_at', 'is', null).doNothing())
    .returningAll()
    .executeTakeFirst();
  return row && toRecord(row);
}

export async function endSeason(trx: Kysely<Database>, seasonId: number, at: Date): Promise<InviteSeasonRecord> {
  const row = await trx.updateTable('invite_seasons').set({ ended_at: at }).where('id', '=', seasonId).returningAll().executeTakeFirstOrThrow();
  return toRecord(row);
}

/** Adds signed deltas to a member's counters in a season. */
export async function adjustSeasonMember(
  trx: Kysely<Database>,
  seasonId: number,
  userId: string,
  delta: { verified?: number; bonus?: number },
): Promise<void> {
  const verified = delta.verified ?? 0;
  const bonus = delta.bonus ?? 0;
  await trx
    .insertInto('invite_season_members')
    .values({ season_id: seasonId, user_id: userId, verified, bonus })
    .onConflict((oc) =>
      oc.columns(['season_id', 'user_id']).doUpdateSet({
        verified: sql`invite_season_members.verified + ${verified}`,
        bonus: sql`invite_season_members.bonus + ${bonus}`,
      }),
    )
    .execute();
}

export async function findSeasonInvites(db: Kysely<Database>, seasonId: number, userId: string): Promise<number> {
  const row = await db
    .selectFrom('invite_season_members')
    .select('invites')
    .where('season_id', '=', seasonId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.invites ?? 0;
}


/** A page of the server's seasons, newest first, before season number `before` (keyset). */
export async function listSeasonPage(db: Kysely<Database>, guildId: string, before: number | undefined, limit: number): Promise<InviteSeasonRecord[]> {
  let query = db.selectFrom('invite_seasons').selectAll().where('guild_id', '=', guildId);
  if (before !== undefined) query = query.where('number', '<', before);
  const rows = await query.orderBy('number', 'desc').limit(limit).execute();
  return rows.map(toRecord);
}

import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** An inviter's buckets; every field is 0 for a member who invited nobody. */
export interface InviteCounts {
  invites: number;
  verified: number;
  pending: number;
  left: number;
  fake: number;
  bonus: number;
  total: number;
}

export const ZERO_INVITES: InviteCounts = { invites: 0, verified: 0, pending: 0, left: 0, fake: 0, bonus: 0, total: 0 };

const COUNT_COLUMNS = ['invites', 'verified', 'pending', 'left', 'fake', 'bonus', 'total'] as const;

export async function findInviteCounts(db: Kysely<Database>, guildId: string, userId: string): Promise<InviteCounts | undefined> {
  return db
    .selectFrom('invite_members')
    .select(COUNT_COLUMNS)
    .where('guild_id', '=', guildId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** The member's row locked for the change, created with zeros when it did not exist. */
export async function lockInviteCounts(trx: Kysely<Database>, guildId: string, userId: string, at: Date): Promise<InviteCounts> {
  await trx
    .insertInto('invite_members')
    .values({ guild_id: guildId, user_id: userId, updated_at: at })
    .onConflict((oc) => oc.columns(['guild_id', 'user_id']).doNothing())
    .execute();
  return trx
    .selectFrom('invite_members')
    .select(COUNT_COLUMNS)
    .where('guild_id', '=', guildId)
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

/** Adds `amount` to the bonus of a locked row and returns the counts after it. */
export async function addBonus(trx: Kysely<Database>, guildId: string, userId: string, amount: number, at: Date): Promise<InviteCounts> {
  return trx
    .updateTable('invite_members')
    .set({ bonus: sql`bonus + ${amount}`, updated_at: at })
    .where('guild_id', '=', guildId)
    .where('user_id', '=', userId)
    .returning(COUNT_COLUMNS)
    .executeTakeFirstOrThrow();
}

export interface InviteBoardRow {
  userId: string;
  invites: number;
  verified: number;
  bonus: number;
}

/** One page of ranked inviters (invites > 0), most invites first, ties by user id; served by invite_members_board_idx. */
export async function listInviteBoard(db: Kysely<Database>, guildId: string, offset: number, limit: number): Promise<InviteBoardRow[]> {
  const rows = await db
    .selectFrom('invite_members')
    .select(['user_id', 'invites', 'verified', 'bonus'])
    .where('guild_id', '=', guildId)
    .where('invites', '>', 0)
    .orderBy('invites', 'desc')
    .orderBy('user_id')
    .offset(offset)
    .limit(limit)
    .execute();
  return rows.map((r) => ({ userId: r.user_id, invites: r.invites, verified: r.verified, bonus: r.bonus }));
}

/** Ranked inviters of a server. */
export async function countRankedInviters(db: Kysely<Database>, guildId: string): Promise<number> {
  const row = await db
    .selectFrom('invite_members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('guild_id', '=', guildId)
    .where('invites', '>', 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Inviters with more invites than `invites`: a rank is this plus one, so ties share it. */
export async function countInvitersAbove(db: Kysely<Database>, guildId: string, invites: number): Promise<number> {
  const row = await db
    .selectFrom('invite_members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('guild_id', '=', guildId)
    .where('invites', '>', invites)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

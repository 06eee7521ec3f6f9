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


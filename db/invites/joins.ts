import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { InviteJoinStatus } from './tables.js';

export interface InviteJoinRecord {
  guildId: string;
  userId: string;
  inviterId: string;
  inviteCode: string | null;
  status: InviteJoinStatus;
  leftFrom: 'pending' | 'verified' | null;
  seasonId: number | null;
  joinedAt: Date;
}

/** The member's attributed join, locked for a change. */
export async function lockInviteJoin(trx: Kysely<Database>, guildId: string, userId: string): Promise<InviteJoinRecord | undefined> {
  const row = await trx
    .selectFrom('invite_joins')
    .selectAll()
    .where('guild_id', '=', guildId)
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
  return (
    row && {
      guildId: row.guild_id,
      userId: row.user_id,
      inviterId: row.inviter_id,
      inviteCode: row.invite_code,
      status: row.status,
      leftFrom: row.left_from,
      seasonId: row.season_id,
      joinedAt: row.joined_at,
    }
  );
}

export async function insertInviteJoin(trx: Kysely<Database>, j: Omit<InviteJoinRecord, 'leftFrom' | 'seasonId' | 'status'>): Promise<void> {
  await trx
    .insertInto('invite_joins')
    .values({
      guild_id: j.guildId,
      user_id: j.userId,
      inviter_id: j.inviterId,
      invite_code: j.inviteCode,
      status: 'pending',
      left_from: null,
      season_id: null,
      joined_at: j.joinedAt,
      updated_at: j.joinedAt,
    })
    .execute();
}

export async function updateInviteJoin(
  trx: Kysely<Database>,
  guildId: string,
  userId: string,
  change: { status: InviteJoinStatus; leftFrom: 'pending' | 'verified' | null; seasonId: number | null; at: Date },
): Promise<void> {
  await trx
    .updateTable('invite_joins')
    .set({ status: change.status, left_from: change.leftFrom, season_id: change.seasonId, updated_at: change.at })
    .where('guild_id', '=', guildId)
    .where('user_id', '=', userId)
    .execute();
}

export type InviterCounter = 'pending' | 'verified' | 'fake' | 'left' | 'total' | 'bonus';

/** Adds signed deltas to an inviter's counters (the row created with zeros first). */
export async function adjustInviter(
  trx: Kysely<Database>,
  guildId: string,
  inviterId: string,
  delta: Partial<Record<InviterCounter, number>>,
  at: Date,
): Promise<void> {
  const entries = Object.entries(delta).filter(([, v]) => v !== 0) as Array<[InviterCounter, number]>;
  if (entries.length === 0) return;
  const values = Object.fromEntries(entries.map(([k, v]) => [k, Math.max(0, v)]));
  const set = Object.fromEntries(entries.map(([k, v]) => [k, sql`invite_members.${sql.ref(k)} + ${v}`]));
  await trx
    .insertInto('invite_members')
    .values({ guild_id: guildId, user_id: inviterId, ...values, updated_at: at })
    .onConflict((oc) => oc.columns(['guild_id', 'user_id']).doUpdateSet({ ...set, updated_at: at }))
    .execute();
}

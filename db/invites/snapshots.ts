import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

export interface InviteSnapshotRecord {
  code: string;
  inviterId: string | null;
  channelId: string | null;
  uses: number;
  maxUses: number;
}

export interface InviteSnapshotInput {
  code: string;
  inviterId: string | null;
  channelId: string | null;
  uses: number;
  maxUses: number;
}

/** The guild's snapshot, its rows locked until the transaction ends (two joins compare one after the other). */
export async function lockInviteSnapshot(db: Kysely<Database>, guildId: string): Promise<InviteSnapshotRecord[]> {
  const rows = await db.selectFrom('invite_snapshots').selectAll().where('guild_id', '=', guildId).orderBy('code').forUpdate().execute();
  return rows.map((r) => ({ code: r.code, inviterId: r.inviter_id, channelId: r.channel_id, uses: r.uses, maxUses: r.max_uses }));
}

export async function putInviteSnapshots(db: Kysely<Database>, guildId: string, invites: InviteSnapshotInput[], at: Date): Promise<void> {
  if (invites.length === 0) return;
  await db
    .insertInto('invite_snapshots')
    .values(
      invites.map((i) => ({
        guild_id: guildId,
        code: i.code,
        inviter_id: i.inviterId,
        channel_id: i.channelId,
        uses: i.uses,
        max_uses: i.maxUses,
        deleted_at: null,
        updated_at: at,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['guild_id', 'code']).doUpdateSet((eb) => ({
        inviter_id: eb.ref('excluded.inviter_id'),
        channel_id: eb.ref('excluded.channel_id'),
        uses: eb.ref('excluded.uses'),
        max_uses: eb.ref('excluded.max_uses'),
        deleted_at: null,
        updated_at: at,
      })),
    )
    .execute();
}

/** Removes the invites of the guild that are not in `kept`. */
export async function pruneInviteSnapshots(db: Kysely<Database>, guildId: string, kept: string[]): Promise<void> {
  await db
    .deleteFrom('invite_snapshots')
    .where('guild_id', '=', guildId)
    .$if(kept.length > 0, (q) => q.where('code', 'not in', kept))
    .execute();
}

export async function markInviteDeleted(db: Kysely<Database>, guildId: string, code: string, at: Date): Promise<void> {
  await db.updateTable('invite_snapshots').set({ deleted_at: at, updated_at: at }).where('guild_id', '=', guildId).where('code', '=', code).execute();
}

export const listInviteSnapshots = (db: Kysely<Database>, guildId: string) =>
  db.selectFrom('invite_snapshots').select(['code', 'inviter_id', 'uses', 'max_uses', 'deleted_at']).where('guild_id', '=', guildId).orderBy('code').execute();

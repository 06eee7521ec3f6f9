import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

export interface InviteMilestone {
  invites: number;
  roleId: string;
}

export interface MilestoneCheckRecord {
  id: number;
  guildId: string;
  userId: string;
}

export async function addInviteMilestone(db: Kysely<Database>, guildId: string, m: InviteMilestone): Promise<void> {
  await db.insertInto('invite_milestones').values({ guild_id: guildId, invites: m.invites, role_id: m.roleId }).onConflict((oc) => oc.doNothing()).execute();
}

export async function listInviteMilestones(db: Kysely<Database>, guildId: string): Promise<InviteMilestone[]> {
  const rows = await db.selectFrom('invite_milestones').select(['invites', 'role_id']).where('guild_id', '=', guildId).orderBy('invites').orderBy('role_id').execute();
  return rows.map((r) => ({ invites: r.invites, roleId: r.role_id }));
}

/** Roles already granted to the member as milestone rewards. */
export async function listGrantedMilestoneRoles(db: Kysely<Database>, guildId: string, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('invite_milestone_grants').select('role_id').where('guild_id', '=', guildId).where('user_id', '=', userId).execute();
  return rows.map((r) => r.role_id);
}

/** Records a grant; false when it was recorded already (a retried step). */
export async function recordMilestoneGrant(
  db: Kysely<Database>,
  g: { guildId: string; userId: string; roleId: string; invites: number; at: Date },
): Promise<boolean> {
  const res = await db
    .insertInto('invite_milestone_grants')
    .values({ guild_id: g.guildId, user_id: g.userId, role_id: g.roleId, invites: g.invites, granted_at: g.at })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** Whether a milestone at or below `invites` has not been granted to the member yet. */
export async function hasUngrantedMilestone(db: Kysely<Database>, guildId: string, userId: string, invites: number): Promise<boolean> {
  const row = await db
    .selectFrom('invite_milestones as m')
    .select('m.role_id')
    .where('m.guild_id', '=', guildId)
    .where('m.invites', '<=', invites)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('invite_milestone_grants as g')
            .select('g.role_id')
            .whereRef('g.guild_id', '=', 'm.guild_id')
            .whereRef('g.role_id', '=', 'm.role_id')
            .where('g.user_id', '=', userId),
        ),
      ),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertMilestoneCheck(trx: Kysely<Database>, guildId: string, userId: string, at: Date): Promise<MilestoneCheckRecord> {
  const row = await trx.insertInto('invite_milestone_checks').values({ guild_id: guildId, user_id: userId, created_at: at }).returning('id').executeTakeFirstOrThrow();
  return { id: row.id, guildId, userId };
}

export async function listUnstartedMilestoneChecks(db: Kysely<Database>, olderThan: Date, limit: number): Promise<MilestoneCheckRecord[]> {
  const rows = await db
    .selectFrom('invite_milestone_checks')
    .select(['id', 'guild_id', 'user_id'])
    .where('workflow_started_at', 'is', null)
    .where('created_at', '<', olderThan)
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, guildId: r.guild_id, userId: r.user_id }));
}

export async function markMilestoneCheckStarted(db: Kysely<Database>, id: number, at: Date): Promise<void> {
  await db.updateTable('invite_milestone_checks').set({ workflow_started_at: at }).where('id', '=', id).where('workflow_started_at', 'is', null).execute();
}

export async function removeInviteMilestone(db: Kysely<Database>, guildId: string, m: InviteMilestone): Promise<boolean> {
  const res = await db.deleteFrom('invite_milestones').where('guild_id', '=', guildId).where('invites', '=', m.invites).where('role_id', '=', m.roleId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** A page of the server's milestones, lowest count first, after (invites, role id) `after` (keyset). */
export async function listInviteMilestonePage(db: Kysely<Database>, guildId: string, after: InviteMilestone | undefined, limit: number): Promise<InviteMilestone[]> {
  let query = db.selectFrom('invite_milestones').select(['invites', 'role_id']).where('guild_id', '=', guildId);
  if (after) query = query.where((eb) => eb.or([eb('invites', '>', after.invites), eb.and([eb('invites', '=', after.invites), eb('role_id', '>', after.roleId)])]));
  const rows = await query.orderBy('invites').orderBy('role_id').limit(limit).execute();
  return rows.map((r) => ({ invites: r.invites, roleId: r.role_id }));
}

export async function findInviteMilestone(db: Kysely<Database>, guildId: string, m: InviteMilestone): Promise<InviteMilestone | undefined> {
  const row = await db.selectFrom('invite_milestones').select(['invites', 'role_id']).where('guild_id', '=', guildId).where('invites', '=', m.invites).where('role_id', '=', m.roleId).executeTakeFirst();
  return row && { invites: row.invites, roleId: row.role_id };
}

import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

export interface AppealSettings {
  rejectionDm: boolean;
  reappealCooldownSeconds: number;
  inviteChannelId: string | null;
}

const DEFAULTS: AppealSettings = { rejectionDm: true, reappealCooldownSeconds: 30 * 86_400, inviteChannelId: null };

export async function findAppealSettings(db: Kysely<Database>, guildId: string): Promise<AppealSettings> {
  const row = await db.selectFrom('appeal_settings').selectAll().where('guild_id', '=', guildId).executeTakeFirst();
  return row
    ? { rejectionDm: row.rejection_dm, reappealCooldownSeconds: row.reappeal_cooldown_seconds, inviteChannelId: row.invite_channel_id }
    : DEFAULTS;
}

export async function saveAppealSettings(db: Kysely<Database>, guildId: string, s: AppealSettings): Promise<void> {
  const values = { rejection_dm: s.rejectionDm, reappeal_cooldown_seconds: s.reappealCooldownSeconds, invite_channel_id: s.inviteChannelId };
  await db
    .insertInto('appeal_settings')
    .values({ guild_id: guildId, ...values })
    .onConflict((oc) => oc.column('guild_id').doUpdateSet(values))
    .execute();
}

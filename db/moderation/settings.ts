import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

type Db = Kysely<Database>;

export interface ModerationSettings {
  dmMembers: boolean;
  logChannelId: string | null;
  warningExpirySeconds: number | null;
}

export interface EscalationRule {
  warnings: number;
  action: 'timeout' | 'kick' | 'ban';
  durationSeconds: number | null;
}

const DEFAULTS: ModerationSettings = { dmMembers: true, logChannelId: null, warningExpirySeconds: null };

export async function findModerationSettings(db: Db, guildId: string): Promise<ModerationSettings> {
  const row = await db.selectFrom('moderation_settings').selectAll().where('guild_id', '=', guildId).executeTakeFirst();
  return row ? { dmMembers: row.dm_members, logChannelId: row.log_channel_id, warningExpirySeconds: row.warning_expiry_seconds } : DEFAULTS;
}

export async function saveModerationSettings(db: Db, guildId: string, s: ModerationSettings): Promise<void> {
  const values = { dm_members: s.dmMembers, log_channel_id: s.logChannelId, warning_expiry_seconds: s.warningExpirySeconds };
  await db
    .insertInto('moderation_settings')
    .values({ guild_id: guildId, ...values })
    .onConflict((oc) => oc.column('guild_id').doUpdateSet(values))
    .execute();
}

/** The rule for exactly this many active warnings, if the server has one. */
export async function findEscalationRule(db: Db, guildId: string, warnings: number): Promise<EscalationRule | undefined> {
  const row = await db
    .selectFrom('moderation_escalations')
    .select(['warnings', 'action', 'duration_seconds'])
    .where('guild_id', '=', guildId)
    .where('warnings', '=', warnings)
    .executeTakeFirst();
  return row && { warnings: row.warnings, action: row.action, durationSeconds: row.duration_seconds };
}

export async function saveEscalationRule(db: Db, guildId: string, rule: EscalationRule): Promise<void> {
  const values = { action: rule.action, duration_seconds: rule.durationSeconds };
  await db
    .insertInto('moderation_escalations')
    .values({ guild_id: guildId, warnings: rule.warnings, ...values })
    .onConflict((oc) => oc.columns(['guild_id', 'warnings']).doUpdateSet(values))
    .execute();
}

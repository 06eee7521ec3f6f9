import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { LevelAnnounceTarget } from './tables.js';

export type { LevelAnnounceTarget };

export interface LevelSettings {
  /** `channel`: announceChannelId; `current`: where the member wrote the message that reached the level; `dm`; `off`. */
  announceTo: LevelAnnounceTarget;
  /** The channel of `channel` (kept while another target is chosen, so switching back finds it). */
  announceChannelId: string | null;
  announceTemplate: string;
  removePreviousRewards: boolean;
  /** Least time between two of a member's messages that earn XP; the ones in between earn nothing. */
  messageCooldownSeconds: number;
  /** XP a counted message earns, and a voice minute. */
  xpPerMessage: number;
  xpPerVoiceMinute: number;
  /** Messages written here, or by a member holding one of these roles, earn nothing and are not counted. */
  noXpChannelIds: string[];
  noXpRoleIds: string[];
}

/** The settings a writer may leave out: a new row gets the default, an existing one keeps its own. */
type KeptSettings = 'messageCooldownSeconds' | 'announceTo' | 'xpPerMessage' | 'xpPerVoiceMinute' | 'noXpChannelIds' | 'noXpRoleIds';

export const DEFAULT_LEVEL_SETTINGS: LevelSettings = {
  announceTo: 'off',
  announceChannelId: null,
  announceTemplate: 'GG {user}, you reached level {level}!',
  removePreviousRewards: false,
  messageCooldownSeconds: 60,
  xpPerMessage: 20,
  xpPerVoiceMinute: 10,
  noXpChannelIds: [],
  noXpRoleIds: [],
};

export async function findLevelSettings(db: Kysely<Database>, guildId: string): Promise<LevelSettings> {
  const row = await db.selectFrom('level_settings').selectAll().where('guild_id', '=', guildId).executeTakeFirst();
  if (!row) return DEFAULT_LEVEL_SETTINGS;
  return {
    announceTo: row.announce_to,
    announceChannelId: row.announce_channel_id,
    announceTemplate: row.announce_template,
    removePreviousRewards: row.remove_previous_rewards,
    messageCooldownSeconds: row.message_cooldown_seconds,
    xpPerMessage: row.xp_per_message,
    xpPerVoiceMinute: row.xp_per_voice_minute,
    noXpChannelIds: row.no_xp_channel_ids,
    noXpRoleIds: row.no_xp_role_ids,
  };
}

/**
 * Saves the settings; without one of the KeptSettings a new row gets the default and an existing one keeps its own;
 * without `announceTo`, a channel means `channel` and none `off` (what the settings meant before the target existed).
 */
export async function saveLevelSettings(
  db: Kysely<Database>,
  guildId: string,
  s: Omit<LevelSettings, KeptSettings> & Partial<Pick<LevelSettings, KeptSettings>>,
): Promise<void> {
  const values = {
    announce_to: s.announceTo ?? (s.announceChannelId ? 'channel' : 'off'),
    announce_channel_id: s.announceChannelId,
    announce_template: s.announceTemplate,
    remove_previous_rewards: s.removePreviousRewards,
    ...(s.messageCooldownSeconds === undefined ? {} : { message_cooldown_seconds: s.messageCooldownSeconds }),
    ...(s.xpPerMessage === undefined ? {} : { xp_per_message: s.xpPerMessage }),
    ...(s.xpPerVoiceMinute === undefined ? {} : { xp_per_voice_minute: s.xpPerVoiceMinute }),
    ...(s.noXpChannelIds === undefined ? {} : { no_xp_channel_ids: s.noXpChannelIds }),
    ...(s.noXpRoleIds === undefined ? {} : { no_xp_role_ids: s.noXpRoleIds }),
  };
  await db
    .insertInto('level_settings')
    .values({ guild_id: guildId, ...values })
    .onConflict((oc) => oc.column('guild_id').doUpdateSet(values))
    .execute();
}

export interface LevelReward {
  level: number;
  roleId: string;
}

export async function listLevelRewards(db: Kysely<Database>, guildId: string): Promise<LevelReward[]> {
  const rows = await db
    .selectFrom('level_rewards')
    .select(['level', 'role_id'])
    .where('guild_id', '=', guildId)
    .orderBy('level')
    .orderBy('role_id')
    .execute();
  return rows.map((r) => ({ level: r.level, roleId: r.role_id }));
}

export async function removeLevelReward(db: Kysely<Database>, guildId: string, reward: LevelReward): Promise<boolean> {
  const res = await db
    .deleteFrom('level_rewards')
    .where('guild_id', '=', guildId)
    .where('level', '=', reward.level)
    .where('role_id', '=', reward.roleId)
    .executeTakeFirst();
  return res.numDeletedRows > 0n;
}

/** The server's settings row, created with the defaults if missing, locked until the caller's transaction ends. */
export async function lockLevelSettings(trx: Kysely<Database>, guildId: string): Promise<LevelSettings> {
  await trx.insertInto('level_settings').values({ guild_id: guildId, announce_template: DEFAULT_LEVEL_SETTINGS.announceTemplate, announce_channel_id: null, remove_previous_rewards: false }).onConflict((oc) => oc.column('guild_id').doNothing()).execute();
  await trx.selectFrom('level_settings').select('guild_id').where('guild_id', '=', guildId).forUpdate().execute();
  return findLevelSettings(trx, guildId);
}

export async function addLevelReward(db: Kysely<Database>, guildId: string, reward: LevelReward): Promise<void> {
  await db
    .insertInto('level_rewards')
    .values({ guild_id: guildId, level: reward.level, role_id: reward.roleId })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export interface LevelMemberRow {
  userId: string;
  xp: number;
  messages: number;
  voiceMinutes: number;
  streak: number;
  bestStreak: number;
  hidden: boolean;
  lastXpAt: Date | null;
}

export async function findLevelMember(db: Kysely<Database>, guildId: string, userId: string): Promise<LevelMemberRow | undefined> {
  const row = await db
    .selectFrom('level_members')
    .selectAll()
    .where('guild_id', '=', guildId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return (
    row && {
      userId: row.user_id,
      xp: row.xp,
      messages: row.messages,
      voiceMinutes: row.voice_minutes,
      streak: row.streak,
      bestStreak: row.best_streak,
      hidden: row.hidden,
      lastXpAt: row.last_xp_at,
    }
  );
}

/** The member's XP with the row locked for the transaction (created at zero if missing). */
export async function lockXp(trx: Kysely<Database>, guildId: string, userId: string): Promise<number> {
  await trx
    .insertInto('level_members')
    .values({ guild_id: guildId, user_id: userId, xp: 0, last_xp_at: null })
    .onConflict((oc) => oc.columns(['guild_id', 'user_id']).doNothing())
    .execute();
  const row = await trx
    .selectFrom('level_members')
    .select('xp')
    .where('guild_id', '=', guildId)
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return row.xp;
}

export async function setXp(trx: Kysely<Database>, guildId: string, userId: string, xp: number, at: Date): Promise<void> {
  await trx
    .updateTable('level_members')
    .set({ xp, last_xp_at: at })
    .where('guild_id', '=', guildId)
    .where('user_id', '=', userId)
    .execute();
}

/** 1 + members ahead (more XP, or as much XP and a smaller id); undefined without XP. */
export async function rankOf(db: Kysely<Database>, guildId: string, userId: string, xp: number): Promise<number | undefined> {
  if (xp <= 0) return undefined;
  const row = await sql<{ ahead: string }>`
    SELECT count(*) AS ahead FROM level_members
    WHERE guild_id = ${guildId} AND xp > 0 AND (xp > ${xp} OR (xp = ${xp} AND user_id < ${userId}))`.execute(db);
  return Number(row.rows[0]!.ahead) + 1;
}

export interface LeaderboardRow {
  userId: string;
  hidden: boolean;
  xp: number;
  messages: number;
  voiceMinutes: number;
}

/** Members with XP, highest first, ties by id; `offset` is the spec's integer cursor. */
export async function listLeaderboard(db: Kysely<Database>, guildId: string, offset: number, limit: number): Promise<LeaderboardRow[]> {
  const rows = await db
    .selectFrom('level_members')
    .select(['user_id', 'hidden', 'xp', 'messages', 'voice_minutes'])
    .where('guild_id', '=', guildId)
    .where('xp', '>', 0)
    .orderBy('xp', 'desc')
    .orderBy('user_id')
    .offset(offset)
    .limit(limit)
    .execute();
  return rows.map((r) => ({ userId: r.user_id, hidden: r.hidden, xp: r.xp, messages: r.messages, voiceMinutes: r.voice_minutes }));
}

export async function countRanked(db: Kysely<Database>, guildId: string): Promise<number> {
  const row = await db
    .selectFrom('level_members')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('guild_id', '=', guildId)
    .where('xp', '>', 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

import type { ColumnType, Generated } from 'kysely';

/** Where a level-up is announced (migration 2026-11-29-020). */
export type LevelAnnounceTarget = 'channel' | 'current' | 'dm' | 'off';

export interface LevelSettingsTable {
  guild_id: string;
  announce_channel_id: string | null;
  announce_template: string;
  announce_to: ColumnType<LevelAnnounceTarget, LevelAnnounceTarget | undefined, LevelAnnounceTarget>;
  remove_previous_rewards: boolean;
  message_cooldown_seconds: Generated<number>;
  /** XP rates and what earns nothing (migration 2026-11-30-020). */
  xp_per_message: Generated<number>;
  xp_per_voice_minute: Generated<number>;
  no_xp_channel_ids: Generated<string[]>;
  no_xp_role_ids: Generated<string[]>;
}

export interface LevelRewardsTable {
  guild_id: string;
  level: number;
  role_id: string;
}

export interface LevelMembersTable {
  guild_id: string;
  user_id: string;
  xp: number;
  messages: Generated<number>;
  voice_minutes: Generated<number>;
  streak: Generated<number>;
  best_streak: Generated<number>;
  hidden: Generated<boolean>;
  last_xp_at: Date | null;
  last_message_xp_at: Generated<Date | null>;
}

export interface LevelCountedMessagesTable {
  guild_id: string;
  message_id: string;
  counted_at: Date;
}

export interface LevelUpEffectsTable {
  event_id: string;
  guild_id: string;
  user_id: string;
  previous_level: number;
  level: number;
  /** The channel of the message that reached the level (migration 2026-11-29-055). */
  channel_id: string | null;
  created_at: Date;
  workflow_started_at: Date | null;
  applied_at: Date | null;
  refused: ColumnType<unknown, string | null, string | null>;
}

export interface XpChangesTable {
  change_id: string;
  guild_id: string;
  user_id: string;
  /** The key that asked; null for a change asked from the console (migration 2026-11-30-021). */
  api_key_id: number | null;
  console_user_id: Generated<string | null>;
  type: 'add' | 'remove' | 'set';
  unit: 'xp' | 'levels';
  amount: number;
  reason: string | null;
  status: 'pending' | 'processing' | 'done' | 'failed';
  result: ColumnType<unknown, string | null, string | null>;
  error: string | null;
  created_at: Date;
  processed_at: Date | null;
  workflow_started_at: Date | null;
}

export interface LevelRankSnapshotsTable {
  guild_id: string;
  position: number;
  user_id: string;
  xp: number;
  hidden: boolean;
  messages: number;
  voice_minutes: number;
}

export interface LevelRankSnapshotStateTable {
  guild_id: string;
  total: number;
  refreshed_at: Date;
}

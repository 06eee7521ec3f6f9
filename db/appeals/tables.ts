import type { ColumnType, Generated } from 'kysely';

export interface AppealSettingsTable {
  guild_id: string;
  rejection_dm: boolean;
  reappeal_cooldown_seconds: number;
  invite_channel_id: string | null;
}

export interface AppealsTable {
  guild_id: string;
  number: number;
  user_id: string;
  user_tag: string | null;
  status: 'open' | 'question' | 'approved' | 'rejected' | 'closed';
  ban_case_number: number | null;
  ban_reason: string | null;
  answers: ColumnType<unknown, string, never>;
  claimed_by: string | null;
  decided_by: string | null;
  decided_at: Date | null;
  reason: string | null;
  decided_with_api_key_id: number | null;
  applying: Generated<boolean>;
  failed_action: ColumnType<unknown, string | null, string | null>;
  reappeal_after: Date | null;
  created_at: Date;
  last_activity_at: Date | null;
  workflow_started_at: Date | null;
}

export interface AppealMessagesTable {
  id: Generated<number>;
  guild_id: string;
  appeal_number: number;
  author: 'user' | 'staff';
  author_id: string | null;
  text: string;
  internal: Generated<boolean>;
  created_at: Date;
}

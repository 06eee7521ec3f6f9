import type { ColumnType, Generated } from 'kysely';

/** The six actions of the spec's Moderation section. */
export type ModActionType = 'warn' | 'timeout' | 'untimeout' | 'kick' | 'ban' | 'unban';

export interface ModerationSettingsTable {
  guild_id: string;
  dm_members: boolean;
  log_channel_id: string | null;
  warning_expiry_seconds: number | null;
}

export interface ModerationEscalationsTable {
  guild_id: string;
  warnings: number;
  action: 'timeout' | 'kick' | 'ban';
  duration_seconds: number | null;
}

export interface RecordCountersTable {
  guild_id: string;
  kind: 'case' | 'appeal';
  last_number: number;
}

export interface ModerationCasesTable {
  guild_id: string;
  number: number;
  action: string;
  user_id: string;
  user_tag: string | null;
  moderator_id: string;
  reason: string | null;
  duration_seconds: number | null;
  evidence: string[];
  source: string;
  active: boolean;
  expires_at: Date | null;
  resolved_at: Date | null;
  dm_status: 'sent' | 'failed' | 'off' | null;
  api_key_id: number | null;
  api_key_name: string | null;
  operation_id: string | null;
  created_at: Date;
  deleted_at: Date | null;
}

export interface ModerationCaseEventsTable {
  id: Generated<number>;
  guild_id: string;
  case_number: number;
  type: string;
  actor_id: string | null;
  data: ColumnType<unknown, string | undefined, never>;
  created_at: Date;
}

export interface ModerationActionsTable {
  action_id: string;
  guild_id: string;
  user_id: string;
  action: ModActionType;
  api_key_id: number | null;
  /** Sources `command` and `console`: the staff member who asked (db/migrations/2026-11-30-050-mod-action-console.ts). */
  moderator_id: ColumnType<string | null, string | null | undefined, never>;
  source: 'api' | 'escalation' | 'command' | 'console';
  request: ColumnType<unknown, string, never>;
  status: 'pending' | 'running' | 'done' | 'failed';
  case_number: number | null;
  error: string | null;
  requested_at: Date;
  finished_at: Date | null;
  workflow_started_at: Date | null;
  /** The target as a member when the action began (`{username}`), null otherwise: see db/moderation/actions.ts. */
  target_member: ColumnType<{ username: string | null } | null, string | null | undefined, string | null>;
}

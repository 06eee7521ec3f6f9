import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface GuildsTable {
  id: string;
  /** Last name seen on the platform: answers when the platform is unreachable. */
  name: string;
  icon: string | null;
  locale: string;
  plan: string;
  features: string[];
  blocked: boolean;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ApiKeysTable {
  id: Generated<number>;
  guild_id: string;
  name: string;
  /** First characters of the key, shown in lists so a person can recognise it. */
  prefix: string;
  /** SHA-256 of the whole key; the key itself is never stored. */
  key_hash: Buffer;
  scopes: string[];
  created_by: string | null;
  created_at: CreatedAt;
  expires_at: Date | null;
  revoked_at: Date | null;
}

export interface AuditLogTable {
  id: Generated<string>;
  guild_id: string;
  actor_type: 'api_key' | 'operator' | 'system';
  actor_id: string | null;
  api_key_id: number | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  request_id: string | null;
  data: ColumnType<unknown, string | undefined, never>;
  created_at: CreatedAt;
}

export interface RateLimitCountersTable {
  bucket: string;
  window_start: Date;
  count: number;
}

export interface PlatformGuildsTable {
  guild_id: string;
  name: string;
  icon: string | null;
  owner_id: string;
  bot_user_id: string;
  /** Lets tests and operators simulate an outage of the platform. */
  reachable: Generated<boolean>;
}

export interface PlatformRolesTable {
  guild_id: string;
  role_id: string;
  name: string;
  color: number | null;
  position: number;
  managed: boolean;
  hoist: boolean;
  mentionable: boolean;
  /** Platform permission bits as a decimal string. */
  permissions: string;
}

export interface PlatformChannelsTable {
  guild_id: string;
  channel_id: string;
  name: string;
  /** Platform channel type, including thread types that the API never lists. */
  type: string;
  parent_id: string | null;
  position: number;
}

export interface PlatformMembersTable {
  guild_id: string;
  user_id: string;
  username: string;
  global_name: string | null;
  nickname: string | null;
  avatar: string | null;
  bot: boolean;
  role_ids: string[];
  joined_at: Date;
  timed_out_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
  accepts_dms: Generated<boolean>;
}

export interface IdempotencyRecordsTable {
  api_key_id: number;
  idempotency_key: string;
  /** SHA-256 of method, path and canonical body: a different request under the same key is refused. */
  fingerprint: Buffer;
  state: 'processing' | 'done';
  response_status: number | null;
  response_body: ColumnType<unknown, string | null, string | null>;
  /** A processing claim whose holder died can be taken over after this. */
  locked_until: Date;
  created_at: Date;
  expires_at: Date;
}

export interface EventsTable {
  id: string;
  guild_id: string;
  type: string;
  data: ColumnType<unknown, string, never>;
  created_at: Date;
  seq: Generated<number>;
  fanout_started_at: Date | null;
}

export interface BankSettingsTable {
  guild_id: string;
  currency_name: string;
  currency_plural: string;
  currency_emoji: string | null;
  starting_balance: number;
  max_balance: number | null;
  log_channel_id: string | null;
}

export interface BankAccountsTable {
  guild_id: string;
  user_id: string;
  balance: number;
  updated_at: Date;
}

export interface BankLedgerTable {
  id: Generated<number>;
  guild_id: string;
  user_id: string;
  type: string;
  amount: number;
  balance_after: number;
  reason: string | null;
  counterparty_id: string | null;
  actor_id: string | null;
  api_key_id: number | null;
  created_at: Date;
}

export interface PlatformMessagesTable {
  id: Generated<number>;
  guild_id: string;
  channel_id: string;
  content: string;
  idempotency_key: string;
  created_at: CreatedAt;
}

export interface LevelSettingsTable {
  guild_id: string;
  announce_channel_id: string | null;
  announce_template: string;
  remove_previous_rewards: boolean;
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
}

export interface XpChangesTable {
  change_id: string;
  guild_id: string;
  user_id: string;
  api_key_id: number;
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

export interface PlatformRoleChangesTable {
  id: Generated<number>;
  guild_id: string;
  user_id: string;
  role_id: string;
  action: 'add' | 'remove';
  reason: string | null;
  created_at: CreatedAt;
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

export interface WebhookEndpointsTable {
  id: Generated<number>;
  guild_id: string;
  url: string;
  events: string[];
  secret: string;
  enabled: Generated<boolean>;
  disabled_reason: string | null;
  failing_since: Date | null;
  created_at: CreatedAt;
  removed_at: Date | null;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  endpoint_id: number;
  event_id: string;
  body: string;
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  attempts: Generated<number>;
  created_at: CreatedAt;
  completed_at: Date | null;
  retry_requested_at: Date | null;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  attempt: number;
  attempted_at: Date;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
}

export interface PlatformBansTable {
  guild_id: string;
  user_id: string;
  reason: string | null;
  created_at: CreatedAt;
}

export interface PlatformModerationLogTable {
  id: Generated<number>;
  guild_id: string;
  user_id: string;
  action: 'kick' | 'ban' | 'unban' | 'timeout' | 'untimeout';
  reason: string | null;
  until: Date | null;
  created_at: CreatedAt;
}

export interface PlatformDirectMessagesTable {
  id: Generated<number>;
  guild_id: string;
  user_id: string;
  content: string;
  idempotency_key: string;
  created_at: CreatedAt;
}

export interface PlatformInvitesTable {
  code: string;
  guild_id: string;
  channel_id: string;
  max_uses: number;
  uses: Generated<number>;
  idempotency_key: string;
  created_at: CreatedAt;
}

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
  action: 'warn' | 'timeout' | 'untimeout' | 'kick' | 'ban' | 'unban';
  api_key_id: number | null;
  source: 'api' | 'escalation';
  request: ColumnType<unknown, string, never>;
  status: 'pending' | 'running' | 'done' | 'failed';
  case_number: number | null;
  error: string | null;
  requested_at: Date;
  finished_at: Date | null;
  workflow_started_at: Date | null;
}

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

export interface Database {
  guilds: GuildsTable;
  api_keys: ApiKeysTable;
  audit_log: AuditLogTable;
  rate_limit_counters: RateLimitCountersTable;
  platform_guilds: PlatformGuildsTable;
  platform_roles: PlatformRolesTable;
  platform_channels: PlatformChannelsTable;
  platform_members: PlatformMembersTable;
  platform_messages: PlatformMessagesTable;
  idempotency_records: IdempotencyRecordsTable;
  events: EventsTable;
  bank_settings: BankSettingsTable;
  bank_accounts: BankAccountsTable;
  bank_ledger: BankLedgerTable;
  level_settings: LevelSettingsTable;
  level_rewards: LevelRewardsTable;
  level_members: LevelMembersTable;
  xp_changes: XpChangesTable;
  platform_role_changes: PlatformRoleChangesTable;
  level_rank_snapshots: LevelRankSnapshotsTable;
  level_rank_snapshot_state: LevelRankSnapshotStateTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  platform_bans: PlatformBansTable;
  platform_moderation_log: PlatformModerationLogTable;
  platform_direct_messages: PlatformDirectMessagesTable;
  platform_invites: PlatformInvitesTable;
  moderation_settings: ModerationSettingsTable;
  moderation_escalations: ModerationEscalationsTable;
  record_counters: RecordCountersTable;
  moderation_cases: ModerationCasesTable;
  moderation_case_events: ModerationCaseEventsTable;
  moderation_actions: ModerationActionsTable;
  appeal_settings: AppealSettingsTable;
  appeals: AppealsTable;
  appeal_messages: AppealMessagesTable;
}

export type GuildRow = Selectable<GuildsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type NewAuditEntry = Insertable<AuditLogTable>;

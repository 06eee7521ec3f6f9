import type { Insertable, Selectable } from 'kysely';
import type { GuildsTable, ApiKeysTable, AuditLogTable, RateLimitCountersTable, IdempotencyRecordsTable, EventsTable } from './shared/tables.js';
import type { PlatformGuildsTable, PlatformRolesTable, PlatformChannelsTable, PlatformMembersTable, PlatformMessagesTable, PlatformRoleChangesTable, PlatformBansTable, PlatformModerationLogTable, PlatformDirectMessagesTable, PlatformInvitesTable } from './platform/tables.js';
import type { BankSettingsTable, BankAccountsTable, BankLedgerTable } from './bank/tables.js';
import type { LevelSettingsTable, LevelRewardsTable, LevelMembersTable, XpChangesTable, LevelRankSnapshotsTable, LevelRankSnapshotStateTable } from './levels/tables.js';
import type { WebhookEndpointsTable, WebhookDeliveriesTable, WebhookAttemptsTable } from './webhooks/tables.js';
import type { ModerationSettingsTable, ModerationEscalationsTable, RecordCountersTable, ModerationCasesTable, ModerationCaseEventsTable, ModerationActionsTable } from './moderation/tables.js';
import type { AppealSettingsTable, AppealsTable, AppealMessagesTable } from './appeals/tables.js';

// Row types of every table, one file per area; the Database interface below is what Kysely sees.
export type * from './shared/tables.js';
export type * from './platform/tables.js';
export type * from './bank/tables.js';
export type * from './levels/tables.js';
export type * from './webhooks/tables.js';
export type * from './moderation/tables.js';
export type * from './appeals/tables.js';

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

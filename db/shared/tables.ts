import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt, Timestamp } from './columns.js';

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
  /** The start of the last rate-limit window the key was counted in, folded in by the hourly purge. */
  last_used_at: Date | null;
  /** The key that replaced this one in a roll (this one then lasts until its expires_at). */
  rolled_into: number | null;
}

export interface AuditLogTable {
  id: Generated<string>;
  guild_id: string;
  actor_type: 'api_key' | 'operator' | 'system' | 'console_user' | 'member';
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

export interface IdempotencyRecordsTable {
  api_key_id: number;
  idempotency_key: string;
  /** SHA-256 of method, path and canonical body: a different request under the same key is refused. */
  fingerprint: Buffer;
  state: 'processing' | 'done';
  response_status: number | null;
  /** The response body exactly as it was sent (JSON text), so a replay returns the same bytes. */
  response_body: string | null;
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
  /** The batch (sequence event_batch_seq) whose workflow carries the event's fan-out: src/events/batchLauncher.ts. */
  batch_id: ColumnType<string | null, never, string>;
  deliveries_at_commit: Generated<boolean>;
}

/** Migration 2026-11-30-090: which rank snapshots need a recount (db/shared/rankMarks.ts). */
export type RankBoardName = 'levels' | 'invites';

/** The one row of the retention purge's plan (migration 2026-11-30-110). */
export interface RetentionPurgePlanTable {
  id: ColumnType<boolean, boolean | undefined, never>;
  planned_at: Date | null;
  wanted_at: Date | null;
}

export interface RankMarksTable {
  board: RankBoardName;
  guild_id: string;
  dirty_since: Date | null;
  woken: ColumnType<boolean, boolean | undefined, boolean>;
  recount_due: ColumnType<boolean, boolean | undefined, boolean>;
}

import type { ColumnType, Generated } from 'kysely';

export interface BotGatewaySessionsTable {
  shard_id: number;
  shard_count: number;
  session_id: string;
  resume_url: string;
  /** bigint: pg hands it back as a string, read as a number (sequences stay far below 2^53). */
  seq: ColumnType<string, number, number>;
  updated_at: Generated<Date>;
}

export interface BotIdentifySlotsTable {
  rate_limit_key: number;
  identified_at: Date;
}

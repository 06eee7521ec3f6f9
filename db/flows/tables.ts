import type { ColumnType, Generated } from 'kysely';

export interface FlowsTable {
  id: Generated<number>;
  guild_id: string;
  name: string;
  description: string | null;
  enabled: boolean;
  trigger_type: 'manual' | 'webhook' | 'event';
  trigger_event: string | null;
  /** The definition as saved (FlowDefinition, defaults applied). */
  definition: ColumnType<unknown, string, string>;
  version: number;
  timeout_seconds: number;
  /** SHA-256 of the webhook URL's token (webhook flows); the token itself is shown once. */
  webhook_token_hash: Buffer | null;
  created_at: ColumnType<Date, Date, never>;
  updated_at: Date;
}

export interface FlowRunsTable {
  execution_id: number;
  guild_id: string;
  flow_id: number;
  flow_version: number;
  source: 'api' | 'webhook' | 'event';
  /** The definition's nodes as they were when the run was accepted. */
  nodes: ColumnType<unknown, string, never>;
  timeout_seconds: number;
  input: ColumnType<unknown, string, never>;
  api_key_id: number | null;
  /** The events row that triggered an event run (one run per event and flow). */
  event_id: string | null;
  status: 'running' | 'success' | 'error' | 'stopped' | 'cancelled';
  output: ColumnType<unknown, string | null | undefined, string | null>;
  error: string | null;
  started_at: Date;
  finished_at: Date | null;
  /** bigint (a run may be open past int's 24.8 days), read as a number by the pool's int8 parser. */
  duration_ms: number | null;
  workflow_started_at: Date | null;
  /** Each node's outcome in the order they ran (FlowNodeOutcome[]), written with the run's end; null before. */
  node_outcomes: ColumnType<unknown, never, string | null>;
}

export interface FlowRunQuotasTable {
  guild_id: string;
  /** The UTC day, as YYYY-MM-DD. */
  day: ColumnType<string, string, string>;
  used: number;
}

export interface FlowEffectsTable {
  execution_id: number;
  node_id: string;
  result: ColumnType<unknown, string, string>;
}

export interface FlowEventCursorsTable {
  name: string;
  last_seq: number;
}

import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, FlowRunsTable } from '../schema.js';

export type FlowRunSource = FlowRunsTable['source'];

export interface FlowRunRecord {
  executionId: number;
  guildId: string;
  flowId: number;
  flowVersion: number;
  source: FlowRunSource;
  nodes: unknown[];
  timeoutSeconds: number;
  input: unknown;
  apiKeyId: number | null;
  eventId: string | null;
  status: FlowRunsTable['status'];
  output: unknown;
  error: string | null;
  startedAt: Date;
  finishedAt: Date | null;
  durationMs: number | null;
  workflowStartedAt: Date | null;
  /** FlowNodeOutcome[] once the run ended (runs that ended before they were kept: null). */
  nodeOutcomes: unknown[] | null;
}

export type NewFlowRun = Pick<FlowRunRecord, 'guildId' | 'flowId' | 'flowVersion' | 'source' | 'nodes' | 'timeoutSeconds' | 'input' | 'apiKeyId' | 'eventId' | 'startedAt'>;

const COLUMNS = [
  'execution_id',
  'guild_id',
  'flow_id',
  'flow_version',
  'source',
  'nodes',
  'timeout_seconds',
  'input',
  'api_key_id',
  'event_id',
  'status',
  'output',
  'error',
  'started_at',
  'finished_at',
  'duration_ms',
  'workflow_started_at',
  'node_outcomes',
] as const;

const toRecord = (r: Selectable<FlowRunsTable>): FlowRunRecord => ({
  executionId: r.execution_id,
  guildId: r.guild_id,
  flowId: r.flow_id,
  flowVersion: r.flow_version,
  source: r.source,
  nodes: r.nodes as unknown[],
  timeoutSeconds: r.timeout_seconds,
  input: r.input,
  apiKeyId: r.api_key_id,
  eventId: r.event_id,
  status: r.status,
  output: r.output,
  error: r.error,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  durationMs: r.duration_ms,
  workflowStartedAt: r.workflow_started_at,
  nodeOutcomes: (r.node_outcomes as unknown[] | null) ?? null,
});

/**
 * Records an accepted run (`running`), its executionId from the sequence. An event run that already exists
 * (the same event and flow) is not recorded twice: undefined then.
 */
export async function insertFlowRun(trx: Kysely<Database>, run: NewFlowRun): Promise<FlowRunRecord | undefined> {
  const row = await trx
    .insertInto('flow_runs')
    .values({
      execution_id: sql<number>`nextval('flow_run_execution_seq')`,
      guild_id: run.guildId,
      flow_id: run.flowId,
      flow_version: run.flowVersion,
      source: run.source,
      nodes: JSON.stringify(run.nodes),
      timeout_seconds: run.timeoutSeconds,
      input: JSON.stringify(run.input ?? null),
      api_key_id: run.apiKeyId,
      event_id: run.eventId,
      status: 'running',
      started_at: run.startedAt,
    })
    .onConflict((oc) => oc.columns(['event_id', 'flow_id']).doNothing())
    .returning(COLUMNS)
    .executeTakeFirst();
  return row && toRecord(row);
}

export async function findFlowRun(db: Kysely<Database>, guildId: string, executionId: number): Promise<FlowRunRecord | undefined> {
  const row = await db.selectFrom('flow_runs').select(COLUMNS).where('guild_id', '=', guildId).where('execution_id', '=', executionId).executeTakeFirst();
  return row && toRecord(row);
}

/** Records how a run ended; the first final status stands (a repeated call changes nothing). */
export async function finishFlowRun(
  db: Kysely<Database>,
  executionId: number,
  end: { status: Exclude<FlowRunsTable['status'], 'running'>; output: unknown; error: string | null; finishedAt: Date; durationMs: number; nodeOutcomes?: unknown[] | null },
): Promise<void> {
  await db
    .updateTable('flow_runs')
    .set({
      status: end.status,
      output: end.output === undefined ? null : JSON.stringify(end.output),
      error: end.error,
      finished_at: end.finishedAt,
      duration_ms: end.durationMs,
      node_outcomes: end.nodeOutcomes ? JSON.stringify(end.nodeOutcomes) : null,
    })
    .where('execution_id', '=', executionId)
    .where('status', '=', 'running')
    .execute();
}

export async function markFlowRunStarted(db: Kysely<Database>, executionId: number, at: Date): Promise<void> {
  await db.updateTable('flow_runs').set({ workflow_started_at: at }).where('execution_id', '=', executionId).where('workflow_started_at', 'is', null).execute();
}

export async function listUnstartedFlowRuns(db: Kysely<Database>, olderThan: Date, limit: number): Promise<FlowRunRecord[]> {
  const rows = await db
    .selectFrom('flow_runs')
    .select(COLUMNS)
    .where('workflow_started_at', 'is', null)
    .where('started_at', '<', olderThan)
    .orderBy('started_at')
    .limit(limit)
    .execute();
  return rows.map(toRecord);
}

/** One flow's runs, newest first, `before` an executionId (keyset paging). */
export async function listRunsOfFlow(db: Kysely<Database>, guildId: string, flowId: number, page: { before?: number; limit: number }): Promise<FlowRunRecord[]> {
  let query = db.selectFrom('flow_runs').select(COLUMNS).where('guild_id', '=', guildId).where('flow_id', '=', flowId);
  if (page.before !== undefined) query = query.where('execution_id', '<', page.before);
  return (await query.orderBy('execution_id', 'desc').limit(page.limit).execute()).map(toRecord);
}

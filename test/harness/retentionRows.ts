import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

// Rows of every record kind the retention purge handles, written straight to their tables at a chosen time (the
// moment each kind's retention counts from), so a test can place them either side of a cutoff.

export async function insertEvent(db: Kysely<Database>, guildId: string, at: Date, options: { fanout?: boolean; delivery?: 'pending' | 'succeeded' } = {}) {
  const id = `evt_${randomUUID().replaceAll('-', '')}`;
  await sql`insert into events (id, guild_id, type, data, created_at, fanout_started_at, deliveries_at_commit)
    values (${id}, ${guildId}, 'bank.transaction', '{}', ${at}, ${options.fanout === false ? null : at}, true)`.execute(db);
  if (options.delivery) {
    const { rows: [endpoint] } = await sql<{ id: number }>`insert into webhook_endpoints (guild_id, url, secret) values (${guildId}, 'https://example.com/hook', 'whsec_x') returning id`.execute(db);
    const { rows: [delivery] } = await sql<{ id: number }>`insert into webhook_deliveries (endpoint_id, event_id, body, status, created_at)
      values (${endpoint!.id}, ${id}, '{}', ${options.delivery}, ${at}) returning id`.execute(db);
    await sql`insert into webhook_attempts (delivery_id, attempt, attempted_at, duration_ms) values (${delivery!.id}, 1, ${at}, 5)`.execute(db);
  }
  return id;
}

export async function insertAuditRow(db: Kysely<Database>, guildId: string, at: Date) {
  const { rows: [row] } = await sql<{ id: string }>`insert into audit_log (guild_id, actor_type, action, data, created_at)
    values (${guildId}, 'system', 'test.action', '{}', ${at}) returning id`.execute(db);
  return row!.id;
}

export async function insertFlowRun(db: Kysely<Database>, guildId: string, finishedAt: Date | null, executionId?: number) {
  const { rows: [row] } = await sql<{ execution_id: number }>`insert into flow_runs
      (execution_id, guild_id, flow_id, flow_version, source, nodes, timeout_seconds, input, status, started_at, finished_at)
    values (${executionId ?? sql`nextval('flow_run_execution_seq')`}, ${guildId}, 1, 1, 'api', '[]', 30, '{}',
      ${finishedAt ? 'success' : 'running'}, ${finishedAt ?? new Date(0)}, ${finishedAt}) returning execution_id`.execute(db);
  await sql`insert into flow_effects (execution_id, node_id, result) values (${row!.execution_id}, 'n1', 'null')`.execute(db);
  return row!.execution_id;
}

export async function insertXpChange(db: Kysely<Database>, guildId: string, processedAt: Date | null, apiKeyId = 1) {
  const id = `xpc_${randomUUID().slice(0, 16)}`;
  await sql`insert into xp_changes (change_id, guild_id, user_id, api_key_id, type, unit, amount, status, created_at, processed_at)
    values (${id}, ${guildId}, '100000000000000001', ${apiKeyId}, 'add', 'xp', 5, ${processedAt ? 'done' : 'pending'}, ${processedAt ?? new Date(0)}, ${processedAt})`.execute(db);
  return id;
}

export async function insertModAction(db: Kysely<Database>, guildId: string, finishedAt: Date | null, apiKeyId = 1) {
  const id = `mda_${randomUUID().slice(0, 16)}`;
  await sql`insert into moderation_actions (action_id, guild_id, user_id, action, api_key_id, source, request, status, requested_at, finished_at)
    values (${id}, ${guildId}, '100000000000000001', 'warn', ${apiKeyId}, 'api', '{}', ${finishedAt ? 'done' : 'running'}, ${finishedAt ?? new Date(0)}, ${finishedAt})`.execute(db);
  return id;
}

let tickets = 0;
/** A ticket closed at `closedAt` (open when null) with a saved transcript of `messages` messages. */
export async function insertTicket(db: Kysely<Database>, guildId: string, closedAt: Date | null, messages = 2) {
  const ticketNo = ++tickets;
  await sql`insert into tickets (guild_id, ticket_no, status, user_id, is_thread, opened_at, closed_at, transcript_generated_at, transcript_total, transcript_message_content, transcript_users)
    values (${guildId}, ${ticketNo}, ${closedAt ? 'closed' : 'open'}, '100000000000000001', false, ${new Date(0)}, ${closedAt}, ${closedAt}, ${messages}, ${closedAt ? true : null}, ${closedAt ? '{}' : null})`.execute(db);
  for (let i = 1; i <= messages; i++) {
    await sql`insert into ticket_messages (guild_id, ticket_no, message_id, content, created_at) values (${guildId}, ${ticketNo}, ${String(100000000000000000n + BigInt(i))}, 'hello', ${new Date(0)})`.execute(db);
  }
  return ticketNo;
}

export async function insertLevelUpEffect(db: Kysely<Database>, guildId: string, appliedAt: Date | null) {
  const id = `evt_${randomUUID().replaceAll('-', '')}`;
  await sql`insert into level_up_effects (event_id, guild_id, user_id, previous_level, level, created_at, workflow_started_at, applied_at)
    values (${id}, ${guildId}, '100000000000000001', 1, 2, ${new Date(0)}, ${new Date(0)}, ${appliedAt})`.execute(db);
  return id;
}

/** A server's flow-run count of the UTC day `day` (YYYY-MM-DD). */
export async function insertFlowRunQuota(db: Kysely<Database>, guildId: string, day: string) {
  await sql`insert into flow_run_quotas (guild_id, day, used) values (${guildId}, ${day}, 3)`.execute(db);
}

export const countRows = async (db: Kysely<Database>, table: string) =>
  (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db)).rows[0]!.n;

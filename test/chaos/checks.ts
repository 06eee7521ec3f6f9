import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { INTERRUPTED_ATTEMPT } from '../../db/webhooks/batches.js';
import type { AcceptedOp } from './load.js';

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/**
 * A flow run whose own step refused ends `error` with the refusal's code (`node "pay" (bankTransaction):
 * BALANCE_LIMIT: ...`): the one way an accepted run may end otherwise than `success`. A fault never may: its steps
 * wait out outages and worker restarts (docs/flows.md).
 */
const REFUSED_STEP = /^node "[^"]+" \([^)]+\): [A-Z][A-Z_]+: /;
export const flowRefused = (op: AcceptedOp) => op.kind === 'flow' && op.status === 'error' && typeof op.error === 'string' && REFUSED_STEP.test(op.error);

/** What the database held before the load: the baseline every effect is counted from. */
export interface Baseline {
  xp: Map<string, number>;
  ledgerRows: number;
  since: Date;
}

export async function takeBaseline(db: Kysely<Database>, guildId: string, xpUsers: string[]): Promise<Baseline> {
  const rows = await db.selectFrom('level_members').select(['user_id', 'xp']).where('guild_id', '=', guildId).where('user_id', 'in', xpUsers).execute();
  const ledger = await db.selectFrom('bank_ledger').select(sql<number>`count(*)::int`.as('n')).where('guild_id', '=', guildId).executeTakeFirstOrThrow();
  return { xp: new Map(rows.map((r) => [r.user_id, Number(r.xp)])), ledgerRows: ledger.n, since: new Date() };
}

/**
 * The invariants after a fault, over every operation accepted so far: each terminal and successful, its effect
 * applied exactly once (XP totals, one ledger row per bank credit and per flow reward, one case per warning),
 * every balance equal to the sum of its ledger, and every bank event delivered exactly once to the endpoint.
 */
export async function checkEffects(db: Kysely<Database>, guildId: string, baseline: Baseline, ops: AcceptedOp[], delivered: Map<string, number>): Promise<string[]> {
  const problems: string[] = [];
  const notOk = ops.filter((op) => !['done', 'success'].includes(op.status) && !flowRefused(op));
  for (const op of notOk.slice(0, 10)) problems.push(`${op.kind} ${op.tag} ended ${op.status}${op.error ? `: ${JSON.stringify(op.error)}` : ''}`);
  if (notOk.length > 10) problems.push(`... and ${notOk.length - 10} more operations not done`);

  const xpUsers = [...new Set(ops.filter((op) => op.kind === 'xp').map((op) => op.userId))];
  if (xpUsers.length > 0) {
    const rows = await db.selectFrom('level_members').select(['user_id', 'xp']).where('guild_id', '=', guildId).where('user_id', 'in', xpUsers).execute();
    for (const userId of xpUsers) {
      const expected = (baseline.xp.get(userId) ?? 0) + sum(ops.filter((op) => op.kind === 'xp' && op.userId === userId && op.status === 'done').map((op) => op.amount));
      const actual = Number(rows.find((r) => r.user_id === userId)?.xp ?? 0);
      if (actual !== expected) problems.push(`XP of ${userId} is ${actual}, expected ${expected}`);
    }
  }

  const ledger = await db
    .selectFrom('bank_ledger')
    .select(['user_id', 'type', 'amount', 'reason'])
    .where('guild_id', '=', guildId)
    .where('created_at', '>=', baseline.since)
    .execute();
  for (const op of ops.filter((o) => o.kind === 'bank')) {
    const rows = ledger.filter((row) => row.reason === op.tag).length;
    if (rows !== 1) problems.push(`bank credit "${op.tag}" has ${rows} ledger rows`);
  }
  // A flow run's bank node records its effect once per run (flow_effects), with the ledger row it wrote; its
  // message node posts under the run and node's idempotency key. A successful run did each exactly once, a refused
  // one neither.
  const flows = ops.filter((o) => o.kind === 'flow');
  const executions = flows.map((op) => Number(op.tag));
  const effects = flows.length === 0 ? [] : await db
    .selectFrom('flow_effects')
    .select(['execution_id'])
    .where('execution_id', 'in', executions)
    .where('node_id', '=', 'pay')
    .execute();
  const announced = flows.length === 0 ? [] : await db
    .selectFrom('platform_messages')
    .select(['idempotency_key'])
    .where('guild_id', '=', guildId)
    .where('idempotency_key', 'in', flows.map((op) => `flow/${guildId}/${op.tag}/announce`))
    .execute();
  for (const op of flows) {
    const expected = op.status === 'success' ? 1 : 0;
    const paid = effects.filter((e) => String(e.execution_id) === op.tag).length;
    const said = announced.filter((m) => m.idempotency_key === `flow/${guildId}/${op.tag}/announce`).length;
    if (paid !== expected || said !== expected) problems.push(`flow run ${op.tag} (${op.status}) paid ${paid} times and announced ${said} times`);
  }
  const flowLedger = ledger.filter((row) => row.type === 'flow');
  const expectedFlowSum = sum(flows.filter((op) => op.status === 'success').map((op) => op.amount));
  if (flowLedger.length !== effects.length || sum(flowLedger.map((row) => Number(row.amount))) !== expectedFlowSum) {
    problems.push(`flow ledger rows: ${flowLedger.length} summing to ${sum(flowLedger.map((row) => Number(row.amount)))}, expected ${effects.length} summing to ${expectedFlowSum}`);
  }
  const unbalanced = await sql<{ user_id: string; balance: number; ledger: number }>`
    SELECT a.user_id, a.balance::bigint AS balance, coalesce(sum(l.amount), 0)::bigint AS ledger
    FROM bank_accounts a LEFT JOIN bank_ledger l ON l.guild_id = a.guild_id AND l.user_id = a.user_id
    WHERE a.guild_id = ${guildId} GROUP BY a.user_id, a.balance HAVING a.balance <> coalesce(sum(l.amount), 0)`.execute(db);
  for (const row of unbalanced.rows) problems.push(`balance of ${row.user_id} is ${row.balance}, its ledger sums to ${row.ledger}`);

  const cases = await db.selectFrom('moderation_cases').select(['reason']).where('guild_id', '=', guildId).where('action', '=', 'warn').execute();
  for (const op of ops.filter((o) => o.kind === 'warn' && o.status === 'done')) {
    const n = cases.filter((c) => c.reason === op.tag).length;
    if (n !== 1) problems.push(`warning "${op.tag}" has ${n} cases`);
  }

  const events = await db
    .selectFrom('events')
    .select(['id'])
    .where('guild_id', '=', guildId)
    .where('type', '=', 'bank.transaction')
    .where('created_at', '>=', baseline.since)
    .execute();
  const undelivered = events.filter((e) => (delivered.get(e.id) ?? 0) === 0);
  const twice = [...delivered].filter(([, n]) => n > 1);
  if (undelivered.length > 0) problems.push(`${undelivered.length} of ${events.length} bank.transaction events never delivered`);
  for (const repeat of (await unexplainedRepeats(db, twice)).slice(0, 5)) problems.push(repeat);
  return problems;
}

/**
 * Events answered 2xx more than once, with their attempt log, except those the spec allows to repeat: a worker
 * killed while dialling leaves an attempt whose outcome nobody knows (logged as interrupted), and its retry sends
 * the event again. Any other repeat (one sent again after a logged success) is a bug.
 */
async function unexplainedRepeats(db: Kysely<Database>, twice: Array<[string, number]>): Promise<string[]> {
  if (twice.length === 0) return [];
  const attempts = await db
    .selectFrom('webhook_attempts as a')
    .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .select(['d.event_id', 'a.attempt', 'a.status_code', 'a.error'])
    .where('d.event_id', 'in', twice.map(([id]) => id))
    .orderBy('a.attempt')
    .execute();
  return twice
    .map(([id, n]) => ({ id, n, log: attempts.filter((a) => a.event_id === id) }))
    .filter(({ log }) => !log.some((a) => a.error === INTERRUPTED_ATTEMPT))
    .map(({ id, n, log }) => `event ${id} delivered ${n} times; attempts: ${log.map((a) => `${a.attempt} ${a.status_code ?? a.error}`).join(', ')}`);
}

/** Waits until every bank event since the baseline has been delivered (or `timeoutMs` passes); answers how long. */
export async function untilDelivered(db: Kysely<Database>, guildId: string, baseline: Baseline, delivered: Map<string, number>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const events = await db
      .selectFrom('events')
      .select(['id'])
      .where('guild_id', '=', guildId)
      .where('type', '=', 'bank.transaction')
      .where('created_at', '>=', baseline.since)
      .execute()
      .catch(() => undefined);
    if (events && events.every((e) => (delivered.get(e.id) ?? 0) > 0)) return Date.now() - started;
    if (Date.now() - started > timeoutMs) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

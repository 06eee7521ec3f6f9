import type { Kysely } from 'kysely';
import type { Selectable } from 'kysely';
import type { Database, XpChangesTable } from '../schema.js';

export type XpChangeStatus = 'pending' | 'processing' | 'done' | 'failed';

export interface XpChangeResult {
  previousLevel: number;
  level: number;
  xp: number;
}

/** Who asked for a change: an API key, or a manager in the console (its audit row's actor, and who may read it). */
export type XpChangeAsker = { apiKeyId: number } | { consoleUserId: string };

export interface XpChangeRecord {
  changeId: string;
  guildId: string;
  userId: string;
  asker: XpChangeAsker;
  type: 'add' | 'remove' | 'set';
  unit: 'xp' | 'levels';
  amount: number;
  reason: string | null;
  status: XpChangeStatus;
  result: XpChangeResult | null;
  error: string | null;
  createdAt: Date;
  processedAt: Date | null;
}

export async function insertXpChange(trx: Kysely<Database>, c: Omit<XpChangeRecord, 'status' | 'result' | 'error' | 'processedAt'>): Promise<void> {
  await trx
    .insertInto('xp_changes')
    .values({
      change_id: c.changeId,
      guild_id: c.guildId,
      user_id: c.userId,
      api_key_id: 'apiKeyId' in c.asker ? c.asker.apiKeyId : null,
      console_user_id: 'consoleUserId' in c.asker ? c.asker.consoleUserId : null,
      type: c.type,
      unit: c.unit,
      amount: c.amount,
      reason: c.reason,
      status: 'pending',
      result: null,
      error: null,
      created_at: c.createdAt,
      processed_at: null,
      workflow_started_at: null,
    })
    .execute();
}

export async function findXpChange(db: Kysely<Database>, changeId: string): Promise<XpChangeRecord | undefined> {
  const row = await db.selectFrom('xp_changes').selectAll().where('change_id', '=', changeId).executeTakeFirst();
  return row && toXpChangeRecord(row);
}

/** The change, its row locked until the caller's transaction ends. */
export async function lockXpChange(trx: Kysely<Database>, changeId: string): Promise<XpChangeRecord | undefined> {
  const row = await trx.selectFrom('xp_changes').selectAll().where('change_id', '=', changeId).forUpdate().executeTakeFirst();
  return row && toXpChangeRecord(row);
}

/** The applied result, stored with the change it belongs to: its presence marks the change applied. */
export async function storeXpChangeResult(trx: Kysely<Database>, changeId: string, result: XpChangeResult): Promise<void> {
  await trx.updateTable('xp_changes').set({ status: 'processing', result: JSON.stringify(result) }).where('change_id', '=', changeId).execute();
}

function toXpChangeRecord(row: Selectable<XpChangesTable>): XpChangeRecord {
  return (
    {
      changeId: row.change_id,
      guildId: row.guild_id,
      userId: row.user_id,
      // The table's check: exactly one of the two is set.
      asker: row.api_key_id === null ? { consoleUserId: row.console_user_id! } : { apiKeyId: row.api_key_id },
      type: row.type,
      unit: row.unit,
      amount: row.amount,
      reason: row.reason,
      status: row.status,
      result: row.result as XpChangeResult | null,
      error: row.error,
      createdAt: row.created_at,
      processedAt: row.processed_at,
    }
  );
}

/** Records the outcome; only the first final outcome counts (a retried activity cannot overwrite it). */
export async function finishXpChange(
  db: Kysely<Database>,
  changeId: string,
  outcome: { status: 'done'; result: XpChangeResult } | { status: 'failed'; error: string },
  at: Date,
): Promise<void> {
  await db
    .updateTable('xp_changes')
    .set({
      status: outcome.status,
      result: outcome.status === 'done' ? JSON.stringify(outcome.result) : null,
      error: outcome.status === 'failed' ? outcome.error : null,
      processed_at: at,
    })
    .where('change_id', '=', changeId)
    .where('status', 'not in', ['done', 'failed'])
    .execute();
}

export async function markXpChangeProcessing(db: Kysely<Database>, changeId: string): Promise<void> {
  await db.updateTable('xp_changes').set({ status: 'processing' }).where('change_id', '=', changeId).where('status', '=', 'pending').execute();
}

export async function markXpWorkflowStarted(db: Kysely<Database>, changeId: string, at: Date): Promise<void> {
  await db.updateTable('xp_changes').set({ workflow_started_at: at }).where('change_id', '=', changeId).where('workflow_started_at', 'is', null).execute();
}

export async function listUnstartedXpChanges(db: Kysely<Database>, olderThan: Date, limit: number) {
  const rows = await db
    .selectFrom('xp_changes')
    .select(['change_id', 'guild_id', 'user_id', 'type', 'unit', 'amount'])
    .where('workflow_started_at', 'is', null)
    .where('created_at', '<', olderThan)
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ changeId: r.change_id, guildId: r.guild_id, userId: r.user_id, type: r.type, unit: r.unit, amount: r.amount }));
}

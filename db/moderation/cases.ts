import type { Kysely, Selectable } from 'kysely';
import { nextRecordNumber } from '../shared/recordCounters.js';
import type { Database, ModerationCasesTable } from '../schema.js';

type Db = Kysely<Database>;
type CaseRow = Selectable<ModerationCasesTable>;

export type CaseAction = 'warn' | 'timeout' | 'untimeout' | 'kick' | 'ban' | 'tempban' | 'softban' | 'unban' | 'note' | 'purge';
export type CaseSource = 'command' | 'automod' | 'escalation' | 'antiraid' | 'antinuke' | 'console' | 'api';
export type DmStatus = 'sent' | 'failed' | 'off' | null;

export interface ModCaseRecord {
  number: number;
  action: CaseAction;
  userId: string;
  userTag: string | null;
  moderatorId: string;
  reason: string | null;
  durationSeconds: number | null;
  evidence: string[];
  source: CaseSource;
  active: boolean;
  expiresAt: Date | null;
  resolvedAt: Date | null;
  dmStatus: DmStatus;
  apiKey: { id: number | null; name: string | null } | null;
  createdAt: Date;
}

export type NewCase = Omit<ModCaseRecord, 'number' | 'resolvedAt' | 'apiKey'> & {
  guildId: string;
  apiKey: { id: number; name: string } | null;
  /** The operation that made it; a second insert for the same operation returns the first case. */
  operationId: string | null;
};

/** Inserts the case with its `created` timeline entry; returns its number and whether it is new. */
export async function insertCase(trx: Db, c: NewCase): Promise<{ number: number; created: boolean }> {
  if (c.operationId) {
    const existing = await findCaseByOperation(trx, c.operationId);
    if (existing) return { number: existing.number, created: false };
  }
  const number = await nextRecordNumber(trx, c.guildId, 'case');
  await trx
    .insertInto('moderation_cases')
    .values({
      guild_id: c.guildId,
      number,
      action: c.action,
      user_id: c.userId,
      user_tag: c.userTag,
      moderator_id: c.moderatorId,
      reason: c.reason,
      duration_seconds: c.durationSeconds,
      evidence: c.evidence,
      source: c.source,
      active: c.active,
      expires_at: c.expiresAt,
      resolved_at: null,
      dm_status: c.dmStatus,
      api_key_id: c.apiKey?.id ?? null,
      api_key_name: c.apiKey?.name ?? null,
      operation_id: c.operationId,
      created_at: c.createdAt,
      deleted_at: null,
    })
    .execute();
  await addCaseEvent(trx, { guildId: c.guildId, caseNumber: number, type: 'created', actorId: c.moderatorId, data: {}, at: c.createdAt });
  return { number, created: true };
}

export async function addCaseEvent(
  trx: Db,
  e: { guildId: string; caseNumber: number; type: string; actorId: string | null; data: Record<string, unknown>; at: Date },
): Promise<void> {
  await trx
    .insertInto('moderation_case_events')
    .values({ guild_id: e.guildId, case_number: e.caseNumber, type: e.type, actor_id: e.actorId, data: JSON.stringify(e.data), created_at: e.at })
    .execute();
}

/**
 * Ends a running case (`expired` or `revoked`) with its timeline entry. Returns false when it was not
 * active any more, so an expiry timer firing after a revocation changes nothing.
 */
export async function resolveCase(
  trx: Db,
  r: { guildId: string; caseNumber: number; how: 'expired' | 'revoked'; actorId: string | null; data?: Record<string, unknown>; at: Date },
): Promise<boolean> {
  const updated = await trx
    .updateTable('moderation_cases')
    .set({ active: false, resolved_at: r.at })
    .where('guild_id', '=', r.guildId)
    .where('number', '=', r.caseNumber)
    .where('active', '=', true)
    .executeTakeFirst();
  if (updated.numUpdatedRows === 0n) return false;
  await addCaseEvent(trx, { guildId: r.guildId, caseNumber: r.caseNumber, type: r.how, actorId: r.actorId, data: r.data ?? {}, at: r.at });
  return true;
}

/** Numbers of the user's running cases of these actions, oldest first. */
export async function listActiveCaseNumbers(db: Db, guildId: string, userId: string, actions: CaseAction[]): Promise<number[]> {
  if (actions.length === 0) return [];
  const rows = await db
    .selectFrom('moderation_cases')
    .select('number')
    .where('guild_id', '=', guildId)
    .where('user_id', '=', userId)
    .where('action', 'in', actions)
    .where('active', '=', true)
    .where('deleted_at', 'is', null)
    .orderBy('number')
    .execute();
  return rows.map((r) => r.number);
}

export async function findCase(db: Db, guildId: string, number: number): Promise<ModCaseRecord | undefined> {
  const row = await db
    .selectFrom('moderation_cases')
    .selectAll()
    .where('guild_id', '=', guildId)
    .where('number', '=', number)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row && toModCaseRecord(row);
}

export interface CaseFilters {
  action?: string;
  source?: string;
  userId?: string;
  moderatorId?: string;
  active?: boolean;
  before?: number;
  limit: number;
}

/** Newest first; the case number is the cursor, so concurrent inserts never shift a page. */
export async function listCases(db: Db, guildId: string, f: CaseFilters): Promise<ModCaseRecord[]> {
  let q = db.selectFrom('moderation_cases').selectAll().where('guild_id', '=', guildId).where('deleted_at', 'is', null);
  if (f.action) q = q.where('action', '=', f.action);
  if (f.source) q = q.where('source', '=', f.source);
  if (f.userId) q = q.where('user_id', '=', f.userId);
  if (f.moderatorId) q = q.where('moderator_id', '=', f.moderatorId);
  if (f.active !== undefined) q = q.where('active', '=', f.active);
  if (f.before !== undefined) q = q.where('number', '<', f.before);
  const rows = await q.orderBy('number', 'desc').limit(f.limit).execute();
  return rows.map(toModCaseRecord);
}

const caseEvents = (db: Db, guildId: string, caseNumber: number) =>
  db.selectFrom('moderation_case_events').select(['id', 'type', 'actor_id', 'data', 'created_at']).where('guild_id', '=', guildId).where('case_number', '=', caseNumber);

const toCaseEvent = (e: { type: string; actor_id: string | null; data: unknown; created_at: Date }) => ({ type: e.type, actorId: e.actor_id, data: e.data, createdAt: e.created_at });

/** A case's timeline, oldest first. */
export async function listCaseEvents(db: Db, guildId: string, caseNumber: number) {
  const rows = await caseEvents(db, guildId, caseNumber).orderBy('id').execute();
  return rows.map(toCaseEvent);
}

/** One page of a case's timeline, newest first, before the event `before` (an id) when given; for the console. */
export async function listCaseEventPage(db: Db, guildId: string, caseNumber: number, page: { before?: number; limit: number }) {
  let q = caseEvents(db, guildId, caseNumber);
  if (page.before !== undefined) q = q.where('id', '<', page.before);
  const rows = await q.orderBy('id', 'desc').limit(page.limit).execute();
  // A bigserial comes back from pg as a string: the cursor is a number (ids stay far below 2^53).
  return rows.map((e) => ({ id: Number(e.id), ...toCaseEvent(e) }));
}

export async function setCaseDmStatus(db: Db, guildId: string, caseNumber: number, dmStatus: 'sent' | 'failed' | 'off'): Promise<void> {
  await db.updateTable('moderation_cases').set({ dm_status: dmStatus }).where('guild_id', '=', guildId).where('number', '=', caseNumber).execute();
}

function toModCaseRecord(row: CaseRow): ModCaseRecord {
  return {
    number: row.number,
    action: row.action as CaseAction,
    userId: row.user_id,
    userTag: row.user_tag,
    moderatorId: row.moderator_id,
    reason: row.reason,
    durationSeconds: row.duration_seconds,
    evidence: row.evidence,
    source: row.source as CaseSource,
    active: row.active,
    expiresAt: row.expires_at,
    resolvedAt: row.resolved_at,
    dmStatus: row.dm_status,
    apiKey: row.api_key_id === null && row.api_key_name === null ? null : { id: row.api_key_id, name: row.api_key_name },
    createdAt: row.created_at,
  };
}

/** The case an operation (an appeal decision, a moderation action) recorded, if it did. */
export async function findCaseByOperation(db: Db, operationId: string): Promise<{ number: number } | undefined> {
  return db.selectFrom('moderation_cases').select('number').where('operation_id', '=', operationId).executeTakeFirst();
}

/** The user's latest ban or tempban case (the one an appeal is about), not deleted. */
export async function findLatestBanCase(db: Db, guildId: string, userId: string): Promise<ModCaseRecord | undefined> {
  const row = await db
    .selectFrom('moderation_cases')
    .selectAll()
    .where('guild_id', '=', guildId)
    .where('user_id', '=', userId)
    .where('action', 'in', ['ban', 'tempban'])
    .where('deleted_at', 'is', null)
    .orderBy('number', 'desc')
    .executeTakeFirst();
  return row && toModCaseRecord(row);
}

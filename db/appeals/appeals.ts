import { sql, type Kysely, type Selectable } from 'kysely';
import type { AppealsTable, Database } from '../schema.js';

type Db = Kysely<Database>;
type AppealRow = Selectable<AppealsTable>;

export type AppealStatus = AppealsTable['status'];
export type FailedAppealAction = { type: 'unban' | 'invite' | 'dm'; error: string | null };

export interface AppealRecord {
  guildId: string;
  number: number;
  userId: string;
  userTag: string | null;
  status: AppealStatus;
  banCaseNumber: number | null;
  banReason: string | null;
  answers: AppealAnswer[];
  claimedBy: string | null;
  decidedBy: string | null;
  decidedAt: Date | null;
  reason: string | null;
  decidedWithApiKeyId: number | null;
  applying: boolean;
  failedAction: FailedAppealAction | null;
  reappealAfter: Date | null;
  createdAt: Date;
  lastActivityAt: Date | null;
  workflowStartedAt: Date | null;
}

export interface AppealMessageRecord {
  author: 'user' | 'staff';
  authorId: string | null;
  text: string;
  createdAt: Date;
}

export interface AppealAnswer {
  id: string;
  type: string;
  label: string;
  value: unknown;
}

export interface NewAppeal {
  guildId: string;
  number: number;
  userId: string;
  userTag: string | null;
  banCaseNumber: number | null;
  banReason: string | null;
  answers: AppealAnswer[];
  createdAt: Date;
}

export async function insertAppeal(trx: Db, a: NewAppeal): Promise<void> {
  await trx
    .insertInto('appeals')
    .values({
      guild_id: a.guildId,
      number: a.number,
      user_id: a.userId,
      user_tag: a.userTag,
      status: 'open',
      ban_case_number: a.banCaseNumber,
      ban_reason: a.banReason,
      answers: JSON.stringify(a.answers),
      claimed_by: null,
      decided_by: null,
      decided_at: null,
      reason: null,
      decided_with_api_key_id: null,
      failed_action: null,
      reappeal_after: null,
      created_at: a.createdAt,
      last_activity_at: a.createdAt,
      workflow_started_at: null,
    })
    .execute();
}

export async function findAppeal(db: Db, guildId: string, number: number): Promise<AppealRecord | undefined> {
  const row = await db.selectFrom('appeals').selectAll().where('guild_id', '=', guildId).where('number', '=', number).executeTakeFirst();
  return row && toAppealRecord(row);
}

/** The appeal, locked until the caller's transaction ends: two decisions on one appeal run one after the other. */
export async function lockAppeal(trx: Db, guildId: string, number: number): Promise<AppealRecord | undefined> {
  const row = await trx
    .selectFrom('appeals')
    .selectAll()
    .where('guild_id', '=', guildId)
    .where('number', '=', number)
    .forUpdate()
    .executeTakeFirst();
  return row && toAppealRecord(row);
}

export interface AppealDecision {
  status: 'approved' | 'rejected';
  reason: string | null;
  /** The staff member who decided (the console user); null through the API. */
  decidedBy: string | null;
  apiKeyId: number | null;
  at: Date;
  reappealAfter: Date | null;
}

export async function decideAppeal(trx: Db, guildId: string, number: number, d: AppealDecision): Promise<void> {
  await trx
    .updateTable('appeals')
    .set({
      status: d.status,
      decided_by: d.decidedBy,
      decided_at: d.at,
      reason: d.reason,
      decided_with_api_key_id: d.apiKeyId,
      applying: true,
      failed_action: null,
      reappeal_after: d.reappealAfter,
      last_activity_at: d.at,
    })
    .where('guild_id', '=', guildId)
    .where('number', '=', number)
    .execute();
}

export async function addAppealMessage(
  trx: Db,
  m: { guildId: string; number: number; author: 'user' | 'staff'; authorId: string | null; text: string; internal?: boolean; at: Date },
): Promise<void> {
  await trx
    .insertInto('appeal_messages')
    .values({
      guild_id: m.guildId,
      appeal_number: m.number,
      author: m.author,
      author_id: m.authorId,
      text: m.text,
      internal: m.internal ?? false,
      created_at: m.at,
    })
    .execute();
}

/** The decision's effects are over: `applying` goes false, with the step that failed if one did. */
export async function finishAppealDecision(db: Db, guildId: string, number: number, failed: FailedAppealAction | null): Promise<void> {
  await db
    .updateTable('appeals')
    .set({ applying: false, failed_action: failed && JSON.stringify(failed) })
    .where('guild_id', '=', guildId)
    .where('number', '=', number)
    .execute();
}

/** `open` means waiting for a decision: open and question (spec: Ban appeals). */
const STATUS_FILTER: Record<AppealStatus | 'all', AppealStatus[] | undefined> = {
  open: ['open', 'question'],
  question: ['question'],
  approved: ['approved'],
  rejected: ['rejected'],
  closed: ['closed'],
  all: undefined,
};

export async function listAppeals(
  db: Db,
  guildId: string,
  f: { status: AppealStatus | 'all'; userId?: string; before?: number; limit: number },
): Promise<AppealRecord[]> {
  let q = db.selectFrom('appeals').selectAll().where('guild_id', '=', guildId);
  const statuses = STATUS_FILTER[f.status];
  if (statuses) q = q.where('status', 'in', statuses);
  if (f.userId) q = q.where('user_id', '=', f.userId);
  if (f.before !== undefined) q = q.where('number', '<', f.before);
  const rows = await q.orderBy('number', 'desc').limit(f.limit).execute();
  return rows.map(toAppealRecord);
}

/** The conversation's visible messages: internal staff notes are left out here, in the query. */
const publicMessages = (db: Db, guildId: string, number: number) =>
  db
    .selectFrom('appeal_messages')
    .select(['id', 'author', 'author_id', 'text', 'created_at'])
    .where('guild_id', '=', guildId)
    .where('appeal_number', '=', number)
    .where('internal', '=', false);

const toMessageRecord = (m: { author: 'user' | 'staff'; author_id: string | null; text: string; created_at: Date }): AppealMessageRecord => ({
  author: m.author,
  authorId: m.author_id,
  text: m.text,
  createdAt: m.created_at,
});

/** The conversation as the API shows it, oldest first. */
export async function listPublicAppealMessages(db: Db, guildId: string, number: number): Promise<AppealMessageRecord[]> {
  const rows = await publicMessages(db, guildId, number).orderBy('id').execute();
  return rows.map(toMessageRecord);
}

/** One page of the conversation, newest first, before the message `before` (an id) when given; for the console. */
export async function listPublicAppealMessagePage(db: Db, guildId: string, number: number, page: { before?: number; limit: number }) {
  let q = publicMessages(db, guildId, number);
  if (page.before !== undefined) q = q.where('id', '<', page.before);
  const rows = await q.orderBy('id', 'desc').limit(page.limit).execute();
  // A bigserial comes back from pg as a string: the cursor is a number (ids stay far below 2^53).
  return rows.map((m) => ({ id: Number(m.id), ...toMessageRecord(m) }));
}

function toAppealRecord(row: AppealRow): AppealRecord {
  return {
    guildId: row.guild_id,
    number: row.number,
    userId: row.user_id,
    userTag: row.user_tag,
    status: row.status,
    banCaseNumber: row.ban_case_number,
    banReason: row.ban_reason,
    answers: row.answers as AppealAnswer[],
    claimedBy: row.claimed_by,
    decidedBy: row.decided_by,
    decidedAt: row.decided_at,
    reason: row.reason,
    decidedWithApiKeyId: row.decided_with_api_key_id,
    applying: row.applying,
    failedAction: row.failed_action as FailedAppealAction | null,
    reappealAfter: row.reappeal_after,
    createdAt: row.created_at,
    lastActivityAt: row.last_activity_at,
    workflowStartedAt: row.workflow_started_at,
  };
}

/** Serialises the filings of one user in one guild until the caller's transaction ends (one open appeal at a time). */
export async function lockUserAppeals(trx: Db, guildId: string, userId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`appeals/${guildId}/${userId}`}, 0))`.execute(trx);
}

/** Every appeal of the user, newest first. */
export async function listUserAppeals(db: Db, guildId: string, userId: string): Promise<AppealRecord[]> {
  const rows = await db
    .selectFrom('appeals')
    .selectAll()
    .where('guild_id', '=', guildId)
    .where('user_id', '=', userId)
    .orderBy('number', 'desc')
    .execute();
  return rows.map(toAppealRecord);
}

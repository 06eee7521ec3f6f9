import { sql, type Kysely, type Selectable } from 'kysely';
import type { ApplicationSubmissionsTable, Database } from '../schema.js';

type Db = Kysely<Database>;

export type SubmissionStatus = ApplicationSubmissionsTable['status'];
export type FailedSubmissionAction = { type: 'roles' | 'dm' | 'announce' | 'review'; error: string | null };

export interface SubmissionAnswer {
  id: string;
  type: string;
  label: string;
  text: string;
}

export interface ApplicantSnapshot {
  accountCreatedAt: string | null;
  joinedAt: string | null;
  roleIds: string[];
  level: number | null;
}

export interface SubmissionRecord {
  guildId: string;
  number: number;
  formId: number | null;
  formTitle: string | null;
  userId: string;
  status: SubmissionStatus;
  votesUp: number;
  votesDown: number;
  answers: SubmissionAnswer[];
  applicant: ApplicantSnapshot;
  submittedAt: Date;
  decidedAt: Date | null;
  decidedBy: string | null;
  reason: string | null;
  decidedWithApiKeyId: number | null;
  reapplyAfter: Date | null;
  applying: boolean;
  failedActions: FailedSubmissionAction[];
  workflowStartedAt: Date | null;
}

export interface NewSubmission {
  guildId: string;
  formId: number;
  formTitle: string;
  userId: string;
  answers: SubmissionAnswer[];
  applicant: ApplicantSnapshot;
  submittedAt: Date;
}

/** Stores a `pending` submission under the server's next number (per server from 1, no gaps, no repeats). */
export async function insertSubmission(trx: Db, s: NewSubmission): Promise<number> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`application-numbers/${s.guildId}`}, 0))`.execute(trx);
  const last = await trx
    .selectFrom('application_submissions')
    .select((eb) => eb.fn.max('number').as('max'))
    .where('guild_id', '=', s.guildId)
    .executeTakeFirst();
  const number = (last?.max ?? 0) + 1;
  await trx
    .insertInto('application_submissions')
    .values({
      guild_id: s.guildId,
      number,
      form_id: s.formId,
      form_title: s.formTitle,
      user_id: s.userId,
      status: 'pending',
      answers: JSON.stringify(s.answers),
      applicant: JSON.stringify(s.applicant),
      submitted_at: s.submittedAt,
      decided_at: null,
      decided_by: null,
      reason: null,
      decided_with_api_key_id: null,
      reapply_after: null,
      workflow_started_at: null,
    })
    .execute();
  return number;
}

export async function findSubmission(db: Db, guildId: string, number: number): Promise<SubmissionRecord | undefined> {
  const row = await db
    .selectFrom('application_submissions')
    .selectAll()
    .where('guild_id', '=', guildId)
    .where('number', '=', number)
    .executeTakeFirst();
  return row && toSubmissionRecord(row);
}

/** The submission, locked until the caller's transaction ends: two decisions on one submission run one after the other. */
export async function lockSubmission(trx: Db, guildId: string, number: number): Promise<SubmissionRecord | undefined> {
  const row = await trx
    .selectFrom('application_submissions')
    .selectAll()
    .where('guild_id', '=', guildId)
    .where('number', '=', number)
    .forUpdate()
    .executeTakeFirst();
  return row && toSubmissionRecord(row);
}

export async function storeSubmissionDecision(
  trx: Db,
  guildId: string,
  number: number,
  d: { status: 'accepted' | 'denied'; reason: string | null; decidedBy: string | null; apiKeyId: number | null; at: Date; reapplyAfter: Date | null },
): Promise<void> {
  await trx
    .updateTable('application_submissions')
    .set({
      status: d.status,
      decided_by: d.decidedBy,
      decided_at: d.at,
      reason: d.reason,
      decided_with_api_key_id: d.apiKeyId,
      reapply_after: d.reapplyAfter,
      applying: true,
      failed_actions: '[]',
    })
    .where('guild_id', '=', guildId)
    .where('number', '=', number)
    .execute();
}

/** The decision's effects are over: `applying` goes false, with every effect that failed. */
export async function finishSubmissionDecision(db: Db, guildId: string, number: number, failed: FailedSubmissionAction[]): Promise<void> {
  await db
    .updateTable('application_submissions')
    .set({ applying: false, failed_actions: JSON.stringify(failed) })
    .where('guild_id', '=', guildId)
    .where('number', '=', number)
    .execute();
}

export type SubmissionFilter = SubmissionStatus | 'open' | 'decided';

const STATUS_FILTER: Record<SubmissionFilter, SubmissionStatus[]> = {
  pending: ['pending'],
  interview: ['interview'],
  hold: ['hold'],
  accepted: ['accepted'],
  denied: ['denied'],
  withdrawn: ['withdrawn'],
  open: ['pending', 'interview', 'hold'],
  decided: ['accepted', 'denied'],
};

export async function listSubmissions(
  db: Db,
  guildId: string,
  f: { status?: SubmissionFilter; formId?: number; userId?: string; before?: number; limit: number },
): Promise<SubmissionRecord[]> {
  let q = db.selectFrom('application_submissions').selectAll().where('guild_id', '=', guildId);
  if (f.status) q = q.where('status', 'in', STATUS_FILTER[f.status]);
  if (f.formId !== undefined) q = q.where('form_id', '=', f.formId);
  if (f.userId) q = q.where('user_id', '=', f.userId);
  if (f.before !== undefined) q = q.where('number', '<', f.before);
  const rows = await q.orderBy('number', 'desc').limit(f.limit).execute();
  return rows.map(toSubmissionRecord);
}

/** Serialises the submissions of one user in one guild until the caller's transaction ends. */
export async function lockUserSubmissions(trx: Db, guildId: string, userId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`applications/${guildId}/${userId}`}, 0))`.execute(trx);
}

/** The user's submissions to one form, newest first. */
export async function listUserFormSubmissions(db: Db, guildId: string, userId: string, formId: number): Promise<SubmissionRecord[]> {
  const rows = await db
    .selectFrom('application_submissions')
    .selectAll()
    .where('guild_id', '=', guildId)
    .where('user_id', '=', userId)
    .where('form_id', '=', formId)
    .orderBy('number', 'desc')
    .execute();
  return rows.map(toSubmissionRecord);
}

function toSubmissionRecord(row: Selectable<ApplicationSubmissionsTable>): SubmissionRecord {
  return {
    guildId: row.guild_id,
    number: row.number,
    formId: row.form_id,
    formTitle: row.form_title,
    userId: row.user_id,
    status: row.status,
    votesUp: row.votes_up,
    votesDown: row.votes_down,
    answers: row.answers as SubmissionAnswer[],
    applicant: row.applicant as ApplicantSnapshot,
    submittedAt: row.submitted_at,
    decidedAt: row.decided_at,
    decidedBy: row.decided_by,
    reason: row.reason,
    decidedWithApiKeyId: row.decided_with_api_key_id,
    reapplyAfter: row.reapply_after,
    applying: row.applying,
    failedActions: row.failed_actions as FailedSubmissionAction[],
    workflowStartedAt: row.workflow_started_at,
  };
}

/** Records the voter's vote (replacing their earlier one) and recounts the submission's votes. */
export async function castVote(trx: Db, v: { guildId: string; number: number; voterId: string; vote: 'up' | 'down'; at: Date }): Promise<{ up: number; down: number }> {
  await trx
    .insertInto('application_votes')
    .values({ guild_id: v.guildId, submission_number: v.number, voter_id: v.voterId, vote: v.vote, voted_at: v.at })
    .onConflict((oc) => oc.columns(['guild_id', 'submission_number', 'voter_id']).doUpdateSet({ vote: v.vote, voted_at: v.at }))
    .execute();
  const counts = await trx
    .selectFrom('application_votes')
    .select((eb) => [
      eb.fn.countAll<string>().filterWhere('vote', '=', 'up').as('up'),
      eb.fn.countAll<string>().filterWhere('vote', '=', 'down').as('down'),
    ])
    .where('guild_id', '=', v.guildId)
    .where('submission_number', '=', v.number)
    .executeTakeFirstOrThrow();
  const up = Number(counts.up);
  const down = Number(counts.down);
  await trx
    .updateTable('application_submissions')
    .set({ votes_up: up, votes_down: down })
    .where('guild_id', '=', v.guildId)
    .where('number', '=', v.number)
    .execute();
  return { up, down };
}

/** Moves a submission between the states of the bot's review (interview, hold) or to withdrawn. */
export async function setSubmissionStatus(trx: Db, guildId: string, number: number, status: 'interview' | 'hold' | 'withdrawn'): Promise<void> {
  await trx.updateTable('application_submissions').set({ status }).where('guild_id', '=', guildId).where('number', '=', number).execute();
}

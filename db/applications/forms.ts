import { sql, type Kysely, type Selectable } from 'kysely';
import type { ApplicationFormsTable, Database } from '../schema.js';

type Db = Kysely<Database>;

export interface FormQuestion {
  id: string;
  type: string;
  label: string;
  required: boolean;
}

export interface FormRecord {
  id: number;
  guildId: string;
  position: number;
  title: string;
  description: string;
  open: boolean;
  opensAt: Date | null;
  closesAt: Date | null;
  questions: FormQuestion[];
  acceptRoleIds: string[];
  removeRoleIds: string[];
  reapplyCooldownSeconds: number;
  announceChannelId: string | null;
  reviewChannelId: string | null;
  createdAt: Date;
}

export type NewForm = Omit<FormRecord, 'id' | 'position'>;

/** Adds a form at the end of the server's console order. */
export async function insertForm(trx: Db, f: NewForm): Promise<FormRecord> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`application-forms/${f.guildId}`}, 0))`.execute(trx);
  const last = await trx
    .selectFrom('application_forms')
    .select((eb) => eb.fn.max('position').as('max'))
    .where('guild_id', '=', f.guildId)
    .executeTakeFirst();
  const row = await trx
    .insertInto('application_forms')
    .values({
      guild_id: f.guildId,
      position: (last?.max ?? 0) + 1,
      title: f.title,
      description: f.description,
      open: f.open,
      opens_at: f.opensAt,
      closes_at: f.closesAt,
      questions: JSON.stringify(f.questions),
      accept_role_ids: JSON.stringify(f.acceptRoleIds),
      remove_role_ids: JSON.stringify(f.removeRoleIds),
      reapply_cooldown_seconds: f.reapplyCooldownSeconds,
      announce_channel_id: f.announceChannelId,
      review_channel_id: f.reviewChannelId,
      created_at: f.createdAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toFormRecord(row);
}

/** What staff may change on a form after its creation. */
export type FormEdit = Pick<FormRecord, 'title' | 'description' | 'open' | 'questions' | 'acceptRoleIds' | 'removeRoleIds' | 'reviewChannelId'>;

/** Changes a form in place (its id, place and submissions stay); undefined when the server has no such form. */
export async function updateForm(trx: Db, guildId: string, id: number, e: FormEdit): Promise<FormRecord | undefined> {
  const row = await trx
    .updateTable('application_forms')
    .set({
      title: e.title,
      description: e.description,
      open: e.open,
      questions: JSON.stringify(e.questions),
      accept_role_ids: JSON.stringify(e.acceptRoleIds),
      remove_role_ids: JSON.stringify(e.removeRoleIds),
      review_channel_id: e.reviewChannelId,
    })
    .where('guild_id', '=', guildId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row && toFormRecord(row);
}

export async function findForm(db: Db, guildId: string, id: number): Promise<FormRecord | undefined> {
  const row = await db.selectFrom('application_forms').selectAll().where('guild_id', '=', guildId).where('id', '=', id).executeTakeFirst();
  return row && toFormRecord(row);
}

export interface FormWithCounts extends FormRecord {
  total: number;
  openSubmissions: number;
}

/**
 * The server's forms in console order, each with its submission counts (total, and open = pending + interview + hold);
 * `page` gives the forms after a place in that order, at most `limit` (the console's pages).
 */
export async function listFormsWithCounts(db: Db, guildId: string, page?: { after?: number; limit: number }): Promise<FormWithCounts[]> {
  const rows = await db
    .selectFrom('application_forms as f')
    .selectAll('f')
    .select((eb) => [
      eb
        .selectFrom('application_submissions as s')
        .select((e) => e.fn.countAll<string>().as('n'))
        .whereRef('s.guild_id', '=', 'f.guild_id')
        .whereRef('s.form_id', '=', 'f.id')
        .as('total'),
      eb
        .selectFrom('application_submissions as s')
        .select((e) => e.fn.countAll<string>().as('n'))
        .whereRef('s.guild_id', '=', 'f.guild_id')
        .whereRef('s.form_id', '=', 'f.id')
        .where('s.status', 'in', ['pending', 'interview', 'hold'])
        .as('open_submissions'),
    ])
    .where('f.guild_id', '=', guildId)
    .$if(page?.after !== undefined, (q) => q.where('f.position', '>', page!.after!))
    .$if(page !== undefined, (q) => q.limit(page!.limit))
    .orderBy('f.position')
    .orderBy('f.id')
    .execute();
  return rows.map((r) => ({ ...toFormRecord(r), total: Number(r.total ?? 0), openSubmissions: Number(r.open_submissions ?? 0) }));
}

function toFormRecord(row: Selectable<ApplicationFormsTable>): FormRecord {
  return {
    id: row.id,
    guildId: row.guild_id,
    position: row.position,
    title: row.title,
    description: row.description,
    open: row.open,
    opensAt: row.opens_at,
    closesAt: row.closes_at,
    questions: row.questions as FormQuestion[],
    acceptRoleIds: row.accept_role_ids as string[],
    removeRoleIds: row.remove_role_ids as string[],
    reapplyCooldownSeconds: row.reapply_cooldown_seconds,
    announceChannelId: row.announce_channel_id,
    reviewChannelId: row.review_channel_id,
    createdAt: row.created_at,
  };
}

import type { Kysely } from 'kysely';
import { listFormsWithCounts } from '../../db/applications/forms.js';
import { findSubmission, listSubmissions } from '../../db/applications/submissions.js';
import type { Database } from '../../db/schema.js';
import { cursorPage } from '../core/cursorPage.js';
import { applicationNotFound } from '../core/errors.js';
import type { z } from '../core/zod.js';
import { toFormBody, toSubmissionBody, toSubmissionDetailBody } from './applicationViews.js';
import type { SubmissionDetailBody, SubmissionsQuery } from './contract.js';

/** Every form of the server in console order, with submission counts. */
export async function readForms(db: Kysely<Database>, guildId: string) {
  return { items: (await listFormsWithCounts(db, guildId)).map(toFormBody) };
}

/** Submissions, newest first, without answers. */
export async function readSubmissionPage(db: Kysely<Database>, guildId: string, query: z.output<typeof SubmissionsQuery>) {
  const page = await cursorPage(query.limit, (limit) => listSubmissions(db, guildId, { ...query, limit }), (s) => s.number);
  return { ...page, items: page.items.map(toSubmissionBody) };
}

/** A submission with its answers and the state of its decision; refused with APPLICATION_NOT_FOUND. */
export async function readSubmissionDetail(db: Kysely<Database>, guildId: string, number: number): Promise<SubmissionDetailBody> {
  const submission = await findSubmission(db, guildId, number);
  if (!submission) throw applicationNotFound();
  return toSubmissionDetailBody(submission);
}

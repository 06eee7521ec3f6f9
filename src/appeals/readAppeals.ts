import type { Kysely } from 'kysely';
import { findAppeal, listAppeals } from '../../db/appeals/appeals.js';
import type { Database } from '../../db/schema.js';
import { cursorPage } from '../core/cursorPage.js';
import { appealNotFound } from '../core/errors.js';
import type { z } from '../core/zod.js';
import { toAppealBody, toAppealDetailBody } from './appealViews.js';
import type { AppealDetailBody, AppealsQuery } from './contract.js';

/** Ban appeals, newest first. */
export async function readAppealPage(db: Kysely<Database>, guildId: string, query: z.output<typeof AppealsQuery>) {
  const page = await cursorPage(query.limit, (limit) => listAppeals(db, guildId, { ...query, limit }), (a) => a.number);
  return { ...page, items: page.items.map(toAppealBody) };
}

/** An appeal with its answers and conversation (never the staff notes); refused with APPEAL_NOT_FOUND. */
export async function readAppealDetail(db: Kysely<Database>, guildId: string, number: number): Promise<AppealDetailBody> {
  const appeal = await findAppeal(db, guildId, number);
  if (!appeal) throw appealNotFound();
  return toAppealDetailBody(db, appeal);
}

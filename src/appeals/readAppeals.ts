import type { Kysely } from 'kysely';
import { findAppeal, listAppeals, listPublicAppealMessagePage } from '../../db/appeals/appeals.js';
import type { Database } from '../../db/schema.js';
import { cursorPage, latestPage } from '../core/cursorPage.js';
import { appealNotFound } from '../core/errors.js';
import type { z } from '../core/zod.js';
import { toAppealBody, toAppealDetailBody, toAppealFields, toAppealMessageBody } from './appealViews.js';
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

/**
 * For the console: an appeal (the API's detail without the conversation) and one page of its conversation, the
 * latest messages first (latestPage), `before` a message of the page before; refused with APPEAL_NOT_FOUND.
 */
export async function readAppealConversationPage(db: Kysely<Database>, guildId: string, number: number, page: { before?: number; limit: number }) {
  const appeal = await findAppeal(db, guildId, number);
  if (!appeal) throw appealNotFound();
  const messages = await latestPage(page.limit, (limit) => listPublicAppealMessagePage(db, guildId, number, { before: page.before, limit }), (m) => m.id);
  return { appeal: toAppealFields(appeal), messages: messages.items.map(toAppealMessageBody), earlierCursor: messages.nextCursor };
}

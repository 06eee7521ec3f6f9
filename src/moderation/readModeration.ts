import type { Kysely } from 'kysely';
import { findCase, listCaseEventPage, listCaseEvents, listCases } from '../../db/moderation/cases.js';
import type { Database } from '../../db/schema.js';
import { cursorPage, latestPage } from '../core/cursorPage.js';
import { caseNotFound } from '../core/errors.js';
import type { z } from '../core/zod.js';
import { toCaseEventBody, toModCaseBody } from './caseViews.js';
import type { ModCasesQuery } from './contract.js';

/** Cases, newest first, deleted ones left out. */
export async function readCasePage(db: Kysely<Database>, guildId: string, query: z.output<typeof ModCasesQuery>) {
  const page = await cursorPage(query.limit, (limit) => listCases(db, guildId, { ...query, limit }), (c) => c.number);
  return { ...page, items: page.items.map(toModCaseBody) };
}

/** A case with its events, oldest first; unknown and deleted cases are refused with CASE_NOT_FOUND. */
export async function readCaseDetail(db: Kysely<Database>, guildId: string, number: number) {
  const found = await readCase(db, guildId, number);
  const events = await listCaseEvents(db, guildId, found.number);
  return { ...found, events: events.map(toCaseEventBody) };
}

/** A case without its timeline (an appeal's ban case); unknown and deleted cases are refused with CASE_NOT_FOUND. */
export async function readCase(db: Kysely<Database>, guildId: string, number: number) {
  const found = await findCase(db, guildId, number);
  if (!found) throw caseNotFound();
  return toModCaseBody(found);
}

/** For the console: a case and one page of its timeline, the latest events first (latestPage), `before` an event id. */
export async function readCaseTimelinePage(db: Kysely<Database>, guildId: string, number: number, page: { before?: number; limit: number }) {
  const found = await readCase(db, guildId, number);
  const events = await latestPage(page.limit, (limit) => listCaseEventPage(db, guildId, number, { before: page.before, limit }), (e) => e.id);
  return { found, events: events.items.map(({ id: _id, ...e }) => toCaseEventBody(e)), earlierCursor: events.nextCursor };
}

import type { Kysely } from 'kysely';
import { findCase, listCaseEvents, listCases } from '../../db/moderation/cases.js';
import type { Database } from '../../db/schema.js';
import { cursorPage } from '../core/cursorPage.js';
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
  const found = await findCase(db, guildId, number);
  if (!found) throw caseNotFound();
  const events = await listCaseEvents(db, guildId, found.number);
  return { ...toModCaseBody(found), events: events.map(toCaseEventBody) };
}

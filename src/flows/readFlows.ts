import type { Kysely } from 'kysely';
import { listFlowPage, listFlows } from '../../db/flows/flows.js';
import type { Database } from '../../db/schema.js';
import type { FlowBody } from './contract.js';
import { toFlowBody } from './flowViews.js';

/** The server's flows, in id order. */
export async function readFlows(db: Kysely<Database>, guildId: string): Promise<{ items: FlowBody[] }> {
  return { items: (await listFlows(db, guildId)).map(toFlowBody) };
}

/** A page of the server's flows in id order, as readFlows gives them, and the cursor of the next page. */
export async function readFlowPage(db: Kysely<Database>, guildId: string, page: { after?: number; limit: number }): Promise<{ items: FlowBody[]; nextCursor: string | null }> {
  const rows = await listFlowPage(db, guildId, { after: page.after, limit: page.limit + 1 });
  const items = rows.slice(0, page.limit).map(toFlowBody);
  return { items, nextCursor: rows.length > page.limit ? String(items.at(-1)!.id) : null };
}

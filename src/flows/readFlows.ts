import type { Kysely } from 'kysely';
import { listFlows } from '../../db/flows/flows.js';
import type { Database } from '../../db/schema.js';
import type { FlowBody } from './contract.js';
import { toFlowBody } from './flowViews.js';

/** The server's flows, in id order. */
export async function readFlows(db: Kysely<Database>, guildId: string): Promise<{ items: FlowBody[] }> {
  return { items: (await listFlows(db, guildId)).map(toFlowBody) };
}

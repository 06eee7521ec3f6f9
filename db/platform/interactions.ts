import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** Claims the interaction for the caller's transaction; false when it was acted on already (a replayed dispatch). */
export async function claimInteraction(trx: Kysely<Database>, interactionId: string, guildId: string | null, at: Date): Promise<boolean> {
  const inserted = await trx
    .insertInto('handled_interactions')
    .values({ interaction_id: interactionId, guild_id: guildId, handled_at: at })
    .onConflict((oc) => oc.column('interaction_id').doNothing())
    .returning('interaction_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function isInteractionHandled(db: Kysely<Database>, interactionId: string): Promise<boolean> {
  return (await db.selectFrom('handled_interactions').select('interaction_id').where('interaction_id', '=', interactionId).executeTakeFirst()) !== undefined;
}

/** Forgets the interactions handled before `before` (Discord's interaction tokens last 15 minutes); returns how many. */
export async function purgeInteractionsBefore(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db.deleteFrom('handled_interactions').where('handled_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

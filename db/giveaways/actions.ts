import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

export type GiveawayActionType = 'post' | 'edit' | 'announce' | 'dm';

export interface ActionRecord {
  id: number;
  type: GiveawayActionType;
  status: 'queued' | 'done' | 'failed';
  drawNumber: number | null;
  userId: string | null;
  error: string | null;
  queuedAt: Date;
  doneAt: Date | null;
}

export interface ActionRef {
  guildId: string;
  giveawayId: number;
  type: GiveawayActionType;
  drawNumber: number | null;
  userId?: string | null;
}

/** Queues bot actions (in the transaction that makes them due). */
export async function queueActions(trx: Kysely<Database>, refs: ActionRef[], at: Date): Promise<void> {
  if (refs.length === 0) return;
  await trx
    .insertInto('giveaway_actions')
    .values(
      refs.map((r) => ({
        guild_id: r.guildId,
        giveaway_id: r.giveawayId,
        type: r.type,
        status: 'queued' as const,
        draw_number: r.drawNumber,
        user_id: r.userId ?? null,
        error: null,
        queued_at: at,
        done_at: null,
      })),
    )
    .execute();
}

/** Marks the queued action(s) matching `ref` done or failed; a repeat after the first is a no-op. */
export async function finishAction(db: Kysely<Database>, ref: ActionRef, outcome: { error: string | null }, at: Date): Promise<void> {
  let query = db
    .updateTable('giveaway_actions')
    .set({ status: outcome.error === null ? 'done' : 'failed', error: outcome.error, done_at: at })
    .where('guild_id', '=', ref.guildId)
    .where('giveaway_id', '=', ref.giveawayId)
    .where('type', '=', ref.type)
    .where('status', '=', 'queued');
  query = ref.drawNumber === null ? query.where('draw_number', 'is', null) : query.where('draw_number', '=', ref.drawNumber);
  if (ref.userId) query = query.where('user_id', '=', ref.userId);
  await query.execute();
}

/** The latest actions of a giveaway, newest first. */
export async function listLatestActions(db: Kysely<Database>, guildId: string, giveawayId: number, limit: number): Promise<ActionRecord[]> {
  const rows = await db
    .selectFrom('giveaway_actions')
    .selectAll()
    .where('guild_id', '=', guildId)
    .where('giveaway_id', '=', giveawayId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    status: r.status,
    drawNumber: r.draw_number,
    userId: r.user_id,
    error: r.error,
    queuedAt: r.queued_at,
    doneAt: r.done_at,
  }));
}

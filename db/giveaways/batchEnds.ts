import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { GiveawayActionType } from './actions.js';

// The rows of the batch of giveaway ends (src/giveaways/endDueGiveaways.ts), run by the end dispatcher.

export interface GiveawayRef {
  guildId: string;
  giveawayId: number;
}

/**
 * Claims up to `limit` active batch-ended giveaways whose end is due, oldest end first, and closes their entries
 * (no entry slips in while they are drawn; a cancel is refused from then on). SKIP LOCKED passes over a giveaway
 * whose row a manual end or a cancel holds at this moment: the next pass takes it if it is still active.
 */
export async function claimDueGiveaways(db: Kysely<Database>, at: Date, limit: number): Promise<GiveawayRef[]> {
  const { rows } = await sql<{ guild_id: string; id: number }>`
    update giveaways set entries_closed_at = coalesce(entries_closed_at, ${at})
    where (guild_id, id) in (
      select guild_id, id from giveaways
      where status = 'active' and end_by = 'batch' and ends_at <= ${at}
      order by ends_at limit ${limit}
      for update skip locked)
    returning guild_id, id`.execute(db);
  return rows.map((g) => ({ guildId: g.guild_id, giveawayId: g.id }));
}

/** The earliest end of an active batch-ended giveaway (due or not), through the partial index `giveaways_batch_due`. */
export async function earliestBatchEnd(db: Kysely<Database>): Promise<Date | null> {
  const row = await db
    .selectFrom('giveaways')
    .select('ends_at')
    .where('status', '=', 'active')
    .where('end_by', '=', 'batch')
    .orderBy('ends_at')
    .limit(1)
    .executeTakeFirst();
  return row?.ends_at ?? null;
}

export interface QueuedEndAction extends GiveawayRef {
  type: Exclude<GiveawayActionType, 'post'>;
  drawNumber: number;
  userId: string | null;
  queuedAt: Date;
}

/**
 * The queued effects of batch ends (draw 1 of batch-ended giveaways: edit, announcement, DMs), oldest first. A
 * reroll's effects are its workflow's; an action stays here until done or failed, so a crashed pass loses none.
 */
export async function listQueuedEndActions(db: Kysely<Database>, limit: number): Promise<QueuedEndAction[]> {
  const rows = await db
    .selectFrom('giveaway_actions as a')
    .innerJoin('giveaways as g', (j) => j.onRef('g.guild_id', '=', 'a.guild_id').onRef('g.id', '=', 'a.giveaway_id'))
    .select(['a.guild_id', 'a.giveaway_id', 'a.type', 'a.draw_number', 'a.user_id', 'a.queued_at'])
    .where('a.status', '=', 'queued')
    .where('a.draw_number', '=', 1)
    .where('g.end_by', '=', 'batch')
    .orderBy('a.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    guildId: r.guild_id,
    giveawayId: r.giveaway_id,
    type: r.type as QueuedEndAction['type'],
    drawNumber: r.draw_number!,
    userId: r.user_id,
    queuedAt: r.queued_at,
  }));
}

/** Batch-ended giveaways that ended before `endedBefore` (their reroll window passed) and whose workflow was not told yet. */
export async function listUnclosedBatchEnds(db: Kysely<Database>, endedBefore: Date, limit: number): Promise<GiveawayRef[]> {
  const rows = await db
    .selectFrom('giveaways')
    .select(['guild_id', 'id'])
    .where('status', '=', 'ended')
    .where('end_by', '=', 'batch')
    .where('close_notified_at', 'is', null)
    .where('ended_at', '<', endedBefore)
    .orderBy('ended_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ guildId: r.guild_id, giveawayId: r.id }));
}

export async function markCloseNotified(db: Kysely<Database>, g: GiveawayRef, at: Date): Promise<void> {
  await db.updateTable('giveaways').set({ close_notified_at: at }).where('guild_id', '=', g.guildId).where('id', '=', g.giveawayId).execute();
}

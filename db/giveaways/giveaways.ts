import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../schema.js';
import type { GiveawayEndBy, GiveawayStatus, GiveawaysTable } from './tables.js';

export type { GiveawayEndBy, GiveawayStatus };

export interface GiveawayRequirements {
  roleIds: string[];
  roleMode: 'any' | 'all';
  blockedRoleIds: string[];
  minAccountAgeDays: number;
  minMemberDays: number;
  minLevel: number;
  entryCost: number;
  bonusRoles: Array<{ roleId: string; entries: number }>;
}

export interface GiveawayEmbed {
  color: string;
  endedColor: string;
  emoji: string;
  imageUrl: string | null;
  thumbnailUrl: string | null;
}

export interface GiveawayRecord {
  guildId: string;
  id: number;
  status: GiveawayStatus;
  prize: string;
  description: string | null;
  channelId: string;
  messageId: string | null;
  messageUrl: string | null;
  winnersCount: number;
  startsAt: Date;
  endsAt: Date;
  entriesClosedAt: Date | null;
  endedAt: Date | null;
  hostId: string;
  requirements: GiveawayRequirements;
  embed: GiveawayEmbed;
  pingRoleId: string | null;
  dmWinners: boolean;
  seed: string;
  seedHash: string;
  winnerIds: string[];
  createdAt: Date;
  cancelledAt: Date | null;
}

export type NewGiveaway = Omit<GiveawayRecord, 'id' | 'messageId' | 'messageUrl' | 'entriesClosedAt' | 'endedAt' | 'winnerIds' | 'cancelledAt'>;

const toRecord = (r: Selectable<GiveawaysTable>): GiveawayRecord => ({
  guildId: r.guild_id,
  id: r.id,
  status: r.status,
  prize: r.prize,
  description: r.description,
  channelId: r.channel_id,
  messageId: r.message_id,
  messageUrl: r.message_url,
  winnersCount: r.winners_count,
  startsAt: r.starts_at,
  endsAt: r.ends_at,
  entriesClosedAt: r.entries_closed_at,
  endedAt: r.ended_at,
  hostId: r.host_id,
  requirements: r.requirements as GiveawayRequirements,
  embed: r.embed as GiveawayEmbed,
  pingRoleId: r.ping_role_id,
  dmWinners: r.dm_winners,
  seed: r.seed,
  seedHash: r.seed_hash,
  winnerIds: r.winner_ids,
  createdAt: r.created_at,
  cancelledAt: r.cancelled_at,
});

/** Inserts a giveaway numbered per server from 1; the advisory lock keeps two starts from taking one number. */
export async function insertGiveaway(trx: Kysely<Database>, g: NewGiveaway): Promise<GiveawayRecord> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`giveaways:${g.guildId}`}, 0))`.execute(trx);
  const last = await trx
    .selectFrom('giveaways')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('guild_id', '=', g.guildId)
    .executeTakeFirst();
  const row = await trx
    .insertInto('giveaways')
    .values({
      guild_id: g.guildId,
      id: (last?.id ?? 0) + 1,
      status: g.status,
      prize: g.prize,
      description: g.description,
      channel_id: g.channelId,
      winners_count: g.winnersCount,
      starts_at: g.startsAt,
      ends_at: g.endsAt,
      host_id: g.hostId,
      requirements: JSON.stringify(g.requirements),
      embed: JSON.stringify(g.embed),
      ping_role_id: g.pingRoleId,
      dm_winners: g.dmWinners,
      seed: g.seed,
      seed_hash: g.seedHash,
      created_at: g.createdAt,
      message_id: null,
      message_url: null,
      entries_closed_at: null,
      ended_at: null,
      workflow_started_at: null,
      cancelled_at: null,
      cancel_notified_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

export async function findGiveaway(db: Kysely<Database>, guildId: string, id: number): Promise<GiveawayRecord | undefined> {
  const row = await db.selectFrom('giveaways').selectAll().where('guild_id', '=', guildId).where('id', '=', id).executeTakeFirst();
  return row && toRecord(row);
}

/**
 * The giveaway with its row locked: `share` for an entry (entries run side by side, a cancel or the close of
 * entries waits for them), `update` for a change of the giveaway itself.
 */
export async function lockGiveaway(trx: Kysely<Database>, guildId: string, id: number, mode: 'share' | 'update'): Promise<GiveawayRecord | undefined> {
  const query = trx.selectFrom('giveaways').selectAll().where('guild_id', '=', guildId).where('id', '=', id);
  const row = await (mode === 'share' ? query.forShare() : query.forUpdate()).executeTakeFirst();
  return row && toRecord(row);
}

export type GiveawayChange = Partial<{
  status: GiveawayStatus;
  messageId: string;
  messageUrl: string;
  entriesClosedAt: Date;
  endedAt: Date;
  winnerIds: string[];
  cancelledAt: Date;
  endBy: GiveawayEndBy;
}>;

export async function updateGiveaway(trx: Kysely<Database>, guildId: string, id: number, c: GiveawayChange): Promise<void> {
  await trx
    .updateTable('giveaways')
    .set({
      ...(c.status ? { status: c.status } : {}),
      ...(c.messageId ? { message_id: c.messageId } : {}),
      ...(c.messageUrl ? { message_url: c.messageUrl } : {}),
      ...(c.entriesClosedAt ? { entries_closed_at: c.entriesClosedAt } : {}),
      ...(c.endedAt ? { ended_at: c.endedAt } : {}),
      ...(c.winnerIds ? { winner_ids: c.winnerIds } : {}),
      ...(c.cancelledAt ? { cancelled_at: c.cancelledAt } : {}),
      ...(c.endBy ? { end_by: c.endBy } : {}),
    })
    .where('guild_id', '=', guildId)
    .where('id', '=', id)
    .execute();
}

export const OPEN_STATUSES: GiveawayStatus[] = ['scheduled', 'active'];

/**
 * One page of a server's giveaways: running ones (scheduled, active) first by end time, then the others
 * newest first; `status` narrows to one status or `open`.
 */
export async function listGiveaways(
  db: Kysely<Database>,
  guildId: string,
  q: { status?: GiveawayStatus | 'open'; offset: number; limit: number },
): Promise<{ items: GiveawayRecord[]; total: number }> {
  const statuses = q.status === undefined ? undefined : q.status === 'open' ? OPEN_STATUSES : [q.status];
  let base = db.selectFrom('giveaways').where('guild_id', '=', guildId);
  if (statuses) base = base.where('status', 'in', statuses);
  const rows = await base
    .selectAll()
    .orderBy(sql`status in ('scheduled', 'active')`, 'desc')
    .orderBy(sql`case when status in ('scheduled', 'active') then ends_at end`, 'asc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(q.offset)
    .limit(q.limit)
    .execute();
  const { n } = await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return { items: rows.map(toRecord), total: Number(n) };
}

/** Giveaways committed without their workflow started (a crash or outage between commit and start), oldest first. */
export async function listUnstartedGiveaways(db: Kysely<Database>, olderThan: Date, limit: number): Promise<GiveawayRecord[]> {
  const rows = await db
    .selectFrom('giveaways')
    .selectAll()
    .where('workflow_started_at', 'is', null)
    .where('status', 'in', OPEN_STATUSES)
    .where('created_at', '<', olderThan)
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map(toRecord);
}

export async function markGiveawayStarted(db: Kysely<Database>, guildId: string, id: number, at: Date): Promise<void> {
  await db
    .updateTable('giveaways')
    .set({ workflow_started_at: at })
    .where('guild_id', '=', guildId)
    .where('id', '=', id)
    .where('workflow_started_at', 'is', null)
    .execute();
}

/** Cancelled giveaways whose workflow was not told yet, oldest first. */
export async function listUnnotifiedCancels(db: Kysely<Database>, limit: number): Promise<Array<{ guildId: string; id: number }>> {
  const rows = await db
    .selectFrom('giveaways')
    .select(['guild_id', 'id'])
    .where('status', '=', 'cancelled')
    .where('cancel_notified_at', 'is', null)
    .orderBy('cancelled_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ guildId: r.guild_id, id: r.id }));
}

export async function markCancelNotified(db: Kysely<Database>, guildId: string, id: number, at: Date): Promise<void> {
  await db.updateTable('giveaways').set({ cancel_notified_at: at }).where('guild_id', '=', guildId).where('id', '=', id).execute();
}

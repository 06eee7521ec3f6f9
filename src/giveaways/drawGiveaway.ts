import type { Kysely } from 'kysely';
import { queueActions, type ActionRef } from '../../db/giveaways/actions.js';
import { findDraw, insertDraw, listDraws, type DrawRecord } from '../../db/giveaways/draws.js';
import { listAllEntries } from '../../db/giveaways/entries.js';
import { lockGiveaway, updateGiveaway, type GiveawayRecord } from '../../db/giveaways/giveaways.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import type { Platform } from '../core/platform.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { recordEvent } from '../events/outbox.js';
import { DRAW_ALGORITHM, drawWinnersLazily, type Candidate } from './drawRules.js';
import { RerollRefusal } from './giveawayRefusal.js';
import { eligibleAtDraw } from './giveawayRules.js';
import type { DrawActor, DrawOutcome } from './ids.js';
import { planReroll, type RerollAsk, type RerollPlan } from './rerollRules.js';

/** Entrants that can still win this draw: everyone who entered, less `excluded` (earlier winners), with their tickets. */
async function drawableEntrants(db: Kysely<Database>, g: GiveawayRecord, excluded: Set<string>): Promise<Candidate[]> {
  return (await listAllEntries(db, g.guildId, g.id)).filter((e) => !excluded.has(e.userId));
}

/** Checks one batch of entrants with the platform, all at once: still a member and without a blocked role. */
const eligibilityCheck =
  (platform: Platform, g: GiveawayRecord) =>
  (batch: Candidate[]): Promise<boolean[]> =>
    Promise.all(batch.map(async (c) => eligibleAtDraw(g.requirements, await platform.getMember(g.guildId, c.userId))));

function auditActor(a: DrawActor | null): AuditActor {
  if (a?.apiKeyId) return { type: 'api_key', apiKeyId: a.apiKeyId, userId: a.userId };
  if (a?.userId) return a.console ? { type: 'console_user', userId: a.userId } : { type: 'member', userId: a.userId };
  return { type: 'system' };
}

/** The bot actions a stored draw makes due: the message edit, the announcement, a DM per winner when dmWinners. */
function drawActions(g: GiveawayRecord, draw: DrawRecord): ActionRef[] {
  const ref = { guildId: g.guildId, giveawayId: g.id, drawNumber: draw.drawNumber };
  return [
    { ...ref, type: 'edit' },
    { ...ref, type: 'announce' },
    ...(g.dmWinners ? draw.winnerIds.map((userId) => ({ ...ref, type: 'dm' as const, userId })) : []),
  ];
}

const outcomeOf = (draw: DrawRecord): DrawOutcome => ({ status: 'ended', drawNumber: draw.drawNumber, winnerIds: draw.winnerIds });

export interface DrawRequest {
  guildId: string;
  giveawayId: number;
  drawNumber: number;
  /** Reroll only: which winners to replace and how many to draw, resolved against the winners at draw time. */
  reroll?: RerollAsk;
  actor: DrawActor | null;
  at: Date;
}

/**
 * One draw, stored once per (giveaway, draw number): a retry finds the stored draw and returns its winners.
 * The first draw closes entries first (so none slips in while members are checked), then ends the giveaway
 * with `giveaways.ended` in the transaction that stores the draw. A reroll draws among entrants who never won
 * and replaces winners of an ended giveaway only (RerollRefusal GIVEAWAY_NOT_ENDED): the list never grows past
 * the giveaway's `winners` (RerollRefusal TOO_MANY_WINNERS).
 */
export async function runDraw(db: Kysely<Database>, platform: Platform, d: DrawRequest): Promise<{ outcome: DrawOutcome; events: OutboxEvent[] }> {
  const stored = await findDraw(db, d.guildId, d.giveawayId, d.drawNumber);
  if (stored) return { outcome: outcomeOf(stored), events: [] };
  const g = d.reroll ? await rerollable(db, d) : await closeEntries(db, d.guildId, d.giveawayId, d.at);
  if (g.status === 'cancelled') return { outcome: { status: 'cancelled', drawNumber: d.drawNumber, winnerIds: [] }, events: [] };
  const reroll = d.reroll && rerollPlanOf(g, d.reroll);
  const previous = d.reroll ? await listDraws(db, d.guildId, d.giveawayId) : [];
  const excluded = new Set(previous.flatMap((p) => p.winnerIds));
  const entrants = await drawableEntrants(db, g, excluded);
  const requested = reroll ? reroll.count : g.winnersCount;
  // Membership and blocked roles are checked only walking the draw order, until enough winners are found.
  const { winnerIds, checked } = await drawWinnersLazily(g.seed, d.drawNumber, entrants, requested, eligibilityCheck(platform, g));
  const draw: DrawRecord = {
    drawNumber: d.drawNumber,
    kind: reroll ? 'reroll' : 'end',
    requested,
    winnerIds,
    replacedUserIds: reroll?.replaceUserIds ?? [],
    entrants: entrants.length,
    entries: entrants.reduce((sum, c) => sum + c.tickets, 0),
    checkedEntrants: checked,
    shortfall: requested - winnerIds.length,
    algorithm: DRAW_ALGORITHM,
    drawnAt: d.at,
  };
  return db.transaction().execute(async (trx) => {
    const current = (await lockGiveaway(trx, d.guildId, d.giveawayId, 'update'))!;
    if (!(await insertDraw(trx, d.guildId, d.giveawayId, draw))) {
      return { outcome: outcomeOf((await findDraw(trx, d.guildId, d.giveawayId, d.drawNumber))!), events: [] };
    }
    const replaced = new Set(draw.replacedUserIds);
    const winners = d.reroll ? [...current.winnerIds.filter((id) => !replaced.has(id)), ...winnerIds] : winnerIds;
    await updateGiveaway(trx, d.guildId, d.giveawayId, d.reroll ? { winnerIds: winners } : { status: 'ended', endedAt: d.at, winnerIds: winners });
    await queueActions(trx, drawActions(current, draw), d.at);
    await writeAudit(trx, {
      guildId: d.guildId,
      actor: auditActor(d.actor),
      action: d.reroll ? 'giveaways.reroll' : 'giveaways.end',
      target: { type: 'giveaway', id: String(d.giveawayId) },
      ...(d.actor?.requestId ? { requestId: d.actor.requestId } : {}),
      data: { drawNumber: d.drawNumber, winnerIds, replacedUserIds: draw.replacedUserIds, shortfall: draw.shortfall },
    });
    const events = d.reroll ? [] : [await endedEvent(trx, current, winners, draw)];
    return { outcome: outcomeOf(draw), events };
  });
}

/** The first draw's counts are the giveaway's: it excludes nobody, and entries closed before it read them. */
async function endedEvent(trx: Kysely<Database>, g: GiveawayRecord, winnerIds: string[], draw: DrawRecord): Promise<OutboxEvent> {
  const at = draw.drawnAt;
  return recordEvent(trx, {
    type: 'giveaways.ended',
    guildId: g.guildId,
    createdAt: at,
    data: {
      giveawayId: g.id,
      prize: g.prize,
      channelId: g.channelId,
      messageUrl: g.messageUrl,
      winnerIds,
      entrants: draw.entrants,
      entries: draw.entries,
      endedAt: at.toISOString(),
    },
  });
}

function rerollPlanOf(g: GiveawayRecord, ask: RerollAsk): RerollPlan {
  const planned = planReroll(g, ask);
  if ('refusal' in planned) throw new RerollRefusal(planned.refusal.code, planned.refusal.message);
  return planned.plan;
}

/** The giveaway a reroll draws from, which must have ended (a stored reroll draw was returned before this). */
async function rerollable(db: Kysely<Database>, d: DrawRequest): Promise<GiveawayRecord> {
  const g = await db.transaction().execute(async (trx) => (await lockGiveaway(trx, d.guildId, d.giveawayId, 'update'))!);
  if (g.status !== 'ended') throw new RerollRefusal('GIVEAWAY_NOT_ENDED', `Giveaway ${d.giveawayId} is ${g.status}.`);
  return g;
}

/** Closes entries of an active giveaway (the draw is next); returns the giveaway as it then stands. */
export async function closeEntries(db: Kysely<Database>, guildId: string, giveawayId: number, at: Date): Promise<GiveawayRecord> {
  return db.transaction().execute(async (trx) => {
    const g = (await lockGiveaway(trx, guildId, giveawayId, 'update'))!;
    if (g.status !== 'active' || g.entriesClosedAt !== null) return g;
    await updateGiveaway(trx, guildId, giveawayId, { entriesClosedAt: at });
    return { ...g, entriesClosedAt: at };
  });
}

import type { ActionRecord } from '../../db/giveaways/actions.js';
import type { DrawRecord } from '../../db/giveaways/draws.js';
import type { EntryCounts, EntryRecord } from '../../db/giveaways/entries.js';
import type { GiveawayRecord } from '../../db/giveaways/giveaways.js';
import type { GiveawayBody, GiveawayDetailBody, GiveawayDrawBody } from './contract.js';

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

export function toGiveawayBody(g: GiveawayRecord, counts: EntryCounts): GiveawayBody {
  return {
    id: g.id,
    status: g.status,
    prize: g.prize,
    description: g.description,
    channelId: g.channelId,
    messageUrl: g.messageUrl,
    winnersCount: g.winnersCount,
    startsAt: g.startsAt.toISOString(),
    endsAt: g.endsAt.toISOString(),
    endedAt: iso(g.endedAt),
    entrants: counts.entrants,
    entries: counts.entries,
    winnerIds: g.winnerIds,
    hostId: g.hostId,
    requirements: g.requirements,
    pingRoleId: g.pingRoleId,
    dmWinners: g.dmWinners,
    createdAt: g.createdAt.toISOString(),
  };
}

export const toDrawBody = (g: GiveawayRecord, d: DrawRecord): GiveawayDrawBody => ({
  drawNumber: d.drawNumber,
  kind: d.kind,
  drawnAt: d.drawnAt.toISOString(),
  requested: d.requested,
  winnerIds: d.winnerIds,
  replacedUserIds: d.replacedUserIds,
  entrants: d.entrants,
  entries: d.entries,
  checkedEntrants: d.checkedEntrants,
  shortfall: d.shortfall,
  seed: g.seed,
  seedHash: g.seedHash,
  algorithm: d.algorithm,
});

export function toGiveawayDetailBody(g: GiveawayRecord, counts: EntryCounts, draws: DrawRecord[], actions: ActionRecord[]): GiveawayDetailBody {
  return {
    ...toGiveawayBody(g, counts),
    entryCounts: { entrants: counts.entrants, entries: counts.entries, bonusEntries: counts.entries - counts.entrants },
    seedHash: g.seedHash,
    draws: draws.map((d) => toDrawBody(g, d)),
    queuedActions: actions.map((a) => ({
      type: a.type,
      status: a.status,
      drawNumber: a.drawNumber,
      userId: a.userId,
      error: a.error,
      queuedAt: a.queuedAt.toISOString(),
      doneAt: iso(a.doneAt),
    })),
  };
}

export const toEntrantBody = (e: EntryRecord) => ({ userId: e.userId, tickets: e.tickets, entryCost: e.paid, enteredAt: e.enteredAt.toISOString() });

/** `nextPage` of a page-numbered list: the next page while rows remain and it stays within 10,000. */
export const nextPageOf = (page: number, limit: number, total: number): number | null => (page * limit < total && page < 10_000 ? page + 1 : null);

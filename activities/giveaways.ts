import { finishAction, type GiveawayActionType } from '../db/giveaways/actions.js';
import { findDraw } from '../db/giveaways/draws.js';
import { findGiveaway } from '../db/giveaways/giveaways.js';
import { findGuild } from '../db/guild/guilds.js';
import { startFanoutsOrLeaveToRelay } from '../src/events/outbox.js';
import { recordGiveawayPosted } from '../src/giveaways/activateGiveaway.js';
import { runDraw } from '../src/giveaways/drawGiveaway.js';
import { GIVEAWAY_ENTER_LABEL, giveawayEnterButtonId } from '../src/giveaways/giveawayButtons.js';
import { RerollRefusal } from '../src/giveaways/giveawayRefusal.js';
import { activeGiveawayMessage, closedGiveawayMessage, drawAnnouncement, winnerDirectMessage } from '../src/giveaways/giveawayMessages.js';
import type { DrawActor, DrawOutcome, RerollRequest } from '../src/giveaways/ids.js';
import type { ActivityDeps } from './deps.js';
import { refuse } from './refusal.js';

export type GiveawaysActivities = ReturnType<typeof createGiveawaysActivities>;

export function createGiveawaysActivities(deps: ActivityDeps) {
  const { db, platform, clock } = deps;

  async function load(guildId: string, giveawayId: number) {
    const g = await findGiveaway(db, guildId, giveawayId);
    if (!g) throw refuse('GIVEAWAY_NOT_FOUND', `Giveaway ${giveawayId} of guild ${guildId} does not exist.`);
    return g;
  }

  const done = (guildId: string, giveawayId: number, type: GiveawayActionType, drawNumber: number | null, error: string | null, userId?: string) =>
    finishAction(db, { guildId, giveawayId, type, drawNumber, userId: userId ?? null }, { error }, clock.now());

  return {
    /**
     * The start: posts the giveaway message once (idempotency key per giveaway), records its link and makes
     * the giveaway `active`. A giveaway cancelled meanwhile stays cancelled ('cancelled').
     */
    async activateGiveaway(guildId: string, giveawayId: number): Promise<'active' | 'cancelled'> {
      const g = await load(guildId, giveawayId);
      if (g.status === 'cancelled') return 'cancelled';
      if (g.status !== 'scheduled') return 'active';
      const messageId = await platform.postMessage(guildId, g.channelId, activeGiveawayMessage(g), `giveaway-message/${guildId}/${giveawayId}`, {
        buttons: [{ id: giveawayEnterButtonId(giveawayId), label: GIVEAWAY_ENTER_LABEL }],
      });
      return db.transaction().execute((trx) => recordGiveawayPosted(trx, { guildId, giveawayId, channelId: g.channelId, messageId, at: clock.now() }));
    },

    /** The draw at the end (draw 1): entries closed, winners drawn and stored, `giveaways.ended`. */
    async endGiveaway(guildId: string, giveawayId: number, actor: DrawActor | null): Promise<DrawOutcome> {
      const { outcome, events } = await runDraw(db, platform, { guildId, giveawayId, drawNumber: 1, actor, at: clock.now() });
      await startFanoutsOrLeaveToRelay(deps, events);
      return outcome;
    },

    /** A reroll's draw `drawNumber`, among entrants who never won, replacing winners (NOT_A_WINNER, TOO_MANY_WINNERS). */
    async rerollGiveaway(guildId: string, giveawayId: number, drawNumber: number, r: RerollRequest): Promise<DrawOutcome> {
      const g = await load(guildId, giveawayId);
      if (!(await findDraw(db, guildId, giveawayId, drawNumber)) && g.status !== 'ended') {
        throw refuse('GIVEAWAY_NOT_ENDED', `Giveaway ${giveawayId} is ${g.status}.`);
      }
      const reroll = { count: r.count, replaceUserIds: r.replaceUserIds };
      try {
        return (await runDraw(db, platform, { guildId, giveawayId, drawNumber, reroll, actor: r.actor, at: clock.now() })).outcome;
      } catch (err) {
        if (err instanceof RerollRefusal) throw refuse(err.code, err.message);
        throw err;
      }
    },

    /** Edits the giveaway message to its ended or cancelled look; MESSAGE_NOT_FOUND when it is gone. */
    async editGiveawayMessage(guildId: string, giveawayId: number, drawNumber: number | null): Promise<void> {
      const g = await load(guildId, giveawayId);
      if (g.messageId === null) return;
      // The ended or cancelled message takes no more entries: its button goes.
      if (!(await platform.editMessage(guildId, g.channelId, g.messageId, closedGiveawayMessage(g), { buttons: [] }))) {
        throw refuse('MESSAGE_NOT_FOUND', `The message of giveaway ${giveawayId} is gone.`);
      }
      if (drawNumber !== null) await done(guildId, giveawayId, 'edit', drawNumber, null);
    },

    /** Announces a draw's winners in the giveaway's channel, once per draw. */
    async announceDraw(guildId: string, giveawayId: number, drawNumber: number): Promise<void> {
      const g = await load(guildId, giveawayId);
      const draw = (await findDraw(db, guildId, giveawayId, drawNumber))!;
      await platform.postMessage(guildId, g.channelId, drawAnnouncement(g, draw.winnerIds, draw.kind === 'reroll'), `giveaway-announce/${guildId}/${giveawayId}/${drawNumber}`);
      await done(guildId, giveawayId, 'announce', drawNumber, null);
    },

    /** The winners of a draw to DM: all of them when the giveaway DMs winners, else none. */
    async drawWinnersToDm(guildId: string, giveawayId: number, drawNumber: number): Promise<string[]> {
      const g = await load(guildId, giveawayId);
      return g.dmWinners ? ((await findDraw(db, guildId, giveawayId, drawNumber))?.winnerIds ?? []) : [];
    },

    /** DMs one winner of a draw, once; 'failed' (recorded as DM_FAILED) when they do not accept DMs. */
    async dmWinner(guildId: string, giveawayId: number, drawNumber: number, userId: string): Promise<'sent' | 'failed'> {
      const g = await load(guildId, giveawayId);
      const guild = await findGuild(db, guildId);
      const status = await platform.sendDirectMessage(guildId, userId, winnerDirectMessage(g, guild?.name ?? 'the server'), `giveaway-dm/${guildId}/${giveawayId}/${drawNumber}/${userId}`);
      await done(guildId, giveawayId, 'dm', drawNumber, status === 'sent' ? null : 'DM_FAILED', userId);
      return status;
    },

    /** Records a bot action that failed for good (its retries ran out). */
    async failGiveawayAction(guildId: string, giveawayId: number, type: GiveawayActionType, drawNumber: number, error: string, userId?: string): Promise<void> {
      await done(guildId, giveawayId, type, drawNumber, error, userId);
    },
  };
}

import type { Kysely } from 'kysely';
import { finishAction, type GiveawayActionType } from '../db/giveaways/actions.js';
import { findDraw } from '../db/giveaways/draws.js';
import { findGiveaway, type GiveawayRecord } from '../db/giveaways/giveaways.js';
import { findGuild } from '../db/guild/guilds.js';
import type { Database } from '../db/schema.js';
import { closedGiveawayMessage, drawAnnouncement, winnerDirectMessage } from '../src/giveaways/giveawayMessages.js';
import type { ActivityDeps } from './deps.js';
import { refuse } from './refusal.js';

/** The giveaway, or GIVEAWAY_NOT_FOUND. */
export async function loadGiveaway(db: Kysely<Database>, guildId: string, giveawayId: number): Promise<GiveawayRecord> {
  const g = await findGiveaway(db, guildId, giveawayId);
  if (!g) throw refuse('GIVEAWAY_NOT_FOUND', `Giveaway ${giveawayId} of guild ${guildId} does not exist.`);
  return g;
}

/**
 * The bot side of a stored draw, each effect idempotent (an idempotency key per message, its action row finished
 * once): run as activities by a giveaway's workflow for its rerolls and by the batch of ends for its draws.
 */
export function createGiveawayEffects(deps: Pick<ActivityDeps, 'db' | 'platform' | 'clock'>) {
  const { db, platform, clock } = deps;
  const load = (guildId: string, giveawayId: number) => loadGiveaway(db, guildId, giveawayId);

  const done = (guildId: string, giveawayId: number, type: GiveawayActionType, drawNumber: number | null, error: string | null, userId?: string) =>
    finishAction(db, { guildId, giveawayId, type, drawNumber, userId: userId ?? null }, { error }, clock.now());

  return {
    /** Edits the giveaway message to its ended or cancelled look; MESSAGE_NOT_FOUND when it is gone. */
    async editGiveawayMessage(guildId: string, giveawayId: number, drawNumber: number | null): Promise<void> {
      const g = await load(guildId, giveawayId);
      if (g.messageId === null) return;
      // The ended or cancelled message takes no more entries: its button goes.
      const message = closedGiveawayMessage(g);
      if (!(await platform.editMessage(guildId, g.channelId, g.messageId, message.content, { ...message, buttons: [] }))) {
        throw refuse('MESSAGE_NOT_FOUND', `The message of giveaway ${giveawayId} is gone.`);
      }
      if (drawNumber !== null) await done(guildId, giveawayId, 'edit', drawNumber, null);
    },

    /** Announces a draw's winners in the giveaway's channel, once per draw. */
    async announceDraw(guildId: string, giveawayId: number, drawNumber: number): Promise<void> {
      const g = await load(guildId, giveawayId);
      const draw = (await findDraw(db, guildId, giveawayId, drawNumber))!;
      const message = drawAnnouncement(g, draw.winnerIds, draw.kind === 'reroll');
      await platform.postMessage(guildId, g.channelId, message.content, `giveaway-announce/${guildId}/${giveawayId}/${drawNumber}`, message);
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
      const message = winnerDirectMessage(g, guild?.name ?? 'the server');
      const status = await platform.sendDirectMessage(guildId, userId, message.content, `giveaway-dm/${guildId}/${giveawayId}/${drawNumber}/${userId}`, message);
      await done(guildId, giveawayId, 'dm', drawNumber, status === 'sent' ? null : 'DM_FAILED', userId);
      return status;
    },

    /** Records a bot action that failed for good (its retries ran out). */
    async failGiveawayAction(guildId: string, giveawayId: number, type: GiveawayActionType, drawNumber: number, error: string, userId?: string): Promise<void> {
      await done(guildId, giveawayId, type, drawNumber, error, userId);
    },
  };
}

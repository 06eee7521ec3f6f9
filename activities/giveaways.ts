import type { GiveawayRecord } from '../db/giveaways/giveaways.js';
import { startFanoutsOrLeaveToRelay } from '../src/events/outbox.js';
import { recordGiveawayPosted } from '../src/giveaways/activateGiveaway.js';
import { wakeEndDispatcher } from '../src/giveaways/endDispatcher.js';
import { runDraw } from '../src/giveaways/drawGiveaway.js';
import { GIVEAWAY_ENTER_LABEL, giveawayEnterButtonId } from '../src/giveaways/giveawayButtons.js';
import { RerollRefusal } from '../src/giveaways/giveawayRefusal.js';
import { activeGiveawayMessage } from '../src/giveaways/giveawayMessages.js';
import type { DrawActor, DrawOutcome, GiveawayEndState, RerollRequest } from '../src/giveaways/ids.js';
import { countDraws } from '../src/giveaways/readGiveaways.js';
import type { ActivityDeps } from './deps.js';
import { createGiveawayEffects, loadGiveaway } from './giveawayEffects.js';
import { createGiveawayEndsActivities } from './giveawayEnds.js';
import { refuse } from './refusal.js';
import { temporalClockOf } from './temporalClock.js';

export type GiveawaysActivities = ReturnType<typeof createGiveawaysActivities>;

export function createGiveawaysActivities(deps: ActivityDeps) {
  const { db, platform, clock } = deps;
  const load = (guildId: string, giveawayId: number) => loadGiveaway(db, guildId, giveawayId);
  const effects = createGiveawayEffects(deps);

  /** Posts the message once (idempotency key per giveaway) and records it: `active`, or `cancelled` meanwhile. */
  async function post(g: GiveawayRecord, endBy: 'batch' | 'workflow'): Promise<'active' | 'cancelled'> {
    const { guildId, id: giveawayId } = g;
    const message = activeGiveawayMessage(g);
    const messageId = await platform.postMessage(guildId, g.channelId, message.content, `giveaway-message/${guildId}/${giveawayId}`, {
      ...message,
      buttons: [{ id: giveawayEnterButtonId(giveawayId), label: GIVEAWAY_ENTER_LABEL }],
    });
    return db.transaction().execute((trx) => recordGiveawayPosted(trx, { guildId, giveawayId, channelId: g.channelId, messageId, at: clock.now(), endBy }));
  }

  return {
    ...effects,
    ...createGiveawayEndsActivities(deps, effects),

    /**
     * The start: posts the giveaway message once (idempotency key per giveaway), records its link and makes
     * the giveaway `active`. A giveaway cancelled meanwhile stays cancelled ('cancelled'). `endBy` `batch`: the
     * batch ends it at its endsAt, and the end dispatcher is told after the commit (again on a retry, which finds it
     * active), so an end sooner than its timer wakes it; runs from before that patch pass nothing: their timer ends it.
     */
    async activateGiveaway(guildId: string, giveawayId: number, endBy: 'batch' | 'workflow' = 'workflow'): Promise<'active' | 'cancelled'> {
      const onTemporalClock = endBy === 'batch' ? temporalClockOf(clock) : undefined;
      const g = await load(guildId, giveawayId);
      if (g.status === 'cancelled') return 'cancelled';
      const status = g.status === 'scheduled' ? await post(g, endBy) : 'active';
      if (status === 'active' && onTemporalClock) {
        await wakeEndDispatcher(deps.temporal, { inMs: g.endsAt.getTime() - clock.now().getTime(), at: onTemporalClock(g.endsAt) });
      }
      return status;
    },

    /** The draw at the end (draw 1): entries closed, winners drawn and stored, `giveaways.ended`. */
    async endGiveaway(guildId: string, giveawayId: number, actor: DrawActor | null): Promise<DrawOutcome> {
      const { outcome, events } = await runDraw(db, platform, { guildId, giveawayId, drawNumber: 1, actor, at: clock.now() });
      await startFanoutsOrLeaveToRelay(deps, events);
      return outcome;
    },

    /** Where a batch-ended giveaway stands in the database, which its workflow learns only when it needs to. */
    async giveawayEndState(guildId: string, giveawayId: number): Promise<GiveawayEndState> {
      const g = await load(guildId, giveawayId);
      return { status: g.status, draws: await countDraws(db, guildId, giveawayId) };
    },

    /** A reroll's draw `drawNumber`, among entrants who never won, replacing winners (GIVEAWAY_NOT_ENDED, NOT_A_WINNER, TOO_MANY_WINNERS). */
    async rerollGiveaway(guildId: string, giveawayId: number, drawNumber: number, r: RerollRequest): Promise<DrawOutcome> {
      await load(guildId, giveawayId); // GIVEAWAY_NOT_FOUND; the draw refuses the rest
      const reroll = { count: r.count, replaceUserIds: r.replaceUserIds };
      try {
        return (await runDraw(db, platform, { guildId, giveawayId, drawNumber, reroll, actor: r.actor, at: clock.now() })).outcome;
      } catch (err) {
        if (err instanceof RerollRefusal) throw refuse(err.code, err.message);
        throw err;
      }
    },

  };
}

import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { QueuedEndAction } from '../db/giveaways/batchEnds.js';
import { OPERATION_GAVE_UP } from '../src/core/errorCodes.js';
import { applyQueuedEndActions, drawDueGiveaways, END_BATCH_LIMITS, nextEndPlan } from '../src/giveaways/endDueGiveaways.js';
import type { EndBatchResult } from '../src/giveaways/ids.js';
import type { ActivityDeps } from './deps.js';
import type { createGiveawayEffects } from './giveawayEffects.js';
import { temporalClockOf } from './temporalClock.js';

/** An effect the platform keeps failing (not refusing) is retried by each pass this long, then recorded as failed. */
const END_EFFECT_RETRY_MS = 10 * 60_000;

/** An end this close after a pass's last round is waited for by that pass. */
const NEAR_END_MS = 1_000;

/** The batch of giveaway ends (workflows/giveawayEndDispatcher.ts): what a per-giveaway timer did, for all at once. */
export function createGiveawayEndsActivities(deps: ActivityDeps, effects: ReturnType<typeof createGiveawayEffects>) {
  const { clock, logger } = deps;

  /**
   * One effect of a batch end; a refusal (message gone, DMs closed) is recorded, an outage left for the next pass.
   * True once the action is finished (done or recorded as failed).
   */
  async function applyEndAction(a: QueuedEndAction): Promise<boolean> {
    try {
      if (a.type === 'edit') await effects.editGiveawayMessage(a.guildId, a.giveawayId, a.drawNumber);
      else if (a.type === 'announce') await effects.announceDraw(a.guildId, a.giveawayId, a.drawNumber);
      else await effects.dmWinner(a.guildId, a.giveawayId, a.drawNumber, a.userId!);
    } catch (err) {
      const refusal = err instanceof ApplicationFailure && err.nonRetryable ? err.type : undefined;
      if (!refusal && clock.now().getTime() - a.queuedAt.getTime() < END_EFFECT_RETRY_MS) {
        logger.warn({ err, giveawayId: a.giveawayId, type: a.type }, 'giveaway end effect failed; the next pass retries it');
        return false;
      }
      await effects.failGiveawayAction(a.guildId, a.giveawayId, a.type, a.drawNumber, refusal ?? OPERATION_GAVE_UP, a.userId ?? undefined);
    }
    return true;
  }

  /** Rounds of draws, each followed by the queued effects, while a round finds a full batch due. */
  async function drawAndApplyDue(heartbeat: () => void): Promise<{ drawn: number; effects: number; applied: number }> {
    const done = { drawn: 0, effects: 0, applied: 0 };
    for (;;) {
      const round = await drawDueGiveaways(deps, END_BATCH_LIMITS, heartbeat);
      done.drawn += round.drawn;
      // Each round's effects before the next round's draws: an end is complete once its post is edited, and with
      // thousands due at once, effects applied only after every draw waited for the whole backlog (10,000 ends:
      // not one post edited within the bench's 7 minutes, docs/performance.md).
      const applying = await applyQueuedEndActions(deps.db, applyEndAction, END_BATCH_LIMITS, heartbeat);
      done.effects += applying.tried;
      done.applied += applying.applied;
      // A full round may have left more due; one that drew nothing (the platform down) waits for the next pass.
      if (round.claimed < END_BATCH_LIMITS.giveaways || round.drawn === 0) return done;
    }
  }

  return {
    /**
     * Draws every batch-ended giveaway that is due in rounds (while a round finds a full batch), applying the queued
     * effects of batch ends after each round. Idempotent: a retry or the next pass finds the stored draws and
     * finished actions. Heartbeats after each giveaway drawn or applied (the SDK throttles them), so a pass whose
     * worker died is noticed at the heartbeat timeout (END_DISPATCH_PASS). An end that comes within NEAR_END_MS is
     * waited for here rather than by another pass (ends a few milliseconds apart, and a pass planned on Temporal's
     * clock, which may start a little early). Ends with the plan of the next pass (nextEndPlan), which the dispatcher
     * sleeps on; the retired schedule's runs ignore it.
     */
    async endDueGiveaways(): Promise<EndBatchResult> {
      const context = Context.current();
      const onTemporalClock = temporalClockOf(clock);
      const heartbeat = () => context.heartbeat();
      const done = { drawn: 0, effects: 0, applied: 0 };
      let waited = false;
      for (;;) {
        const rounds = await drawAndApplyDue(heartbeat);
        done.drawn += rounds.drawn;
        done.effects += rounds.effects;
        done.applied += rounds.applied;
        const now = clock.now();
        const plan = await nextEndPlan(deps.db, now);
        // Not again after a wait that drew nothing: the clock may stand still (a test's) or the draw fail.
        const stuck = waited && rounds.drawn === 0;
        if (plan.left || plan.nextEndInMs === null || plan.nextEndInMs > NEAR_END_MS || stuck) {
          const nextEndAt = plan.nextEndInMs === null ? null : onTemporalClock(new Date(now.getTime() + plan.nextEndInMs));
          return { ...done, ...plan, nextEndAt };
        }
        waited = true;
        await context.sleep(plan.nextEndInMs);
        heartbeat();
      }
    },
  };
}

import { dropRankSnapshot, listLargeLevelGuilds, listSnapshotGuilds, refreshRankSnapshot } from '../db/levels/ranks.js';
import { findXpChange, finishXpChange, markXpChangeProcessing, type XpChangeResult } from '../db/levels/xpChanges.js';
import { applyPendingXpChange } from '../src/levels/applyPendingXpChange.js';
import { announceLevelUp, applyLevelMoveEffects, syncRewardRoles } from '../src/levels/levelUpEffects.js';
import { applyLevelUpEffects } from '../src/levels/applyLevelUpEffects.js';
import type { LevelEffectRefusal } from '../db/levels/levelUpEffects.js';
import { startFanoutsOrLeaveToRelay } from '../src/events/outbox.js';
import { RANK_SNAPSHOT_THRESHOLD } from '../src/levels/leaderboard.js';
import { findHumanMember, type HumanMemberRefusal } from '../src/core/members.js';
import type { ActivityDeps } from './deps.js';
import { requireFeature } from './featureCheck.js';
import { refuse } from './refusal.js';

export type LevelsActivities = ReturnType<typeof createLevelsActivities>;

const TARGET_REFUSALS: Record<HumanMemberRefusal, string> = {
  MEMBER_NOT_FOUND: 'The user is no longer a member.',
  BOT_ACCOUNT: 'The target is a bot account.',
};

export function createLevelsActivities(deps: ActivityDeps) {
  const { db, platform, clock } = deps;
  /** Refuses the change if its target or feature went away since it was accepted. */
  async function checkXpTarget(guildId: string, userId: string): Promise<void> {
    await requireFeature(db, guildId, 'levels');
    const target = await findHumanMember(platform, guildId, userId);
    if ('refusal' in target) throw refuse(target.refusal, TARGET_REFUSALS[target.refusal]);
  }
  const notFound = (changeId: string) => refuse('XP_CHANGE_NOT_FOUND', `XP change ${changeId} does not exist.`);

  return {
    /** Marks the change processing, refusing it if its target or feature went away since it was accepted. */
    async beginXpChange(changeId: string, guildId: string, userId: string): Promise<void> {
      await markXpChangeProcessing(db, changeId);
      await checkXpTarget(guildId, userId);
    },

    /** Applies the change in one transaction (see applyPendingXpChange), then starts its event's fan-out. */
    async applyXpChange(changeId: string): Promise<XpChangeResult> {
      const applied = await db.transaction().execute((trx) => applyPendingXpChange(trx, changeId, clock.now()));
      if (!applied) throw notFound(changeId);
      await startFanoutsOrLeaveToRelay(deps, applied.events);
      return applied.result;
    },

    /**
     * The whole change in one step (workflow patch `xp-change-one-step`): checked like beginXpChange, applied like
     * applyXpChange and, when its level did not move (nothing left to do), recorded done in the same transaction.
     * `finished` false leaves it processing for its reward roles and announcement. A retry after the commit finds
     * it applied and skips the checks: a target who left since then does not undo an applied change.
     */
    async runXpChange(changeId: string, guildId: string, userId: string): Promise<{ result: XpChangeResult; finished: boolean }> {
      const change = await findXpChange(db, changeId);
      if (!change) throw notFound(changeId);
      if (!change.result) await checkXpTarget(guildId, userId);
      const applied = await db.transaction().execute(async (trx) => {
        const applied = await applyPendingXpChange(trx, changeId, clock.now());
        const finished = applied !== undefined && applied.result.level === applied.result.previousLevel;
        if (finished) await finishXpChange(trx, changeId, { status: 'done', result: applied.result }, clock.now());
        return applied && { ...applied, finished };
      });
      if (!applied) throw notFound(changeId);
      await startFanoutsOrLeaveToRelay(deps, applied.events);
      return { result: applied.result, finished: applied.finished };
    },

    /**
     * A level move's platform effects in one activity (patch `xp-change-one-step`): applyLevelMoveEffects, the
     * change id keying the announcement. Refusals are returned; an outage fails the activity, whose retry repeats both.
     */
    levelMoveEffects: (change: { changeId: string; guildId: string; userId: string } & XpChangeResult): Promise<{ refused: LevelEffectRefusal[] }> =>
      applyLevelMoveEffects(db, platform, { ...change, idempotencyKey: `level-up/${change.changeId}` }),

    /** The recorded effects of a level reached from activity, applied once (workflow `levelUpEffects`). */
    applyLevelUpEffects: (eventId: string): Promise<{ refused: LevelEffectRefusal[] }> => applyLevelUpEffects(db, platform, eventId, clock.now()),

    /** Makes the member hold exactly the reward roles of their level; repeating it changes nothing. */
    syncRewardRoles: (guildId: string, userId: string, level: number) => syncRewardRoles(db, platform, guildId, userId, level),

    /** Posts the level-up line once: the change id is the post's idempotency key. */
    announceLevelUp: (changeId: string, guildId: string, userId: string, level: number) =>
      announceLevelUp(db, platform, { guildId, userId, level, idempotencyKey: `level-up/${changeId}` }),

    async finishXpChange(
      changeId: string,
      outcome: { status: 'done'; result: XpChangeResult } | { status: 'failed'; error: string },
    ): Promise<void> {
      await finishXpChange(db, changeId, outcome, clock.now());
    },

    /** Recomputes the rank snapshot of every large server and drops those of servers that shrank. */
    async refreshLevelRankSnapshots(): Promise<{ refreshed: number; dropped: number }> {
      const large = new Set(await listLargeLevelGuilds(db, RANK_SNAPSHOT_THRESHOLD));
      for (const guildId of large) await refreshRankSnapshot(db, guildId, clock.now());
      const shrunk = (await listSnapshotGuilds(db)).filter((id) => !large.has(id));
      for (const guildId of shrunk) await dropRankSnapshot(db, guildId);
      return { refreshed: large.size, dropped: shrunk.length };
    },
  };
}

import { ApplicationFailure } from '@temporalio/common';
import { writeAudit } from '../db/shared/audit.js';
import { insertEvent } from '../db/shared/events.js';
import { findGuild } from '../db/guild/guilds.js';
import { findLevelSettings, listLevelRewards, lockXp, setXp } from '../db/levels/members.js';
import { finishXpChange, markXpChangeProcessing, type XpChangeResult } from '../db/levels/xpChanges.js';
import { planRewardRoles } from '../src/levels/rewardRoles.js';
import { applyXpChange, levelFromXp } from '../src/levels/curve.js';
import type { OutboxEvent } from '../src/events/eventTypes.js';
import { startFanouts } from '../src/events/outboxRelay.js';
import { levelUpMessage } from '../src/levels/levelUpMessage.js';
import type { ActivityDeps } from './deps.js';

const refuse = (code: string, message: string) => ApplicationFailure.nonRetryable(message, code);

export function createLevelsActivities(deps: ActivityDeps) {
  const { db, platform, clock } = deps;
  return {
    /** Marks the change processing, refusing it if its target or feature went away since it was accepted. */
    async beginXpChange(changeId: string, guildId: string, userId: string): Promise<void> {
      await markXpChangeProcessing(db, changeId);
      const guild = await findGuild(db, guildId);
      if (!guild?.features.includes('levels')) throw refuse('FEATURE_DISABLED', 'The Levels feature is disabled.');
      const member = await platform.getMember(guildId, userId);
      if (!member) throw refuse('MEMBER_NOT_FOUND', 'The user is no longer a member.');
      if (member.bot) throw refuse('BOT_ACCOUNT', 'The target is a bot account.');
    },

    /**
     * Applies the change with its audit row and level-up event in one transaction. The stored result
     * marks it applied: a retry after a commit whose answer was lost returns that result instead.
     */
    async applyXpChange(changeId: string): Promise<XpChangeResult> {
      const events: OutboxEvent[] = [];
      const result = await db.transaction().execute(async (trx) => {
        const change = await trx.selectFrom('xp_changes').selectAll().where('change_id', '=', changeId).forUpdate().executeTakeFirst();
        if (!change) throw refuse('XP_CHANGE_NOT_FOUND', `XP change ${changeId} does not exist.`);
        if (change.result) return change.result as XpChangeResult;
        const at = clock.now();
        const previousXp = await lockXp(trx, change.guild_id, change.user_id);
        const xp = applyXpChange(previousXp, change);
        const outcome = { previousLevel: levelFromXp(previousXp).level, level: levelFromXp(xp).level, xp };
        await setXp(trx, change.guild_id, change.user_id, xp, at);
        await trx
          .updateTable('xp_changes')
          .set({ status: 'processing', result: JSON.stringify(outcome) })
          .where('change_id', '=', changeId)
          .execute();
        await writeAudit(trx, {
          guildId: change.guild_id,
          actor: { type: 'api_key', apiKeyId: change.api_key_id, userId: null },
          action: 'levels.xpChange',
          target: { type: 'member', id: change.user_id },
          data: { changeId, type: change.type, unit: change.unit, amount: change.amount, reason: change.reason, ...outcome },
        });
        if (outcome.level > outcome.previousLevel) {
          events.push(
            await insertEvent(trx, {
              type: 'levels.levelUp',
              guildId: change.guild_id,
              createdAt: at,
              data: { userId: change.user_id, level: outcome.level, previousLevel: outcome.previousLevel, source: 'admin' },
            }),
          );
        }
        return outcome;
      });
      if (events.length > 0) {
        await startFanouts(deps, events).catch((err: unknown) => deps.logger.warn({ err }, 'fan-out start failed; the relay retries it'));
      }
      return result;
    },

    /** Makes the member hold exactly the reward roles of their level; repeating it changes nothing. */
    async syncRewardRoles(guildId: string, userId: string, level: number): Promise<{ added: string[]; removed: string[] }> {
      const [rewards, settings] = await Promise.all([listLevelRewards(db, guildId), findLevelSettings(db, guildId)]);
      const plan = planRewardRoles(rewards, level, settings.removePreviousRewards);
      const reason = `Level ${level} rewards`;
      const added: string[] = [];
      const removed: string[] = [];
      for (const roleId of plan.add) if (await platform.changeRole(guildId, userId, roleId, 'add', reason)) added.push(roleId);
      for (const roleId of plan.remove) if (await platform.changeRole(guildId, userId, roleId, 'remove', reason)) removed.push(roleId);
      return { added, removed };
    },

    /** Posts the level-up line once: the change id is the post's idempotency key. */
    async announceLevelUp(changeId: string, guildId: string, userId: string, level: number): Promise<boolean> {
      const settings = await findLevelSettings(db, guildId);
      if (!settings.announceChannelId) return false;
      const content = levelUpMessage(settings.announceTemplate, userId, level);
      await platform.postMessage(guildId, settings.announceChannelId, content, `level-up/${changeId}`);
      return true;
    },

    async finishXpChange(
      changeId: string,
      outcome: { status: 'done'; result: XpChangeResult } | { status: 'failed'; error: string },
    ): Promise<void> {
      await finishXpChange(db, changeId, outcome, clock.now());
    },
  };
}

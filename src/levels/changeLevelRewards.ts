import type { Kysely } from 'kysely';
import { addLevelReward, listLevelRewards, lockLevelSettings, removeLevelReward, type LevelReward } from '../../db/levels/members.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import type { Platform } from '../core/platform.js';
import { LEVEL_LIMITS, LevelSettingsRefusal } from './levelRules.js';

export interface LevelRewardChange {
  guildId: string;
  /** A role given at a level (a role of the server the bot can give, not yet a reward), or one taken off the list. */
  change: { add: LevelReward } | { remove: LevelReward };
  actor: AuditActor;
}

async function checkAdd(platform: Platform, guildId: string, rewards: LevelReward[], reward: LevelReward): Promise<void> {
  const { min, max } = LEVEL_LIMITS.rewardLevel;
  if (!Number.isSafeInteger(reward.level) || reward.level < min || reward.level > max) {
    throw new LevelSettingsRefusal('INVALID_LEVEL', `The level is a whole number from ${min} to ${max}.`, 'rewardLevel');
  }
  const role = (await platform.listRoles(guildId)).find((r) => r.id === reward.roleId);
  if (!role || role.managed || role.id === guildId) throw new LevelSettingsRefusal('INVALID_ROLE', `${reward.roleId} is not a role of the server the bot can give.`, 'rewardRole');
  const held = rewards.find((r) => r.roleId === reward.roleId);
  if (held) throw new LevelSettingsRefusal('REWARD_EXISTS', `That role is already the reward of level ${held.level}.`, 'rewardRole');
  if (rewards.length >= LEVEL_LIMITS.rewards) throw new LevelSettingsRefusal('TOO_MANY_REWARDS', `A server has at most ${LEVEL_LIMITS.rewards} reward roles.`, 'rewardRole');
}

/**
 * Adds a reward role at a level, or takes one off, in the caller's transaction (the settings row locked, so the limit
 * holds with two managers at once), with a `levels.reward` audit row. Members get the new list at their next level
 * move (levelUpEffects.ts syncRewardRoles); a reward taken off is no longer given, and members who hold it keep it.
 * Whether rewards stack or replace each other is a setting (changeLevelSettings `removePreviousRewards`).
 */
export async function changeLevelRewards(trx: Kysely<Database>, platform: Platform, c: LevelRewardChange): Promise<LevelReward[]> {
  await lockLevelSettings(trx, c.guildId);
  const rewards = await listLevelRewards(trx, c.guildId);
  if ('add' in c.change) {
    await checkAdd(platform, c.guildId, rewards, c.change.add);
    await addLevelReward(trx, c.guildId, c.change.add);
  } else if (!(await removeLevelReward(trx, c.guildId, c.change.remove))) {
    throw new LevelSettingsRefusal('REWARD_NOT_FOUND', `Level ${c.change.remove.level} has no such reward role.`, 'rewardRole');
  }
  const verb = 'add' in c.change ? 'add' : 'remove';
  const reward = 'add' in c.change ? c.change.add : c.change.remove;
  await writeAudit(trx, { guildId: c.guildId, actor: c.actor, action: 'levels.reward', data: { [verb]: reward } });
  return listLevelRewards(trx, c.guildId);
}

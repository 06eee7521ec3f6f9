import type { Kysely } from 'kysely';
import { findLevelSettings, listLevelRewards } from '../../db/levels/members.js';
import type { Database } from '../../db/schema.js';
import type { Platform } from '../core/platform.js';
import { levelUpMessage } from './levelUpMessage.js';
import { planRewardRoles } from './rewardRoles.js';

type Db = Kysely<Database>;

/** Makes the member hold exactly the reward roles of their level; a set operation, so repeating it changes nothing. */
export async function syncRewardRoles(
  db: Db,
  platform: Platform,
  guildId: string,
  userId: string,
  level: number,
): Promise<{ added: string[]; removed: string[] }> {
  const [rewards, settings] = await Promise.all([listLevelRewards(db, guildId), findLevelSettings(db, guildId)]);
  const plan = planRewardRoles(rewards, level, settings.removePreviousRewards);
  const reason = `Level ${level} rewards`;
  const added: string[] = [];
  const removed: string[] = [];
  for (const roleId of plan.add) if (await platform.changeRole(guildId, userId, roleId, 'add', reason)) added.push(roleId);
  for (const roleId of plan.remove) if (await platform.changeRole(guildId, userId, roleId, 'remove', reason)) removed.push(roleId);
  return { added, removed };
}

/** Posts the level-up line in the server's announcement channel, once per idempotency key; false without a channel. */
export async function announceLevelUp(
  db: Db,
  platform: Platform,
  a: { guildId: string; userId: string; level: number; idempotencyKey: string },
): Promise<boolean> {
  const settings = await findLevelSettings(db, a.guildId);
  if (!settings.announceChannelId) return false;
  await platform.postMessage(a.guildId, settings.announceChannelId, levelUpMessage(settings.announceTemplate, a.userId, a.level), a.idempotencyKey);
  return true;
}

/** What a level change does on the platform, as the XP change workflow does it in two steps. */
export async function applyLevelEffects(
  db: Db,
  platform: Platform,
  c: { guildId: string; userId: string; previousLevel: number; level: number; idempotencyKey: string },
): Promise<{ rolesAdded: string[]; rolesRemoved: string[]; announced: boolean }> {
  if (c.level === c.previousLevel) return { rolesAdded: [], rolesRemoved: [], announced: false };
  const { added, removed } = await syncRewardRoles(db, platform, c.guildId, c.userId, c.level);
  const announced = c.level > c.previousLevel && (await announceLevelUp(db, platform, c));
  return { rolesAdded: added, rolesRemoved: removed, announced };
}

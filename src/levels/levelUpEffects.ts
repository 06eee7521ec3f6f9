import type { Kysely } from 'kysely';
import { findLevelSettings, listLevelRewards } from '../../db/levels/members.js';
import type { Database } from '../../db/schema.js';
import type { LevelEffectRefusal } from '../../db/levels/levelUpEffects.js';
import { PlatformConfigurationError, PlatformRefusedError, type Platform } from '../core/platform.js';
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

/**
 * Announces a level reached where the server's settings say, once per idempotency key: its announcement channel,
 * the channel the member wrote in (`channelId`; none for a staff change, so nothing then), their DMs, or nowhere.
 * False when nothing was announced (off, no place to post, DMs closed).
 */
export async function announceLevelUp(
  db: Db,
  platform: Platform,
  a: { guildId: string; userId: string; level: number; idempotencyKey: string; channelId?: string | null },
): Promise<boolean> {
  const settings = await findLevelSettings(db, a.guildId);
  const { announceTo } = settings;
  if (announceTo === 'dm') {
    const message = levelUpMessage(settings.announceTemplate, { userId: a.userId, level: a.level, direct: true });
    return (await platform.sendDirectMessage(a.guildId, a.userId, message.content, a.idempotencyKey, message)) === 'sent';
  }
  const channelId = announceTo === 'channel' ? settings.announceChannelId : announceTo === 'current' ? (a.channelId ?? null) : null;
  if (!channelId) return false;
  const message = levelUpMessage(settings.announceTemplate, { userId: a.userId, level: a.level, direct: false });
  await platform.postMessage(a.guildId, channelId, message.content, a.idempotencyKey, message);
  return true;
}

/** A platform refusal's code (a missing permission, refused credentials: no retry changes it); undefined for anything else. */
function refusalCode(err: unknown): string | undefined {
  return err instanceof PlatformRefusedError || err instanceof PlatformConfigurationError ? err.code : undefined;
}

/**
 * What a level move does on the platform, the one composition of the XP change workflow and of level-ups from
 * activity: the reward roles of the new level, then the announcement of a level reached. A refusal of one is
 * returned with its code (the XP stands, the other effect still happens); an outage throws, and a retry repeats
 * both, each idempotent (a set operation; a post keyed by `idempotencyKey`).
 */
export async function applyLevelMoveEffects(
  db: Db,
  platform: Platform,
  move: { guildId: string; userId: string; previousLevel: number; level: number; idempotencyKey: string; channelId?: string | null },
): Promise<{ refused: LevelEffectRefusal[] }> {
  const refused: LevelEffectRefusal[] = [];
  const attempt = async (effect: LevelEffectRefusal['effect'], run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (err) {
      const error = refusalCode(err);
      if (error === undefined) throw err;
      refused.push({ effect, error });
    }
  };
  await attempt('rewardRoles', () => syncRewardRoles(db, platform, move.guildId, move.userId, move.level));
  if (move.level > move.previousLevel) await attempt('announcement', () => announceLevelUp(db, platform, move));
  return { refused };
}

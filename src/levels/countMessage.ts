import type { Kysely } from 'kysely';
import type { GuildRecord } from '../../db/guild/guilds.js';
import { claimCountedMessages, lockActivityMembers } from '../../db/levels/activityBatch.js';
import type { LevelUpEffectRef } from '../../db/levels/levelUpEffects.js';
import { findLevelSettings, type LevelSettings } from '../../db/levels/members.js';
import type { Database } from '../../db/schema.js';
import { addActivities } from './recordActivity.js';

export interface CountedMessage {
  /** A human member (the bot leaves out bots, webhooks and Discord's system messages). */
  userId: string;
  /** The platform's message id: a message delivered twice is counted once. */
  messageId: string;
  /** When the message was written (the platform's time, so a message handled late counts as when it was sent). */
  at: Date;
  /** Where it was written: a level it reaches is recorded with it, to be announced there (level settings `current`). */
  channelId?: string;
  /** The author's roles in the server (the dispatch's `member`): a no-XP role makes the message earn nothing. */
  roleIds?: readonly string[];
}

/** A message the server's settings leave out: written in a no-XP channel, or by a member holding a no-XP role. */
const earnsNothing = (m: CountedMessage, s: LevelSettings) =>
  (m.channelId !== undefined && s.noXpChannelIds.includes(m.channelId)) || (m.roleIds ?? []).some((r) => s.noXpRoleIds.includes(r));

/**
 * Messages members wrote in one server, in order, in the caller's transaction; nothing where Levels is off, and
 * nothing for a message in a no-XP channel or by a member with a no-XP role (not even counted). Each other one
 * is counted once per message id, and earns one message of activity (recordActivity's counters, XP, audit row,
 * `levels.levelUp` with source `activity` and its effects recorded pending, as `simulate level-activity
 * --messages 1`) only when the server's message cooldown (its levels settings) passed since the member's last
 * XP-earning message, at the server's XP per message. Returns how many earned XP and the levels reached.
 */
export async function countMessages(
  trx: Kysely<Database>,
  guild: GuildRecord,
  messages: CountedMessage[],
  at: Date,
): Promise<{ earned: number; levelUps: LevelUpEffectRef[] }> {
  if (!guild.features.includes('levels') || messages.length === 0) return { earned: 0, levelUps: [] };
  const guildId = guild.id;
  // One read of the server's settings row per batch, as the cooldown always took.
  const settings = await findLevelSettings(trx, guildId);
  const counting = messages.filter((m) => !earnsNothing(m, settings));
  if (counting.length === 0) return { earned: 0, levelUps: [] };
  const claimed = await claimCountedMessages(trx, guildId, counting.map((m) => m.messageId), at);
  const fresh = counting.filter((m) => claimed.has(m.messageId));
  if (fresh.length === 0) return { earned: 0, levelUps: [] };
  const { messageCooldownSeconds } = settings;
  const locked = await lockActivityMembers(trx, guildId, fresh.map((m) => m.userId));
  const cooldownStart = new Map([...locked].map(([userId, m]) => [userId, m.lastMessageXpAt]));
  const earning = fresh.filter((m) => {
    const last = cooldownStart.get(m.userId);
    if (last && m.at.getTime() - last.getTime() < messageCooldownSeconds * 1000) return false;
    cooldownStart.set(m.userId, m.at);
    return true;
  });
  const { levelUps } = await addActivities(
    trx,
    guildId,
    earning.map((m) => ({ guildId, userId: m.userId, messages: 1, voiceMinutes: 0, at: m.at, actor: { type: 'system' as const }, startsCooldown: true, channelId: m.channelId ?? null })),
    locked,
    settings,
  );
  return { earned: earning.length, levelUps };
}

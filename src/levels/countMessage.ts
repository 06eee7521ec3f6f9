import type { Kysely } from 'kysely';
import { claimCountedMessages, lockActivityMembers } from '../../db/levels/activityBatch.js';
import type { Database } from '../../db/schema.js';
import { recordActivities } from './recordActivity.js';

export interface CountedMessage {
  /** A human member (the bot leaves out bots, webhooks and Discord's system messages). */
  userId: string;
  /** The platform's message id: a message delivered twice is counted once. */
  messageId: string;
  /** When the message was written (the platform's time, so a message handled late counts as when it was sent). */
  at: Date;
  /** Where it was written: a level it reaches may be announced there (level settings `current`). */
  channelId?: string;
}

export interface LevelUp {
  userId: string;
  previousLevel: number;
  level: number;
  /** The `levels.levelUp` event's id (the effects' idempotency key derives from it). */
  eventId: string;
  /** The channel of the message that reached the level. */
  channelId: string | null;
}

/**
 * Messages members wrote in one server, in order, in the caller's transaction: each counted once per message id,
 * and earning one message of activity (recordActivity's counters, XP, audit row and `levels.levelUp` with source
 * `activity`, as `simulate level-activity --messages 1`) only when at least `cooldownSeconds` (the server's levels
 * settings) passed since the member's last XP-earning message. Returns how many earned XP and the levels reached.
 */
export async function countMessages(
  trx: Kysely<Database>,
  guildId: string,
  messages: CountedMessage[],
  cooldownSeconds: number,
  at: Date,
): Promise<{ earned: number; levelUps: LevelUp[] }> {
  const claimed = await claimCountedMessages(trx, guildId, messages.map((m) => m.messageId), at);
  const fresh = messages.filter((m) => claimed.has(m.messageId));
  if (fresh.length === 0) return { earned: 0, levelUps: [] };
  const locked = await lockActivityMembers(trx, guildId, fresh.map((m) => m.userId));
  const cooldownStart = new Map([...locked].map(([userId, m]) => [userId, m.lastMessageXpAt]));
  const earning = fresh.filter((m) => {
    const last = cooldownStart.get(m.userId);
    if (last && m.at.getTime() - last.getTime() < cooldownSeconds * 1000) return false;
    cooldownStart.set(m.userId, m.at);
    return true;
  });
  const { results, events } = await recordActivities(
    trx,
    guildId,
    earning.map((m) => ({ guildId, userId: m.userId, messages: 1, voiceMinutes: 0, at: m.at, actor: { type: 'system' as const }, startsCooldown: true })),
    locked,
  );
  // results follow earning one for one; events are the level-ups among them, in order.
  const reached = results.map((r, i) => ({ r, channelId: earning[i]!.channelId ?? null })).filter(({ r }) => r.level > r.previousLevel);
  return {
    earned: earning.length,
    levelUps: reached.map(({ r, channelId }, i) => ({ userId: r.userId, previousLevel: r.previousLevel, level: r.level, eventId: events[i]!.id, channelId })),
  };
}

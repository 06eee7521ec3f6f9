import type { Kysely } from 'kysely';
import { claimCountedMessage } from '../../db/levels/members.js';
import { takeMessageCooldown } from '../../db/levels/messages.js';
import type { Database } from '../../db/schema.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { recordActivity, type ActivityResult } from './recordActivity.js';

export interface CountedMessage {
  guildId: string;
  /** A human member (the bot leaves out bots, webhooks and Discord's system messages). */
  userId: string;
  /** The platform's message id: a message delivered twice is counted once. */
  messageId: string;
  /** When the message was written (the platform's time, so a message handled late counts as when it was sent). */
  at: Date;
  /** From the server's levels settings. */
  cooldownSeconds: number;
}

/**
 * One message a member wrote, in the caller's transaction: once per message id, and only when the member's
 * cooldown since their last XP-earning message has passed, it earns one message of activity through
 * recordActivity (the counters, XP, the audit row and `levels.levelUp` with source `activity`), as
 * `simulate level-activity --messages 1` does. Undefined when it earned nothing.
 */
export async function countMessage(trx: Kysely<Database>, m: CountedMessage): Promise<{ result: ActivityResult; events: OutboxEvent[] } | undefined> {
  if (!(await claimCountedMessage(trx, m.guildId, m.messageId, m.at))) return undefined;
  if (!(await takeMessageCooldown(trx, m.guildId, m.userId, m.at, m.cooldownSeconds))) return undefined;
  return recordActivity(trx, { guildId: m.guildId, userId: m.userId, messages: 1, voiceMinutes: 0, at: m.at, actor: { type: 'system' } });
}

import { MessageType, type GatewayMessageCreateDispatchData } from 'discord-api-types/v10';
import { claimCountedMessage } from '../../../db/levels/members.js';
import { ActivityRefusal, recordActivity } from '../../../src/levels/recordActivity.js';
import type { DispatchHandler } from '../handler.js';

// What members write, not what Discord writes for them (joins, pins, boosts) or what bots and webhooks post.
const MEMBER_MESSAGE_TYPES = new Set<number>([MessageType.Default, MessageType.Reply]);

/**
 * MESSAGE_CREATE: one message of XP from activity, as `simulate level-activity --messages 1` records it, counted
 * once per Discord message id. Not yet: the per-user cooldown, level-up role rewards and the announcement, ticket
 * transcripts (later slices of issue 24).
 */
export const messageCreate: DispatchHandler = async (data, { db, clock, logger }) => {
  const d = data as GatewayMessageCreateDispatchData;
  if (!d.guild_id || d.author.bot || d.author.system || d.webhook_id || !MEMBER_MESSAGE_TYPES.has(d.type)) return;
  const guildId = d.guild_id;
  const at = clock.now();
  try {
    await db.transaction().execute(async (trx) => {
      if (!(await claimCountedMessage(trx, guildId, d.id, at))) return;
      await recordActivity(trx, { guildId, userId: d.author.id, messages: 1, voiceMinutes: 0, at, actor: { type: 'system' } });
    });
  } catch (err) {
    // A server the service does not know, or one with Levels off: the message earns nothing.
    if (err instanceof ActivityRefusal) return void logger.debug({ guildId, code: err.code }, 'message not counted');
    throw err;
  }
};

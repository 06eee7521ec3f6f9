import { MessageType, type GatewayMessageCreateDispatchData } from 'discord-api-types/v10';
import { findGuild } from '../../../db/guild/guilds.js';
import { findLevelSettings } from '../../../db/levels/members.js';
import { openTicketsByChannel } from '../../../db/tickets/ticketChannels.js';
import { countMessages } from '../../../src/levels/countMessage.js';
import { applyLevelEffects } from '../../../src/levels/levelUpEffects.js';
import { addTicketMessage } from '../../../src/tickets/addTicketMessage.js';
import type { BotDeps, DispatchHandler } from '../handler.js';
import { transcriptMessage } from './transcriptMessage.js';

// What members write, not what Discord writes for them (joins, pins, boosts) or what bots and webhooks post.
const MEMBER_MESSAGE_TYPES = new Set<number>([MessageType.Default, MessageType.Reply]);

const byMember = (d: GatewayMessageCreateDispatchData) => !d.author.bot && !d.author.system && !d.webhook_id && MEMBER_MESSAGE_TYPES.has(d.type);

/**
 * MESSAGE_CREATE, several of one server at once (the dispatch queue's batches), in one transaction: a message
 * written in an open ticket's channel is stored for its transcript and counted for its side (addTicketMessage, as
 * `simulate ticket-message`); a member's message earns XP from activity once per message id and per cooldown
 * (countMessage). After the commit, each level reached gets its reward roles and announcement (applyLevelEffects,
 * as after `simulate level-activity` and an XP change). Direct messages carry no server and are left out.
 */
async function messageCreateBatch(data: unknown[], { db, platform, clock, logger }: BotDeps): Promise<void> {
  const messages = (data as GatewayMessageCreateDispatchData[]).filter((d) => d.guild_id);
  if (messages.length === 0) return;
  const guildId = messages[0]!.guild_id!;
  const levelUps = await db.transaction().execute(async (trx) => {
    const guild = await findGuild(trx, guildId);
    if (!guild) return [];
    if (guild.features.includes('tickets')) {
      const tickets = await openTicketsByChannel(trx, guildId, [...new Set(messages.map((m) => m.channel_id))]);
      for (const d of messages) {
        const ticketNo = tickets.get(d.channel_id);
        // Only members' own messages count for a side: a bot's notice (the ticket's welcome) is no staff response.
        if (ticketNo !== undefined) await addTicketMessage(trx, { guildId, ticketNo, message: transcriptMessage(d, !byMember(d)) });
      }
    }
    if (!guild.features.includes('levels')) return [];
    const { messageCooldownSeconds } = await findLevelSettings(trx, guildId);
    const counted = messages.filter(byMember).map((d) => ({ userId: d.author.id, messageId: d.id, at: new Date(d.timestamp), channelId: d.channel_id }));
    return (await countMessages(trx, guildId, counted, messageCooldownSeconds, clock.now())).levelUps;
  });
  for (const up of levelUps) {
    // The XP stands without its effects: a platform out now leaves the reward roles to the member's next level.
    const effect = { guildId, userId: up.userId, previousLevel: up.previousLevel, level: up.level, idempotencyKey: `level-up/${up.eventId}`, channelId: up.channelId };
    await applyLevelEffects(db, platform, effect).catch(
      (err: unknown) => logger.warn({ err, guildId, userId: up.userId, level: up.level }, 'level-up reward roles and announcement not applied'),
    );
  }
}

export const messageCreate: DispatchHandler = Object.assign((data: unknown, deps: BotDeps) => messageCreateBatch([data], deps), {
  batch: messageCreateBatch,
  batchSize: 100,
});

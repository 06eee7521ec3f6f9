import { MessageType, type GatewayMessageCreateDispatchData } from 'discord-api-types/v10';
import { knownGuild } from '../../../src/guild/featureEnabled.js';
import { countMessages } from '../../../src/levels/countMessage.js';
import { recordTicketMessages } from '../../../src/tickets/recordTicketMessages.js';
import type { BotDeps, DispatchHandler } from '../handler.js';
import { transcriptMessage } from './transcriptMessage.js';

// What members write, not what Discord writes for them (joins, pins, boosts) or what bots and webhooks post.
const MEMBER_MESSAGE_TYPES = new Set<number>([MessageType.Default, MessageType.Reply]);

const byMember = (d: GatewayMessageCreateDispatchData) => !d.author.bot && !d.author.system && !d.webhook_id && MEMBER_MESSAGE_TYPES.has(d.type);

/**
 * MESSAGE_CREATE, several of one server at once (the dispatch queue's batches), in one transaction: the messages
 * of open tickets' channels go to their transcripts (recordTicketMessages, as `simulate ticket-message`; only a
 * member's own message counts for a side, a bot's notice is no staff response), and members' messages earn XP
 * (countMessages, as `simulate level-activity`; the author's roles from the dispatch's `member` for the server's
 * no-XP roles), each level reached recording its reward roles and announcement
 * (with the message's channel, for a server that announces in the member's current channel) for the worker to apply
 * (workflow `level-up/...`). Direct messages carry no server and are left out.
 */
async function messageCreateBatch(data: unknown[], { db, clock }: BotDeps): Promise<void> {
  const messages = (data as GatewayMessageCreateDispatchData[]).filter((d) => d.guild_id);
  if (messages.length === 0) return;
  await db.transaction().execute(async (trx) => {
    const guild = await knownGuild(trx, messages[0]!.guild_id!);
    if (!guild) return;
    await recordTicketMessages(trx, guild, messages.map((d) => ({ channelId: d.channel_id, message: transcriptMessage(d, !byMember(d)) })));
    const counted = messages
      .filter(byMember)
      .map((d) => ({ userId: d.author.id, messageId: d.id, at: new Date(d.timestamp), channelId: d.channel_id, roleIds: d.member?.roles ?? [] }));
    await countMessages(trx, guild, counted, clock.now());
  });
}

export const messageCreate: DispatchHandler = Object.assign((data: unknown, deps: BotDeps) => messageCreateBatch([data], deps), {
  batch: messageCreateBatch,
  batchSize: 100,
});

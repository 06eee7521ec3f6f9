import type { Kysely } from 'kysely';
import { finishAction, queueActions } from '../../db/giveaways/actions.js';
import { lockGiveaway, updateGiveaway, type GiveawayEndBy } from '../../db/giveaways/giveaways.js';
import type { Database } from '../../db/schema.js';
import { giveawayMessageUrl } from './giveawayMessages.js';

/**
 * Records the giveaway message the start posted, in the caller's transaction: the giveaway becomes `active`
 * with the message's link, and its `post` action is queued and finished. A giveaway cancelled while the
 * message went up keeps its link (so the cancel can still be shown in it) and stays cancelled; one already
 * past `scheduled` is left as it is (a retried start). `endBy` says who ends it at its endsAt: its workflow's
 * timer, or (`batch`) the every-second batch of ends, for which the row's ends_at is the durable timer.
 */
export async function recordGiveawayPosted(
  trx: Kysely<Database>,
  p: { guildId: string; giveawayId: number; channelId: string; messageId: string; at: Date; endBy: GiveawayEndBy },
): Promise<'active' | 'cancelled'> {
  const { guildId, giveawayId, at } = p;
  const current = (await lockGiveaway(trx, guildId, giveawayId, 'update'))!;
  const message = { messageId: p.messageId, messageUrl: giveawayMessageUrl(guildId, p.channelId, p.messageId) };
  if (current.status === 'cancelled') await updateGiveaway(trx, guildId, giveawayId, message);
  if (current.status !== 'scheduled') return current.status === 'cancelled' ? 'cancelled' : 'active';
  await updateGiveaway(trx, guildId, giveawayId, { status: 'active', endBy: p.endBy, ...message });
  const post = { guildId, giveawayId, type: 'post' as const, drawNumber: null };
  await queueActions(trx, [post], at);
  await finishAction(trx, post, { error: null }, at);
  return 'active';
}

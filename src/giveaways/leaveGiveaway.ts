import type { Kysely } from 'kysely';
import { deleteEntries } from '../../db/giveaways/entries.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { lockOpenGiveaway } from './enterGiveaway.js';
import { moveEntryCost } from './entryCost.js';
import { GiveawayRefusal } from './giveawayRefusal.js';

/** A member leaves an active giveaway, in the caller's transaction: the entry removed and its cost refunded. */
export async function leaveGiveaway(
  trx: Kysely<Database>,
  l: { guildId: string; giveawayId: number; userId: string; at: Date; actor: AuditActor },
): Promise<{ refunded: number; events: OutboxEvent[] }> {
  await lockOpenGiveaway(trx, l.guildId, l.giveawayId);
  const [entry] = await deleteEntries(trx, l.guildId, l.giveawayId, l.userId);
  if (!entry) throw new GiveawayRefusal('NOT_ENTERED', `User ${l.userId} has not entered giveaway ${l.giveawayId}.`);
  const events =
    entry.paid > 0
      ? await moveEntryCost(trx, { guildId: l.guildId, userId: l.userId, giveawayId: l.giveawayId, amount: entry.paid, at: l.at }, 'refund', 'left')
      : [];
  await writeAudit(trx, {
    guildId: l.guildId,
    actor: l.actor,
    action: 'giveaways.leave',
    target: { type: 'giveaway', id: String(l.giveawayId) },
    data: { userId: l.userId, refunded: entry.paid },
  });
  return { refunded: entry.paid, events };
}

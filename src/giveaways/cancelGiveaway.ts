import type { Kysely } from 'kysely';
import { deleteEntries } from '../../db/giveaways/entries.js';
import { lockGiveaway, updateGiveaway } from '../../db/giveaways/giveaways.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { moveEntryCost } from './entryCost.js';
import { GiveawayRefusal } from './giveawayRefusal.js';

/**
 * Cancels a scheduled or active giveaway whose draw has not begun, in the caller's transaction: status
 * `cancelled`, every entry removed and its cost refunded, the audit row. Its workflow learns of it from the
 * cancel relay (src/giveaways/cancelRelay.ts), which has it edit the message and finish.
 */
export async function cancelGiveaway(
  trx: Kysely<Database>,
  c: { guildId: string; giveawayId: number; at: Date; actor: AuditActor },
): Promise<{ refunds: Array<{ userId: string; amount: number }>; events: OutboxEvent[] }> {
  const giveaway = await lockGiveaway(trx, c.guildId, c.giveawayId, 'update');
  if (!giveaway) throw new GiveawayRefusal('GIVEAWAY_NOT_FOUND', `Guild ${c.guildId} has no giveaway ${c.giveawayId}.`);
  if ((giveaway.status !== 'scheduled' && giveaway.status !== 'active') || giveaway.entriesClosedAt !== null) {
    throw new GiveawayRefusal('GIVEAWAY_NOT_OPEN', `Giveaway ${c.giveawayId} is ${giveaway.status === 'active' ? 'being drawn' : giveaway.status}; only a scheduled or active one can be cancelled.`);
  }
  const events: OutboxEvent[] = [];
  const refunds: Array<{ userId: string; amount: number }> = [];
  for (const entry of await deleteEntries(trx, c.guildId, c.giveawayId)) {
    if (entry.paid === 0) continue;
    events.push(...(await moveEntryCost(trx, { guildId: c.guildId, userId: entry.userId, giveawayId: c.giveawayId, amount: entry.paid, at: c.at }, 'refund', 'cancelled')));
    refunds.push({ userId: entry.userId, amount: entry.paid });
  }
  await updateGiveaway(trx, c.guildId, c.giveawayId, { status: 'cancelled', cancelledAt: c.at });
  await writeAudit(trx, {
    guildId: c.guildId,
    actor: c.actor,
    action: 'giveaways.cancel',
    target: { type: 'giveaway', id: String(c.giveawayId) },
    data: { previousStatus: giveaway.status, refunds: refunds.length },
  });
  return { refunds, events };
}

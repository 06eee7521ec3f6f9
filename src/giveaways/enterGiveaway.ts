import type { Kysely } from 'kysely';
import { findEntry, insertEntry } from '../../db/giveaways/entries.js';
import { lockGiveaway, type GiveawayRecord } from '../../db/giveaways/giveaways.js';
import { findGuild, type GuildRecord } from '../../db/guild/guilds.js';
import { findLevelMember } from '../../db/levels/members.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import type { PlatformMember } from '../core/platform.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { levelFromXp } from '../levels/curve.js';
import { moveEntryCost } from './entryCost.js';
import { GiveawayRefusal } from './giveawayRefusal.js';
import { entryRefusal, ticketsFor } from './giveawayRules.js';

export interface GiveawayEntering {
  guildId: string;
  giveawayId: number;
  userId: string;
  /** The member as the platform shows them now (undefined: not in the server); looked up before the transaction. */
  member: PlatformMember | undefined;
  at: Date;
  actor: AuditActor;
}

export interface EntryResult {
  entered: boolean;
  tickets: number;
  paid: number;
  events: OutboxEvent[];
}

/** The giveaway, open for entries (active and its entries not closed by the draw), and its guild. */
export async function lockOpenGiveaway(trx: Kysely<Database>, guildId: string, giveawayId: number): Promise<{ giveaway: GiveawayRecord; guild: GuildRecord }> {
  const guild = await findGuild(trx, guildId);
  if (!guild) throw new GiveawayRefusal('GUILD_NOT_FOUND', `Guild ${guildId} does not exist.`);
  if (!guild.features.includes('giveaways')) throw new GiveawayRefusal('FEATURE_DISABLED', `The Giveaways feature is disabled in guild ${guildId}.`);
  const giveaway = await lockGiveaway(trx, guildId, giveawayId, 'share');
  if (!giveaway) throw new GiveawayRefusal('GIVEAWAY_NOT_FOUND', `Guild ${guildId} has no giveaway ${giveawayId}.`);
  if (giveaway.status !== 'active' || giveaway.entriesClosedAt !== null) {
    const status = giveaway.status === 'active' ? 'drawing' : giveaway.status;
    throw new GiveawayRefusal('GIVEAWAY_NOT_ACTIVE', `Giveaway ${giveawayId} is ${status}; entries are taken only while it is active.`);
  }
  return { giveaway, guild };
}

/**
 * A member enters (the bot's button), in the caller's transaction: requirements checked, the entry cost
 * debited with its ledger row and `bank.transaction`, the entry with its tickets, the audit row. Entering
 * again changes nothing (`entered` false). Entries lock the giveaway row shared, so a cancel or the draw's
 * close of entries waits for them and none slips in after.
 */
export async function enterGiveaway(trx: Kysely<Database>, e: GiveawayEntering): Promise<EntryResult> {
  const { giveaway, guild } = await lockOpenGiveaway(trx, e.guildId, e.giveawayId);
  // Past endsAt the draw is due (its workflow may lag by a moment): the button no longer takes entries.
  if (e.at >= giveaway.endsAt) throw new GiveawayRefusal('GIVEAWAY_NOT_ACTIVE', `Giveaway ${e.giveawayId} has ended; its draw is under way.`);
  const existing = await findEntry(trx, e.guildId, e.giveawayId, e.userId);
  if (existing) return { entered: false, tickets: existing.tickets, paid: existing.paid, events: [] };
  if (!e.member) throw new GiveawayRefusal('MEMBER_NOT_FOUND', `User ${e.userId} is not a member of guild ${e.guildId}.`);
  const { requirements } = giveaway;
  const level = requirements.minLevel > 0 ? levelFromXp((await findLevelMember(trx, e.guildId, e.userId))?.xp ?? 0).level : 0;
  const refusal = entryRefusal(requirements, { ...e.member, level }, e.at);
  if (refusal) throw new GiveawayRefusal(refusal.code, refusal.message);

  const paid = requirements.entryCost;
  if (paid > 0 && !guild.features.includes('bank')) throw new GiveawayRefusal('BANK_DISABLED', 'This giveaway has an entry cost, and the bank is disabled.');
  const tickets = ticketsFor(requirements, e.member.roleIds);
  // The entry before the debit: of two presses at once, the second waits on the entry's key and pays nothing.
  if (!(await insertEntry(trx, e.guildId, e.giveawayId, { userId: e.userId, tickets, paid, enteredAt: e.at }))) {
    const entry = (await findEntry(trx, e.guildId, e.giveawayId, e.userId))!;
    return { entered: false, tickets: entry.tickets, paid: entry.paid, events: [] };
  }
  const events =
    paid > 0 ? await moveEntryCost(trx, { guildId: e.guildId, userId: e.userId, giveawayId: e.giveawayId, amount: paid, at: e.at }, 'debit', 'entry') : [];
  await writeAudit(trx, {
    guildId: e.guildId,
    actor: e.actor,
    action: 'giveaways.enter',
    target: { type: 'giveaway', id: String(e.giveawayId) },
    data: { userId: e.userId, tickets, paid },
  });
  return { entered: true, tickets, paid, events };
}

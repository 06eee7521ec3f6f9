import type { Kysely } from 'kysely';
import { findGuild } from '../../db/guild/guilds.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import { insertTicket, nextTicketNo, type TicketAnswer, type TicketMember, type TicketSource } from '../../db/tickets/tickets.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { recordEvent } from '../events/outbox.js';
import { TicketRefusal } from './ticketRefusal.js';

export interface TicketOpening {
  guildId: string;
  userId: string;
  panel: { id: number; title: string | null } | null;
  subject: string | null;
  source: TicketSource | null;
  isThread: boolean;
  channelId: string | null;
  answers: TicketAnswer[];
  members?: TicketMember[];
  /**
   * The channel is created after this transaction commits (a panel press): `tickets.opened` ("a ticket channel or
   * thread was created") waits for it and is recorded with it (giveTicketChannel.ts), so it always names the channel.
   */
  channelPending?: boolean;
  at: Date;
  actor: AuditActor;
}

/**
 * The bot opened a ticket channel or thread, in the caller's transaction: the ticket (numbered per server),
 * its audit row and `tickets.opened` (unless its channel is still to be created). Refused when the server is unknown
 * or Tickets is off.
 */
export async function openTicket(trx: Kysely<Database>, o: TicketOpening): Promise<{ ticketNo: number; events: OutboxEvent[] }> {
  const guild = await findGuild(trx, o.guildId);
  if (!guild) throw new TicketRefusal('GUILD_NOT_FOUND', `Guild ${o.guildId} does not exist.`);
  if (!guild.features.includes('tickets')) throw new TicketRefusal('FEATURE_DISABLED', `The Tickets feature is disabled in guild ${o.guildId}.`);
  const ticketNo = await nextTicketNo(trx, o.guildId);
  await insertTicket(trx, {
    guildId: o.guildId,
    ticketNo,
    userId: o.userId,
    panelId: o.panel?.id ?? null,
    panelTitle: o.panel?.title ?? null,
    subject: o.subject,
    source: o.source,
    isThread: o.isThread,
    channelId: o.channelId,
    answers: o.answers,
    members: o.members ?? [],
    openedAt: o.at,
  });
  await writeAudit(trx, {
    guildId: o.guildId,
    actor: o.actor,
    action: 'tickets.open',
    target: { type: 'ticket', id: String(ticketNo) },
    data: { userId: o.userId, panelId: o.panel?.id ?? null, source: o.source },
  });
  if (o.channelPending) return { ticketNo, events: [] };
  const event = await recordTicketOpened(trx, { ...o, ticketNo, openedAt: o.at }, o.at);
  return { ticketNo, events: [event] };
}

/** `tickets.opened` of a ticket, recorded at `at` (when its channel or thread came to be). */
export function recordTicketOpened(
  trx: Kysely<Database>,
  t: Pick<TicketOpening, 'guildId' | 'userId' | 'subject' | 'source' | 'isThread' | 'channelId'> & { ticketNo: number; panel: { id: number } | null; openedAt: Date },
  at: Date,
): Promise<OutboxEvent> {
  return recordEvent(trx, {
    type: 'tickets.opened',
    guildId: t.guildId,
    createdAt: at,
    data: {
      ticketNo: t.ticketNo,
      userId: t.userId,
      panelId: t.panel?.id ?? null,
      subject: t.subject,
      source: t.source,
      channelId: t.channelId,
      isThread: t.isThread,
      openedAt: t.openedAt.toISOString(),
    },
  });
}

import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { listTickets } from '../../db/tickets/tickets.js';
import { addTicketMessage } from '../../src/tickets/addTicketMessage.js';
import { messageIdAt } from '../../src/tickets/botInput.js';
import { closeTicket } from '../../src/tickets/closeTicket.js';
import { claimTicket } from '../../src/tickets/claimTicket.js';
import { openTicket } from '../../src/tickets/openTicket.js';
import type { CloseType } from '../../db/tickets/tickets.js';

const ADMIN = '1100000000000001000';
const MODERATOR = '1100000000000001002';
const HELPER = '1100000000000001004';
const member = (n: number) => String(1100000000000001000n + BigInt(n));
const ticketChannel = (n: number) => String(1100000000000003000n + BigInt(n));

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const PANELS = {
  support: { id: 1, title: 'Support' },
  reports: { id: 2, title: 'Report a member' },
};

const USER_LINES = [
  'Hi, I bought the VIP role in the shop but it never showed up.',
  'I paid 5,000 coins, here is the time it happened: yesterday around 9pm.',
  'Still nothing on my side.',
  'Should I log out and back in?',
  'Ok, trying now.',
  'It shows in my profile but not in the member list.',
  'Thanks for looking into it!',
  'Any news?',
];
const STAFF_LINES = [
  'Hey! Thanks for opening a ticket, let me check the purchase log.',
  'I can see the purchase. Give me a minute.',
  'Could you try again now?',
  'The role sync was delayed by a platform hiccup, it should be fine now.',
  'Let us know if anything else comes up.',
];

interface DemoTicket {
  opener: number;
  panel: keyof typeof PANELS | null;
  subject: string | null;
  isThread: boolean;
  daysAgo: number;
  messages: number;
  answers?: Array<{ fieldId: string | null; label: string; value: string }>;
  claimedBy?: string;
  pending?: boolean;
  close?: { by: string | null; type: CloseType; reason: string | null };
}

const TICKETS: DemoTicket[] = [
  { opener: 11, panel: 'support', subject: 'VIP role missing after purchase', isThread: false, daysAgo: 30, messages: 320, claimedBy: MODERATOR,
    answers: [{ fieldId: 'topic', label: 'What do you need help with?', value: 'Shop purchase' }], close: { by: MODERATOR, type: 'manual', reason: 'Role synced' } },
  { opener: 12, panel: 'reports', subject: 'Spam in #general', isThread: true, daysAgo: 21, messages: 180, claimedBy: ADMIN,
    answers: [{ fieldId: 'who', label: 'Who are you reporting?', value: 'raider01' }, { fieldId: 'what', label: 'What happened?', value: 'Mass pings' }],
    close: { by: ADMIN, type: 'manual', reason: 'User banned' } },
  { opener: 13, panel: 'support', subject: 'Level roles', isThread: false, daysAgo: 14, messages: 260, close: { by: null, type: 'autoclose', reason: 'No reply for 7 days' } },
  { opener: 14, panel: null, subject: 'Question about giveaways', isThread: true, daysAgo: 9, messages: 40, close: { by: null, type: 'user_leave', reason: null } },
  { opener: 15, panel: 'support', subject: 'Bank balance looks wrong', isThread: false, daysAgo: 3, messages: 12, claimedBy: HELPER, pending: true },
  { opener: 16, panel: 'reports', subject: 'Harassment in voice', isThread: true, daysAgo: 1, messages: 6, claimedBy: MODERATOR,
    answers: [{ fieldId: 'who', label: 'Who are you reporting?', value: 'loudmouth' }, { fieldId: 'what', label: 'What happened?', value: 'Insults in Lounge' }] },
  { opener: 17, panel: 'support', subject: null, isThread: false, daysAgo: 0.2, messages: 1 },
];

/**
 * Tickets of the demo guild as the bot made them (through the tickets use cases): open, pending and closed
 * ones, the closed ones with transcripts of a few hundred messages. Seeded once: a server with tickets is left as it is.
 */
export async function seedDemoTickets(db: Kysely<Database>, guildId: string, now: Date): Promise<void> {
  if ((await listTickets(db, guildId, { limit: 1 })).length > 0) return;
  const actor = { type: 'system' } as const;
  let seq = 0;
  for (const [i, t] of TICKETS.entries()) {
    const openedAt = new Date(now.getTime() - t.daysAgo * DAY);
    const userId = member(t.opener);
    await db.transaction().execute(async (trx) => {
      const { ticketNo } = await openTicket(trx, {
        guildId,
        userId,
        panel: t.panel ? PANELS[t.panel] : null,
        subject: t.subject,
        source: t.panel ? 'panel' : 'command',
        isThread: t.isThread,
        channelId: ticketChannel(i + 1),
        answers: t.answers ?? [],
        at: openedAt,
        actor,
      });
      const staff = t.claimedBy ?? MODERATOR;
      // Messages a few minutes apart (never past now), the staff answering every third one.
      const step = Math.min(4 * 60_000, (now.getTime() - openedAt.getTime()) / (t.messages + 2));
      for (let m = 0; m < t.messages; m++) {
        const at = new Date(openedAt.getTime() + (m + 1) * step);
        const fromStaff = m % 3 === 1;
        const system = m === 2 && t.claimedBy !== undefined;
        const content = system
          ? `Ticket claimed by <@${staff}>`
          : fromStaff
            ? STAFF_LINES[m % STAFF_LINES.length]!
            : USER_LINES[m % USER_LINES.length]!;
        await addTicketMessage(trx, {
          guildId,
          ticketNo,
          message: {
            id: messageIdAt(at, seq++),
            authorId: system ? null : fromStaff ? staff : userId,
            content,
            createdAt: at,
            editedAt: m === 5 ? new Date(at.getTime() + 30_000) : null,
            system,
            replyTo: null,
            embeds: m === 0 && t.answers ? [{ title: t.subject, description: 'Answers', fields: t.answers.map((a) => ({ name: a.label, value: a.value })) }] : [],
            attachments: m === 4 ? [{ name: 'screenshot.png', size: 184_320, contentType: 'image/png' }] : [],
            stickers: m === 6 ? ['wave'] : [],
          },
        });
      }
      if (t.claimedBy) await claimTicket(trx, { guildId, ticketNo, staffId: t.claimedBy, actor });
      if (t.pending) {
        // Waiting for the opener's answer to a staff close request (see docs/api-decisions.md, Tickets).
        const closeRequest = { reason: 'Looks solved, can we close this?', closeAt: new Date(now.getTime() + DAY).toISOString(), viaApi: false };
        await trx
          .updateTable('tickets')
          .set({ status: 'pending', close_request: JSON.stringify(closeRequest) })
          .where('guild_id', '=', guildId)
          .where('ticket_no', '=', ticketNo)
          .execute();
      }
      if (t.close) {
        const closedAt = new Date(Math.min(now.getTime(), openedAt.getTime() + (t.messages + 1) * step + HOUR));
        await closeTicket(trx, { guildId, ticketNo, closedBy: t.close.by, closeType: t.close.type, reason: t.close.reason, messageContent: true, at: closedAt, actor });
      }
    });
  }
}

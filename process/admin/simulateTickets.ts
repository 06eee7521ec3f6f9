import { CLOSE_TYPES, TICKET_SOURCES } from '../../src/tickets/contract.js';
import { addTicketMessage } from '../../src/tickets/addTicketMessage.js';
import { AttachmentsInput, EmbedsInput, messageIdAt, TicketAnswersInput } from '../../src/tickets/botInput.js';
import { claimTicket } from '../../src/tickets/claimTicket.js';
import { closeTicket } from '../../src/tickets/closeTicket.js';
import { openTicket } from '../../src/tickets/openTicket.js';
import { requireHumanMember } from '../../src/core/members.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { jsonArg, oneOf, optional, snowflake, text, wholeNumber } from './args.js';
import { defineCommand, GUILD_FLAG, OPERATOR_FLAG, operatorActor, type AdminCommand } from './command.js';
import { usageError } from './errors.js';
import { withEvents } from './eventOutput.js';
import { requireGuild } from './requireGuild.js';
import { ticketCloseRequestCommands } from './simulateTicketCloseRequests.js';

// Tickets as the bot runs them: opened from a panel or a command, written in, claimed by staff, closed (with the
// transcript saved when the server keeps transcripts). Each calls the tickets use case, then starts the fan-out.

const TICKET_FLAG = { ticket: { type: 'string', placeholder: 'N', required: true, help: 'the ticket number' } } as const;


export const ticketSimulateCommands: AdminCommand[] = [
  defineCommand({
    name: 'ticket-open',
    summary: 'a member (not a bot) opens a ticket (channel or thread) from a panel or a command: tickets.opened',
    flags: {
      ...GUILD_FLAG,
      user: { type: 'string', placeholder: 'ID', required: true, help: "the opener's user id" },
      panel: { type: 'string', placeholder: 'N', help: 'the panel it was opened from (panelId)' },
      'panel-title': { type: 'string', placeholder: 'TITLE', help: "the panel's title (panelTitle)" },
      subject: { type: 'string', placeholder: 'TEXT', help: 'the subject (up to 200 characters)' },
      source: { type: 'string', placeholder: 'S', help: `one of ${TICKET_SOURCES.join(', ')} (default: panel with --panel, else command)` },
      answers: { type: 'string', placeholder: 'JSON', help: 'the panel form\'s answers: [{"fieldId":"order","label":"Order number","value":"A-17"}]' },
      channel: { type: 'string', placeholder: 'ID', help: "the ticket's channel or thread id" },
      thread: { type: 'boolean', help: 'the ticket is a thread, not a channel' },
      ...OPERATOR_FLAG,
    },
    async run(flags, ctx) {
      const guildId = snowflake(flags.guild, 'guild');
      const userId = snowflake(flags.user, 'user');
      const panelId = optional(flags.panel, (v) => wholeNumber(v, 'panel', 1, 999_999_999)) ?? null;
      const panelTitle = optional(flags['panel-title'], (v) => text(v, 'panel-title', 100)) ?? null;
      if (panelTitle !== null && panelId === null) throw usageError('INVALID_ARGUMENT', '--panel-title needs --panel.');
      const subject = optional(flags.subject, (v) => text(v, 'subject', 200)) ?? null;
      const source = optional(flags.source, (v) => oneOf(v, 'source', TICKET_SOURCES)) ?? (panelId === null ? 'command' : 'panel');
      const answers = optional(flags.answers, (v) => jsonArg(v, 'answers', TicketAnswersInput, 'an array of up to 25 {fieldId?, label, value}')) ?? [];
      const channelId = optional(flags.channel, (v) => snowflake(v, 'channel')) ?? null;
      await requireGuild(ctx.db, guildId);
      // Only a member opens a ticket (a panel button or a command in the server), never a bot account.
      await requireHumanMember(createLocalPlatform(ctx.db), guildId, userId);
      const at = ctx.clock.now();
      const { ticketNo, events } = await ctx.db.transaction().execute((trx) =>
        openTicket(trx, {
          guildId,
          userId,
          panel: panelId === null ? null : { id: panelId, title: panelTitle },
          subject,
          source,
          isThread: flags.thread,
          channelId,
          answers: answers.map((a) => ({ fieldId: a.fieldId ?? null, label: a.label, value: a.value })),
          at,
          actor: operatorActor(ctx, flags.operator),
        }),
      );
      return withEvents(
        ctx,
        events,
        { ticketNo, userId, panelId, subject, source, isThread: flags.thread, channelId, openedAt: at.toISOString() },
        [`User ${userId} opened ticket ${ticketNo} in guild ${guildId}${flags.thread ? ' (thread)' : ''}.`],
      );
    },
  }),
  defineCommand({
    name: 'ticket-message',
    summary: "a message is posted in a ticket: stored for the transcript and counted for the user's or the staff's side",
    flags: {
      ...GUILD_FLAG,
      ...TICKET_FLAG,
      author: { type: 'string', placeholder: 'ID', help: "the author's user id (required unless --system)" },
      content: { type: 'string', placeholder: 'TEXT', help: 'the text (up to 4000 characters; empty when omitted)' },
      embeds: { type: 'string', placeholder: 'JSON', help: '[{"title":"...","description":"...","fields":[{"name":"...","value":"..."}]}]' },
      attachments: { type: 'string', placeholder: 'JSON', help: '[{"name":"log.txt","size":2048,"contentType":"text/plain"}]' },
      stickers: { type: 'string', placeholder: 'a,b', help: 'sticker names' },
      system: { type: 'boolean', help: "a system message (joins, pins, the bot's notices)" },
      reply: { type: 'string', placeholder: 'ID', help: 'the message id it replies to' },
      id: { type: 'string', placeholder: 'ID', help: 'the message id (default: a snowflake of now)' },
    },
    async run(flags, ctx) {
      const guildId = snowflake(flags.guild, 'guild');
      const ticketNo = wholeNumber(flags.ticket, 'ticket', 1, 999_999_999);
      const authorId = optional(flags.author, (v) => snowflake(v, 'author')) ?? null;
      if (authorId === null && !flags.system) throw usageError('MISSING_FLAG', '`simulate ticket-message` needs --author ID (or --system).');
      const content = flags.content === undefined ? '' : flags.content;
      if (content.length > 4000) throw usageError('INVALID_ARGUMENT', '--content must be up to 4000 characters.');
      const embeds = optional(flags.embeds, (v) => jsonArg(v, 'embeds', EmbedsInput, 'an array of up to 10 embeds')) ?? [];
      const attachments = optional(flags.attachments, (v) => jsonArg(v, 'attachments', AttachmentsInput, 'an array of up to 10 {name, size, contentType?}')) ?? [];
      const stickers = optional(flags.stickers, (v) => v.split(',').map((s) => text(s, 'stickers', 100))) ?? [];
      const replyTo = optional(flags.reply, (v) => snowflake(v, 'reply')) ?? null;
      await requireGuild(ctx.db, guildId);
      const at = ctx.clock.now();
      const seq = Number(
        (await ctx.db.selectFrom('ticket_messages').select((eb) => eb.fn.countAll<string>().as('n')).where('guild_id', '=', guildId).executeTakeFirstOrThrow()).n,
      );
      const id = optional(flags.id, (v) => snowflake(v, 'id')) ?? messageIdAt(at, seq);
      const message = {
        id,
        authorId,
        content,
        createdAt: at,
        editedAt: null,
        system: flags.system,
        replyTo,
        embeds: embeds.map((e) => ({ title: e.title ?? null, description: e.description ?? null, fields: e.fields ?? [] })),
        attachments: attachments.map((a) => ({ name: a.name, size: a.size, contentType: a.contentType ?? null })),
        stickers,
      };
      const { stored, side, reopened } = await ctx.db.transaction().execute((trx) => addTicketMessage(trx, { guildId, ticketNo, message }));
      return {
        json: { ticketNo, messageId: id, stored, side, reopened },
        text: [
          stored ? `Message ${id} stored in ticket ${ticketNo}${side ? ` (${side} side)` : ''}.` : `Message ${id} was already stored in ticket ${ticketNo}.`,
          ...(reopened ? [`The opener wrote while a close request waited: ticket ${ticketNo} is open again.`] : []),
        ],
      };
    },
  }),
  defineCommand({
    name: 'ticket-claim',
    summary: 'a staff member claims an open ticket (claimedBy)',
    flags: { ...GUILD_FLAG, ...TICKET_FLAG, staff: { type: 'string', placeholder: 'ID', required: true, help: "the staff member's user id" }, ...OPERATOR_FLAG },
    async run(flags, ctx) {
      const guildId = snowflake(flags.guild, 'guild');
      const ticketNo = wholeNumber(flags.ticket, 'ticket', 1, 999_999_999);
      const staffId = snowflake(flags.staff, 'staff');
      await requireGuild(ctx.db, guildId);
      const { previousClaimedBy } = await ctx.db
        .transaction()
        .execute((trx) => claimTicket(trx, { guildId, ticketNo, staffId, actor: operatorActor(ctx, flags.operator) }));
      return { json: { ticketNo, claimedBy: staffId, previousClaimedBy }, text: [`Ticket ${ticketNo} claimed by ${staffId}.`] };
    },
  }),
  defineCommand({
    name: 'ticket-close',
    summary: 'staff (or the bot) close a ticket with a closeType: transcript saved when transcripts are on, tickets.closed',
    flags: {
      ...GUILD_FLAG,
      ...TICKET_FLAG,
      by: { type: 'string', placeholder: 'ID', help: 'the staff member who closed it (default: the bot, closedBy null)' },
      'close-type': { type: 'string', placeholder: 'T', help: `one of ${CLOSE_TYPES.join(', ')} (default manual)` },
      reason: { type: 'string', placeholder: 'TEXT', help: 'the close reason (up to 1000 characters)' },
      'no-message-content': { type: 'boolean', help: "the bot lacked the message-content permission (transcript's messageContent false)" },
      ...OPERATOR_FLAG,
    },
    async run(flags, ctx) {
      const guildId = snowflake(flags.guild, 'guild');
      const ticketNo = wholeNumber(flags.ticket, 'ticket', 1, 999_999_999);
      const closedBy = optional(flags.by, (v) => snowflake(v, 'by')) ?? null;
      const closeType = optional(flags['close-type'], (v) => oneOf(v, 'close-type', CLOSE_TYPES)) ?? 'manual';
      const reason = optional(flags.reason, (v) => text(v, 'reason', 1000)) ?? null;
      await requireGuild(ctx.db, guildId);
      const at = ctx.clock.now();
      const { hasTranscript, events } = await ctx.db.transaction().execute((trx) =>
        closeTicket(trx, {
          guildId,
          ticketNo,
          closedBy,
          closeType,
          reason,
          messageContent: !flags['no-message-content'],
          at,
          actor: operatorActor(ctx, flags.operator),
        }),
      );
      return withEvents(
        ctx,
        events,
        { ticketNo, closedBy, closeType, closeReason: reason, hasTranscript, closedAt: at.toISOString() },
        [`Ticket ${ticketNo} closed (${closeType})${hasTranscript ? ', transcript saved' : ', no transcript (transcripts are off)'}.`],
      );
    },
  }),
  ...ticketCloseRequestCommands,
];

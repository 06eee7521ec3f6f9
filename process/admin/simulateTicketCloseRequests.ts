import { answerCloseRequest, CLOSE_REQUEST_ANSWERS } from '../../src/tickets/answerCloseRequest.js';
import { requestTicketClose } from '../../src/tickets/requestTicketClose.js';
import { oneOf, optional, snowflake, text, wholeNumber } from './args.js';
import { defineCommand, GUILD_FLAG, OPERATOR_FLAG, operatorActor, type AdminCommand } from './command.js';
import { withEvents } from './eventOutput.js';
import { requireGuild } from './requireGuild.js';

// Close requests as the bot runs them: staff ask the opener whether the ticket can be closed (pending), the opener
// accepts (closed, closeType request) or denies (open again), or the request's close time passes unanswered.

const FLAGS = {
  ...GUILD_FLAG,
  ticket: { type: 'string', placeholder: 'N', required: true, help: 'the ticket number' },
} as const;

export const ticketCloseRequestCommands: AdminCommand[] = [
  defineCommand({
    name: 'ticket-close-request',
    summary: 'staff ask the opener to agree to close a ticket: pending with closeRequest (no event)',
    flags: {
      ...FLAGS,
      staff: { type: 'string', placeholder: 'ID', required: true, help: 'the staff member asking' },
      reason: { type: 'string', placeholder: 'TEXT', help: 'why (up to 1000 characters; becomes the close reason)' },
      'close-after': { type: 'string', placeholder: 'SECONDS', help: 'the bot closes it after this long without an answer (60 to 2592000; default: it waits)' },
      ...OPERATOR_FLAG,
    },
    async run(flags, ctx) {
      const guildId = snowflake(flags.guild, 'guild');
      const ticketNo = wholeNumber(flags.ticket, 'ticket', 1, 999_999_999);
      const requestedBy = snowflake(flags.staff, 'staff');
      const reason = optional(flags.reason, (v) => text(v, 'reason', 1000)) ?? null;
      const closeAfter = optional(flags['close-after'], (v) => wholeNumber(v, 'close-after', 60, 2_592_000));
      await requireGuild(ctx.db, guildId);
      const at = ctx.clock.now();
      const closeAt = closeAfter === undefined ? null : new Date(at.getTime() + closeAfter * 1000);
      const request = await ctx.db
        .transaction()
        .execute((trx) => requestTicketClose(trx, { guildId, ticketNo, requestedBy, reason, closeAt, at, actor: operatorActor(ctx, flags.operator) }));
      return {
        json: { ticketNo, status: 'pending', closeRequest: { reason: request.reason, closeAt: request.closeAt, viaApi: request.viaApi }, requestedBy },
        text: [`Ticket ${ticketNo} is pending: ${requestedBy} asked to close it${request.closeAt ? ` (closes at ${request.closeAt} without an answer)` : ''}.`],
      };
    },
  }),
  defineCommand({
    name: 'ticket-close-request-answer',
    summary: 'the opener accepts (closed, tickets.closed) or denies (open again) a close request, or it times out (closed by the bot)',
    flags: {
      ...FLAGS,
      answer: { type: 'string', placeholder: CLOSE_REQUEST_ANSWERS.join('|'), required: true, help: 'timeout: its close time passed without an answer' },
      'no-message-content': { type: 'boolean', help: "the bot lacked the message-content permission (transcript's messageContent false)" },
      ...OPERATOR_FLAG,
    },
    async run(flags, ctx) {
      const guildId = snowflake(flags.guild, 'guild');
      const ticketNo = wholeNumber(flags.ticket, 'ticket', 1, 999_999_999);
      const answer = oneOf(flags.answer, 'answer', CLOSE_REQUEST_ANSWERS);
      await requireGuild(ctx.db, guildId);
      const { status, events } = await ctx.db.transaction().execute((trx) =>
        answerCloseRequest(trx, {
          guildId,
          ticketNo,
          answer,
          messageContent: !flags['no-message-content'],
          at: ctx.clock.now(),
          actor: operatorActor(ctx, flags.operator),
        }),
      );
      return withEvents(ctx, events, { ticketNo, answer, status }, [`Close request of ticket ${ticketNo} answered (${answer}): the ticket is ${status}.`]);
    },
  }),
];

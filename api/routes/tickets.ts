import { GuildParams } from '../../src/core/contract.js';
import { closeTicketByApi } from '../../src/tickets/closeTicketByApi.js';
import { TicketCloseRequest, TicketDetail, TicketList, TicketParams, TicketsQuery, Transcript, TranscriptQuery } from '../../src/tickets/contract.js';
import { readTicketDetail, readTicketPage, readTranscript } from '../../src/tickets/readTickets.js';
import { ticketCloseOperation } from '../../src/tickets/ticketCloseOperation.js';
import type { AppDeps } from '../context.js';
import { defineRoute, type RouteDefinition } from '../route.js';

const area = 'tickets';
const feature = 'tickets';

export function ticketsRoutes({ db, clock }: AppDeps): RouteDefinition[] {
  return [
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/tickets',
      operationId: 'listTickets',
      summary: 'Tickets, newest first',
      description: 'Every status unless `status` is given (`active` = open and pending); pass `nextCursor` as `before` for the next page.',
      area,
      feature,
      scope: 'tickets:read',
      request: { params: GuildParams, query: TicketsQuery },
      response: { status: 200, schema: TicketList, description: 'One page of tickets.' },
      handle: ({ query, caller: { guild } }) => readTicketPage(db, guild.id, query),
    }),
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/tickets/{ticketNo}',
      operationId: 'getTicket',
      summary: 'A ticket with its answers, members and close request',
      area,
      feature,
      scope: 'tickets:read',
      request: { params: TicketParams },
      response: { status: 200, schema: TicketDetail, description: 'The ticket.' },
      errors: ['TICKET_NOT_FOUND'],
      handle: ({ params, caller: { guild } }) => readTicketDetail(db, guild.id, params.ticketNo),
    }),
    defineRoute({
      method: 'get',
      path: '/guilds/{guildId}/tickets/{ticketNo}/transcript',
      operationId: 'getTicketTranscript',
      summary: 'The transcript of a closed ticket, oldest message first',
      description:
        'Text only (no avatars, no attachment links). Pass `nextCursor` as `after` for the next page; every page costs the same, ' +
        'however long the transcript. Open and pending tickets, and tickets closed while transcripts were off, answer 404 TRANSCRIPT_NOT_FOUND.',
      area,
      feature,
      scope: 'tickets:read',
      request: { params: TicketParams, query: TranscriptQuery },
      response: { status: 200, schema: Transcript, description: 'One page of the transcript.' },
      errors: ['TICKET_NOT_FOUND', 'TRANSCRIPT_NOT_FOUND'],
      handle: ({ params, query, caller: { guild } }) => readTranscript(db, guild.id, params.ticketNo, query),
    }),
    defineRoute({
      method: 'post',
      path: '/guilds/{guildId}/tickets/{ticketNo}/close',
      operationId: 'closeTicket',
      summary: 'Close an open or pending ticket',
      description:
        'The close stands at once: status `closed`, `closedBy` null, `closeType` `manual`, the transcript saved (when the server ' +
        'keeps transcripts) and `tickets.closed` emitted. The bot then logs the close, DMs the opener as a staff close would, and ' +
        'deletes the ticket channel or archives its thread; until it is done, `closeRequest` shows `{reason, closeAt, viaApi: true}`, ' +
        'then null. A DM the opener refuses does not stop the rest. A closed ticket answers 409 TICKET_ALREADY_CLOSED.',
      area,
      feature,
      scope: 'tickets:write',
      idempotent: true,
      request: { params: TicketParams, body: TicketCloseRequest },
      response: { status: 202, schema: TicketDetail, description: 'The ticket as closed.' },
      errors: ['TICKET_NOT_FOUND', 'TICKET_ALREADY_CLOSED', 'IDEMPOTENCY_KEY_REUSED'],
      async handle({ params, body, caller, db: trx, launch }) {
        const closing = await closeTicketByApi(trx, {
          guildId: caller.guild.id,
          ticketNo: params.ticketNo,
          reason: body.reason ?? null,
          actor: { type: 'api_key', apiKeyId: caller.apiKey.id, userId: caller.apiKey.createdBy },
          requestId: caller.requestId,
          at: clock.now(),
        });
        launch(ticketCloseOperation, closing);
        return readTicketDetail(trx, caller.guild.id, params.ticketNo);
      },
    }),
  ];
}

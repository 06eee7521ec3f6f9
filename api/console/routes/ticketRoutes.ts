import { ConsoleRefusal } from '../../../src/console/errors.js';
import { memberNames } from '../../../src/console/memberNames.js';
import { closeTicketByApi } from '../../../src/tickets/closeTicketByApi.js';
import { TicketCloseRequest } from '../../../src/tickets/contract.js';
import { readTicketDetail, readTicketPage, readTranscript } from '../../../src/tickets/readTickets.js';
import { ticketCloseOperation } from '../../../src/tickets/ticketCloseOperation.js';
import type { AppDeps } from '../../context.js';
import { requireFeature } from '../consoleFeatures.js';
import { formOf, idParam, managedServer } from '../consoleDeps.js';
import type { ConsoleContext, ConsoleRouter } from '../consoleState.js';
import { FormRejection, submitOnce } from '../formFlow.js';
import { launchAfterCommit } from '../launchAfterCommit.js';
import { sendPage } from '../render.js';
import { FeatureOffPage } from '../views/featureOff.js';
import { CLOSE_FIELDS, CloseTicketPage, TICKET_FILTERS, TicketPage, TicketsPage, TranscriptPage, ticketPath } from '../views/ticketPages.js';
import { listQueryOf } from './listQuery.js';

const PAGE_SIZE = 25;
const TRANSCRIPT_PAGE = 100;

/** The close form's reason, checked by the API's own schema; empty means none. */
function reasonOf(form: URLSearchParams): string | null {
  const reason = (form.get(CLOSE_FIELDS.reason) ?? '').trim();
  const parsed = TicketCloseRequest.safeParse({ reason: reason === '' ? null : reason });
  if (!parsed.success) throw new FormRejection(400, 'INVALID_INPUT', [{ field: CLOSE_FIELDS.reason, message: 'Give a reason of at most 1,000 characters, without control characters.' }]);
  return parsed.data.reason ?? null;
}

/** Tickets: the list by status, a ticket with its answers, its transcript, and the close (the API's close use case). */
export function ticketRoutes(router: ConsoleRouter, deps: AppDeps): void {
  const base = '/servers/:guildId/tickets';

  /** The server and one of its tickets (TICKET_NOT_FOUND, 404, for another server's), with the names it shows. */
  async function ticketOf(ctx: ConsoleContext) {
    const server = await managedServer(ctx, deps);
    requireFeature(server.guild, 'tickets');
    const ticket = await readTicketDetail(deps.db, server.guild.id, idParam(ctx, 'ticketNo'));
    const names = await memberNames(deps.memberCache, server.guild.id, [ticket.userId, ticket.claimedBy, ticket.closedBy].filter((id) => id !== null));
    return { ...server, ticket, names };
  }

  router.get(base, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    if (!guild.features.includes('tickets')) return sendPage(ctx, FeatureOffPage({ viewer, guild, feature: 'tickets', active: 'tickets', title: 'Tickets', then: 'tickets' }));
    const query = listQueryOf(ctx, TICKET_FILTERS, 'a ticket number');
    const page = await readTicketPage(deps.db, guild.id, { ...query, limit: PAGE_SIZE });
    const names = await memberNames(deps.memberCache, guild.id, page.items.map((t) => t.userId));
    const olderHref = page.nextCursor && `/console/servers/${guild.id}/tickets?${new URLSearchParams({ ...(query.status && { status: query.status }), before: page.nextCursor })}`;
    sendPage(ctx, TicketsPage({ viewer, guild, status: query.status, tickets: page.items, names, olderHref }));
  });

  router.get(`${base}/:ticketNo`, async (ctx) => {
    const { guild, viewer, ticket, names } = await ticketOf(ctx);
    sendPage(ctx, TicketPage({ viewer, guild, ticket, names }));
  });

  router.get(`${base}/:ticketNo/transcript`, async (ctx) => {
    const { guild, viewer } = await managedServer(ctx, deps);
    requireFeature(guild, 'tickets');
    const ticketNo = idParam(ctx, 'ticketNo');
    const after = typeof ctx.query.after === 'string' ? ctx.query.after : undefined;
    if (after !== undefined && !/^\d{17,20}$/.test(after)) throw new ConsoleRefusal('INVALID_INPUT', '`after` is a message id.');
    const transcript = await readTranscript(deps.db, guild.id, ticketNo, { after, limit: TRANSCRIPT_PAGE });
    const names = await memberNames(deps.memberCache, guild.id, Object.keys(transcript.users));
    const laterHref = transcript.nextCursor && `${ticketPath(guild.id, ticketNo)}/transcript?after=${transcript.nextCursor}`;
    sendPage(ctx, TranscriptPage({ viewer, guild, transcript, names, laterHref }));
  });

  // Closing deletes the ticket's channel and tells the member: a page asks first, with the reason.
  router.get(`${base}/:ticketNo/close`, async (ctx) => {
    const { guild, viewer, ticket, names } = await ticketOf(ctx);
    sendPage(ctx, CloseTicketPage({ viewer, guild, ticket, names }));
  });

  router.post(`${base}/:ticketNo/close`, async (ctx) => {
    const { guild, viewer, actor, ticket, names } = await ticketOf(ctx);
    const form = formOf(ctx);
    await submitOnce(
      ctx,
      deps,
      async () => {
        const reason = reasonOf(form);
        const closing = await deps.db
          .transaction()
          .execute((trx) => closeTicketByApi(trx, { guildId: guild.id, ticketNo: ticket.ticketNo, reason, actor, requestId: ctx.state.requestId, at: deps.clock.now() }));
        await launchAfterCommit(deps, ticketCloseOperation, closing);
        return ticketPath(guild.id, ticket.ticketNo);
      },
      async (problem) => sendPage(ctx, CloseTicketPage({ viewer, guild, ticket, names, form: { values: form, problem } }), problem.status),
    );
  });
}

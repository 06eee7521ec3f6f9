import type { TicketMessageRecord } from '../../db/tickets/messages.js';
import type { TicketRecord } from '../../db/tickets/tickets.js';
import type { TicketBody, TicketDetailBody, TranscriptBody } from './contract.js';

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function toTicketBody(t: TicketRecord): TicketBody {
  return {
    ticketNo: t.ticketNo,
    status: t.status,
    userId: t.userId,
    panelId: t.panelId,
    subject: t.subject,
    source: t.source,
    isThread: t.isThread,
    channelId: t.channelId,
    claimedBy: t.claimedBy,
    openedAt: t.openedAt.toISOString(),
    lastMessageAt: iso(t.lastMessageAt),
    closedAt: iso(t.closedAt),
    closedBy: t.closedBy,
    closeReason: t.closeReason,
    closeType: t.closeType,
    messageCount: { user: t.userMessages, staff: t.staffMessages },
    rating: t.rating,
    hasTranscript: t.transcriptGeneratedAt !== null,
  };
}

export function toTicketDetailBody(t: TicketRecord): TicketDetailBody {
  return {
    ...toTicketBody(t),
    panelTitle: t.panelTitle,
    firstResponseAt: iso(t.firstResponseAt),
    firstResponseBy: t.firstResponseBy,
    answers: t.answers,
    members: t.members,
    // While the platform side of an API close is applied (ticket-close workflow), it shows as a close request via the API.
    closeRequest: t.closeApplying
      ? { reason: t.closeReason, closeAt: iso(t.closedAt), viaApi: true }
      : t.closeRequest && { reason: t.closeRequest.reason, closeAt: t.closeRequest.closeAt, viaApi: t.closeRequest.viaApi },
  };
}

/** One page of a saved transcript; `page` holds up to limit + 1 messages, the extra one only says another page follows. */
export function toTranscriptBody(t: TicketRecord, page: TicketMessageRecord[], limit: number): TranscriptBody {
  const messages = page.slice(0, limit);
  return {
    ticketNo: t.ticketNo,
    generatedAt: iso(t.transcriptGeneratedAt),
    messageContent: t.transcriptMessageContent ?? true,
    totalMessages: t.transcriptTotal ?? 0,
    users: t.transcriptUsers ?? {},
    messages: messages.map((m) => ({ ...m, createdAt: m.createdAt.toISOString(), editedAt: iso(m.editedAt) })),
    nextCursor: page.length > limit ? messages.at(-1)!.id : null,
  };
}

import { GuildParams, integerParam, SafeText, SnowflakeId, Timestamp } from '../core/contract.js';
import { RecordNumber } from '../moderation/contract.js';
import { z } from '../core/zod.js';

export const TICKET_STATUSES = ['open', 'pending', 'closed'] as const;
export const TICKET_SOURCES = ['panel', 'command', 'context_menu', 'dashboard'] as const;
export const CLOSE_TYPES = ['manual', 'autoclose', 'user_leave', 'request', 'channel_deleted', 'thread_archived'] as const;

export const Ticket = z
  .object({
    ticketNo: z.number().int(),
    status: z.enum(TICKET_STATUSES),
    userId: SnowflakeId.openapi({ description: 'The opener.' }),
    panelId: z.number().int().nullable(),
    subject: z.string().nullable(),
    source: z.enum(TICKET_SOURCES).nullable(),
    isThread: z.boolean(),
    channelId: SnowflakeId.nullable(),
    claimedBy: SnowflakeId.nullable(),
    openedAt: Timestamp.nullable(),
    lastMessageAt: Timestamp.nullable(),
    closedAt: Timestamp.nullable(),
    closedBy: SnowflakeId.nullable().openapi({ description: 'Null when the bot closed it (auto-close, API and so on).' }),
    closeReason: z.string().nullable(),
    closeType: z.enum(CLOSE_TYPES).nullable().openapi({
      description:
        '`manual`: staff closed it; `autoclose`: closed for inactivity; `user_leave`: the opener left the server; `request`: ' +
        'a close request was accepted or ran out; `channel_deleted` / `thread_archived`: its channel was deleted or its thread archived.',
    }),
    messageCount: z
      .object({ user: z.number().int(), staff: z.number().int() })
      .openapi({ description: '`user`: messages of the opener and of users added to the ticket; `staff`: of anyone else; system messages count for neither.' }),
    rating: z.number().int().nullable(),
    hasTranscript: z.boolean(),
  })
  .openapi('Ticket');

export const TicketDetail = Ticket.extend({
  panelTitle: z.string().nullable(),
  firstResponseAt: Timestamp.nullable().openapi({ description: 'The first staff message.' }),
  firstResponseBy: SnowflakeId.nullable(),
  answers: z.array(z.object({ fieldId: z.string().nullable(), label: z.string(), value: z.string() })),
  members: z.array(z.object({ targetId: SnowflakeId, type: z.enum(['user', 'role']) })),
  closeRequest: z.object({ reason: z.string().nullable(), closeAt: Timestamp.nullable(), viaApi: z.boolean() }).nullable(),
}).openapi('TicketDetail');

export const TicketList = z
  .object({
    items: z.array(Ticket),
    nextCursor: z.string().nullable().openapi({ description: 'Pass as `before` for the next page; null on the last page.' }),
  })
  .openapi('TicketList');

export const TicketsQuery = z.object({
  status: z
    .enum([...TICKET_STATUSES, 'active'])
    .optional()
    .openapi({ description: '`active` means open and pending. Without it, every status.' }),
  panelId: integerParam({ min: 1, max: 999_999_999 }).optional(),
  userId: SnowflakeId.optional().openapi({ description: 'The opener.' }),
  limit: integerParam({ min: 1, max: 100, default: 25 }),
  before: RecordNumber.optional().openapi({ description: 'Tickets numbered below this one.' }),
});

export const TicketParams = GuildParams.extend({ ticketNo: RecordNumber });

export const TranscriptMessage = z.object({
  id: SnowflakeId,
  authorId: SnowflakeId.nullable(),
  content: z.string(),
  createdAt: Timestamp,
  editedAt: Timestamp.nullable(),
  system: z.boolean(),
  replyTo: SnowflakeId.nullable(),
  embeds: z.array(z.object({ title: z.string().nullable(), description: z.string().nullable(), fields: z.array(z.object({ name: z.string(), value: z.string() })) })),
  attachments: z.array(z.object({ name: z.string(), size: z.number().int(), contentType: z.string().nullable() })),
  stickers: z.array(z.string()),
});

export const Transcript = z
  .object({
    ticketNo: z.number().int(),
    generatedAt: Timestamp.nullable(),
    messageContent: z.boolean().openapi({ description: "False when the bot lacked the message-content permission, so other users' text may be empty." }),
    totalMessages: z.number().int(),
    users: z
      .record(z.string(), z.object({ messages: z.number().int() }))
      .openapi({ description: 'Every author of the transcript by user id, with their number of messages (system messages left out).' }),
    messages: z.array(TranscriptMessage).openapi({ description: 'Oldest first, text only: no avatars and no attachment links.' }),
    nextCursor: z.string().nullable().openapi({ description: 'Pass as `after` for the next page; null on the last page.' }),
  })
  .openapi('Transcript');

export const TranscriptQuery = z.object({
  limit: integerParam({ min: 1, max: 500, default: 100 }),
  after: SnowflakeId.optional().openapi({ description: 'The `nextCursor` of the previous page: messages after this message id.' }),
});

export const TicketCloseRequest = z
  .strictObject({
    reason: SafeText.max(1000)
      .nullable()
      .optional()
      .openapi({ description: 'Becomes `closeReason`: shown in the log line and in the DM to the opener. Optional.' }),
  })
  .openapi('TicketCloseRequest');

export type TicketBody = z.infer<typeof Ticket>;
export type TicketDetailBody = z.infer<typeof TicketDetail>;
export type TranscriptBody = z.infer<typeof Transcript>;

import { SnowflakeId, Timestamp } from '../core/contract.js';
import { z } from '../core/zod.js';

// Payload shapes of v1 events: fields may be added, never removed or retyped (spec: Event kinds).
// Ids are strings, timestamps ISO 8601. The kinds the spec leaves "not shown" follow the shown ones.

const Answer = z.object({ id: z.string(), type: z.string(), label: z.string(), value: z.unknown() });

export const EVENT_DATA_SCHEMAS = {
  'bank.transaction': z.object({
    transactionId: z.number().int().min(0),
    userId: SnowflakeId,
    type: z.string().openapi({ description: 'Ledger type: api, starting_balance, daily, transfer_in, transfer_out, fee, admin_add, ...' }),
    amount: z.number().int().openapi({ description: 'Signed: negative is a debit.' }),
    balanceAfter: z.number().int(),
    reason: z.string().nullable(),
    counterpartyId: SnowflakeId.nullable(),
    actorId: SnowflakeId.nullable().openapi({ description: 'Who made the change: for API changes the creator of the API key.' }),
    createdAt: Timestamp,
  }),
  'levels.levelUp': z.object({
    userId: SnowflakeId,
    level: z.number().int().min(0),
    previousLevel: z.number().int().min(0),
    source: z.enum(['activity', 'admin']),
  }),
  'shop.purchase': z.object({
    purchaseId: z.number().int().min(0),
    userId: SnowflakeId,
    item: z.object({ id: z.number().int().nullable(), name: z.string(), emoji: z.string().nullable(), type: z.string() }),
    store: z.object({ id: z.number().int().nullable(), name: z.string().nullable() }),
    price: z.number().int().min(0),
    status: z.enum(['owned', 'used', 'refunded']),
    roleId: SnowflakeId.nullable(),
    expiresAt: Timestamp.nullable(),
    createdAt: Timestamp,
  }),
  'shop.refund': z.object({
    purchaseId: z.number().int().min(0),
    userId: SnowflakeId,
    item: z.object({ id: z.number().int().nullable(), name: z.string(), emoji: z.string().nullable(), type: z.string() }),
    price: z.number().int().min(0),
    refundedBy: SnowflakeId.nullable(),
    refundedAt: Timestamp,
  }),
  'tickets.opened': z.object({
    ticketNo: z.number().int(),
    userId: SnowflakeId,
    panelId: z.number().int().nullable(),
    subject: z.string().nullable(),
    source: z.enum(['panel', 'command', 'context_menu', 'dashboard']).nullable(),
    channelId: SnowflakeId.nullable(),
    isThread: z.boolean(),
    openedAt: Timestamp,
  }),
  'tickets.closed': z.object({
    ticketNo: z.number().int(),
    userId: SnowflakeId,
    closedBy: SnowflakeId.nullable().openapi({ description: 'Null when the bot closed it (auto-close, API, ...).' }),
    closeReason: z.string().nullable(),
    closeType: z.enum(['manual', 'autoclose', 'user_leave', 'request', 'channel_deleted', 'thread_archived']),
    hasTranscript: z.boolean(),
    closedAt: Timestamp,
  }),
  'members.joined': z.object({
    userId: SnowflakeId,
    username: z.string().nullable(),
    bot: z.boolean(),
    inviterId: SnowflakeId.nullable(),
    inviteCode: z.string().nullable(),
    joinedAt: Timestamp,
  }),
  'members.left': z.object({
    userId: SnowflakeId,
    username: z.string().nullable(),
    reason: z.enum(['left', 'kicked', 'banned']),
    leftAt: Timestamp,
  }),
  'giveaways.ended': z.object({
    giveawayId: z.number().int(),
    prize: z.string(),
    channelId: SnowflakeId,
    messageUrl: z.string().nullable(),
    winnerIds: z.array(SnowflakeId),
    entrants: z.number().int(),
    entries: z.number().int(),
    endedAt: Timestamp,
  }),
  'moderation.caseCreated': z.object({
    caseNumber: z.number().int(),
    action: z.enum(['warn', 'timeout', 'untimeout', 'kick', 'ban', 'tempban', 'softban', 'unban', 'note', 'purge']),
    userId: SnowflakeId,
    moderatorId: SnowflakeId,
    reason: z.string().nullable(),
    durationSeconds: z.number().int().nullable(),
    source: z.enum(['command', 'automod', 'escalation', 'antiraid', 'antinuke', 'console', 'api']),
    expiresAt: Timestamp.nullable(),
    createdAt: Timestamp,
  }),
  'applications.submitted': z.object({
    submissionNumber: z.number().int(),
    formId: z.number().int().nullable(),
    formTitle: z.string().nullable(),
    userId: SnowflakeId,
    answers: z.array(Answer),
    submittedAt: Timestamp,
  }),
  'appeals.submitted': z.object({
    appealNumber: z.number().int(),
    userId: SnowflakeId,
    banCaseNumber: z.number().int().nullable(),
    answers: z.array(Answer),
    createdAt: Timestamp,
  }),
  'webhook.test': z.object({
    endpointId: z.number().int(),
    message: z.string(),
  }),
} as const;

export function eventEnvelope(type: keyof typeof EVENT_DATA_SCHEMAS) {
  return z.object({
    id: z.string().openapi({ description: 'evt_ prefix; the same on every retry: deduplicate on it.', example: 'evt_3kTMd9ZXfW1qG6cOeY2bVg' }),
    type: z.literal(type),
    createdAt: Timestamp.openapi({ description: 'When the change happened: order by it.' }),
    guildId: SnowflakeId,
    data: EVENT_DATA_SCHEMAS[type],
  });
}

import type { EventDataByType, EventType } from '../events/eventTypes.js';

// Ids from the first hour of the platform's epoch, before any account existed: a receiver's lookups find nobody real.
const USER = '10000000000000001';
const OTHER_USER = '10000000000000002';
const ROLE = '10000000000000003';
const CHANNEL = '10000000000000004';
const REASON = 'Example event sent from the console';

/**
 * The `data` of an example event of each type, as its documented schema (src/events/contract.ts) has it: what a
 * console test event of that type carries, dated `at`.
 */
export function exampleEventData(type: EventType, at: Date, endpointId: number): EventDataByType[EventType] {
  const when = at.toISOString();
  const examples: { [K in EventType]: EventDataByType[K] } = {
    'bank.transaction': { transactionId: 0, userId: USER, type: 'api', amount: 100, balanceAfter: 1100, reason: REASON, counterpartyId: null, actorId: OTHER_USER, createdAt: when },
    'levels.levelUp': { userId: USER, level: 5, previousLevel: 4, source: 'activity' },
    'shop.purchase': {
      purchaseId: 0,
      userId: USER,
      item: { id: 1, name: 'Example item', emoji: null, type: 'role' },
      store: { id: null, name: null },
      price: 250,
      status: 'owned',
      roleId: ROLE,
      expiresAt: null,
      createdAt: when,
    },
    'shop.refund': { purchaseId: 0, userId: USER, item: { id: 1, name: 'Example item', emoji: null, type: 'role' }, price: 250, refundedBy: OTHER_USER, refundedAt: when },
    'tickets.opened': { ticketNo: 0, userId: USER, panelId: null, subject: REASON, source: 'command', channelId: CHANNEL, isThread: false, openedAt: when },
    'tickets.closed': { ticketNo: 0, userId: USER, closedBy: OTHER_USER, closeReason: REASON, closeType: 'manual', hasTranscript: false, closedAt: when },
    'members.joined': { userId: USER, username: 'example-member', bot: false, inviterId: OTHER_USER, inviteCode: 'example', joinedAt: when },
    'members.left': { userId: USER, username: 'example-member', reason: 'left', leftAt: when },
    'giveaways.ended': { giveawayId: 0, prize: 'Example prize', channelId: CHANNEL, messageUrl: null, winnerIds: [USER], entrants: 1, entries: 1, endedAt: when },
    'moderation.caseCreated': {
      caseNumber: 0,
      action: 'warn',
      userId: USER,
      moderatorId: OTHER_USER,
      reason: REASON,
      durationSeconds: null,
      source: 'console',
      expiresAt: null,
      createdAt: when,
    },
    'applications.submitted': {
      submissionNumber: 0,
      formId: null,
      formTitle: 'Example form',
      userId: USER,
      answers: [{ id: 'q1', type: 'short', label: 'Why?', value: REASON }],
      submittedAt: when,
    },
    'appeals.submitted': { appealNumber: 0, userId: USER, banCaseNumber: null, answers: [{ id: 'q1', type: 'paragraph', label: 'Why?', value: REASON }], createdAt: when },
    'webhook.test': { endpointId, message: 'This is a test event sent by an operator.' },
  };
  return examples[type];
}

import type { Kysely } from 'kysely';
import { listPublicAppealMessages, type AppealMessageRecord, type AppealRecord } from '../../db/appeals/appeals.js';
import type { Database } from '../../db/schema.js';
import type { AppealBody, AppealDetailBody } from './contract.js';

export function toAppealBody(a: AppealRecord): AppealBody {
  return {
    number: a.number,
    userId: a.userId,
    userTag: a.userTag,
    status: a.status,
    banCaseNumber: a.banCaseNumber,
    claimedBy: a.claimedBy,
    decidedBy: a.decidedBy,
    decidedAt: a.decidedAt?.toISOString() ?? null,
    reason: a.reason,
    createdAt: a.createdAt.toISOString(),
    lastActivityAt: a.lastActivityAt?.toISOString() ?? null,
  };
}

export type AppealFields = Omit<AppealDetailBody, 'messages'>;

/** The appeal as the API's detail shows it, without its conversation. */
export function toAppealFields(a: AppealRecord): AppealFields {
  return { ...toAppealBody(a), banReason: a.banReason, answers: a.answers, applying: a.applying, failedAction: a.failedAction };
}

export const toAppealMessageBody = (m: AppealMessageRecord) => ({ author: m.author, authorId: m.authorId, text: m.text, createdAt: m.createdAt.toISOString() });

/** The appeal as the API shows it, with its conversation; internal staff notes are never included. */
export async function toAppealDetailBody(db: Kysely<Database>, a: AppealRecord): Promise<AppealDetailBody> {
  const messages = await listPublicAppealMessages(db, a.guildId, a.number);
  // The fields in the order the API has always sent them, the conversation before `applying`.
  const { applying, failedAction, ...head } = toAppealFields(a);
  return { ...head, messages: messages.map(toAppealMessageBody), applying, failedAction };
}

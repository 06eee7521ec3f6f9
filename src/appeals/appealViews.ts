import type { Kysely } from 'kysely';
import { listPublicAppealMessages, type AppealRecord } from '../../db/appeals/appeals.js';
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

/** The appeal as the API shows it, with its conversation; internal staff notes are never included. */
export async function toAppealDetailBody(db: Kysely<Database>, a: AppealRecord): Promise<AppealDetailBody> {
  const messages = await listPublicAppealMessages(db, a.guildId, a.number);
  return {
    ...toAppealBody(a),
    banReason: a.banReason,
    answers: a.answers,
    messages: messages.map((m) => ({ ...m, createdAt: m.createdAt.toISOString() })),
    applying: a.applying,
    failedAction: a.failedAction,
  };
}

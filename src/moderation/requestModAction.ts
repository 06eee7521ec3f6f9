import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { insertModAction, type ModActionRecord, type ModActionRequest } from '../../db/moderation/actions.js';
import type { Database } from '../../db/schema.js';
import type { ModActionType } from './refusalRules.js';

export interface ModActionAsked {
  guildId: string;
  userId: string;
  action: ModActionType;
  apiKeyId: number;
  request: Partial<ModActionRequest>;
  requestedAt: Date;
}

const newActionId = () => `mda_${randomBytes(12).toString('base64url')}`;

/**
 * Accepts an action asked through an API key as `pending` in the caller's transaction; its workflow checks
 * the rules against the platform as it then stands and carries it out (modActionOperation).
 */
export async function requestModAction(trx: Kysely<Database>, asked: ModActionAsked): Promise<ModActionRecord> {
  const record: ModActionRecord = {
    actionId: newActionId(),
    guildId: asked.guildId,
    userId: asked.userId,
    action: asked.action,
    apiKeyId: asked.apiKeyId,
    source: 'api',
    request: {
      reason: asked.request.reason ?? null,
      evidence: asked.request.evidence ?? [],
      durationSeconds: asked.request.durationSeconds ?? null,
      deleteMessageSeconds: asked.request.deleteMessageSeconds ?? 0,
    },
    status: 'pending',
    caseNumber: null,
    error: null,
    requestedAt: asked.requestedAt,
    finishedAt: null,
    targetMember: null,
  };
  await insertModAction(trx, record);
  return record;
}

import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { insertModAction, type ModActionRecord, type ModActionRequest } from '../../db/moderation/actions.js';
import type { Database } from '../../db/schema.js';
import type { ModActionType } from './refusalRules.js';

/**
 * Who asks for an action: an API key (source `api`, in the name of its creator), or a staff member in their own name
 * who used a command on the platform (source `command`, the default) or the web console (`via: 'console'`).
 */
export type ModActionAsker = { apiKeyId: number } | { moderatorId: string; via?: 'command' | 'console' };

export interface ModActionAsked {
  guildId: string;
  userId: string;
  action: ModActionType;
  by: ModActionAsker;
  request: Partial<ModActionRequest>;
  requestedAt: Date;
}

const newActionId = () => `mda_${randomBytes(12).toString('base64url')}`;

/**
 * Accepts an action as `pending` in the caller's transaction; its workflow checks the rules against the platform
 * as it then stands (the moderator's permissions and roles, the bot's, the target's) and carries it out
 * (modActionOperation).
 */
export async function requestModAction(trx: Kysely<Database>, asked: ModActionAsked): Promise<ModActionRecord> {
  const { by } = asked;
  const record: ModActionRecord = {
    actionId: newActionId(),
    guildId: asked.guildId,
    userId: asked.userId,
    action: asked.action,
    apiKeyId: 'apiKeyId' in by ? by.apiKeyId : null,
    moderatorId: 'moderatorId' in by ? by.moderatorId : null,
    source: 'apiKeyId' in by ? 'api' : (by.via ?? 'command'),
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

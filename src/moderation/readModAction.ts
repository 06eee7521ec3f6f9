import type { Kysely } from 'kysely';
import { findModAction, type ModActionRecord } from '../../db/moderation/actions.js';
import type { Database } from '../../db/schema.js';
import { actionNotFound } from '../core/errors.js';
import type { TemporalGateway } from '../core/temporal/gateway.js';
import { readOperationStatus } from '../core/temporal/operation.js';
import type { ModActionBody } from './contract.js';
import { modActionOperation, modActionStatus } from './modActionOperation.js';

function toModActionBody(record: ModActionRecord, live: Pick<ModActionBody, 'status' | 'caseNumber' | 'error'>): ModActionBody {
  return { actionId: record.actionId, action: record.action, userId: record.userId, ...live, requestedAt: record.requestedAt.toISOString() };
}

/** An action just accepted: its workflow starts after the commit. */
export const pendingModActionBody = (record: ModActionRecord): ModActionBody => toModActionBody(record, { status: 'pending', caseNumber: null, error: null });

/**
 * A moderation action and its status: the durable record once it ended, the workflow while it runs. Only the API key
 * that asked sees it; any other gets ACTION_NOT_FOUND.
 */
export async function readModAction(
  deps: { db: Kysely<Database>; temporal: TemporalGateway },
  asker: { guildId: string; apiKeyId: number },
  actionId: string,
): Promise<ModActionBody> {
  const record = await findModAction(deps.db, actionId);
  if (!record || record.apiKeyId !== asker.apiKeyId || record.guildId !== asker.guildId) throw actionNotFound();
  if (record.status === 'done' || record.status === 'failed') {
    return toModActionBody(record, { status: record.status, caseNumber: record.caseNumber, error: record.error });
  }
  const live = await readOperationStatus(deps.temporal, modActionOperation.workflowId(record), modActionStatus);
  return toModActionBody(record, {
    status: live.status,
    caseNumber: live.status === 'done' ? live.caseNumber : null,
    error: live.status === 'failed' ? live.error : null,
  });
}

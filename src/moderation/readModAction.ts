import type { Kysely } from 'kysely';
import { findModAction, type ModActionRecord } from '../../db/moderation/actions.js';
import type { Database } from '../../db/schema.js';
import { actionNotFound } from '../core/errors.js';
import type { TemporalGateway } from '../core/temporal/gateway.js';
import { readPolledStatus } from '../core/temporal/polledStatus.js';
import type { ModActionBody } from './contract.js';
import { modActionStatus, type ModActionStatus } from './modActionOperation.js';

function toModActionBody(record: ModActionRecord, status: ModActionStatus): ModActionBody {
  return { actionId: record.actionId, action: record.action, userId: record.userId, ...status, requestedAt: record.requestedAt.toISOString() };
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
  return toModActionBody(record, await readPolledStatus(deps.temporal, modActionStatus, record));
}

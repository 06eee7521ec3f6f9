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

/** Who reads an action: the API key that asked for it, or the server's managers in the console (its console actions). */
export type ModActionReader = { guildId: string; apiKeyId: number } | { guildId: string; console: true };

const asked = (record: ModActionRecord, reader: ModActionReader) =>
  record.guildId === reader.guildId && ('apiKeyId' in reader ? record.apiKeyId === reader.apiKeyId : record.source === 'console');

/**
 * A moderation action and its status: the durable record once it ended, the workflow while it runs. Only the API key
 * that asked sees it (the console: only actions asked in the console); any other gets ACTION_NOT_FOUND.
 */
export async function readModAction(
  deps: { db: Kysely<Database>; temporal: TemporalGateway },
  reader: ModActionReader,
  actionId: string,
): Promise<ModActionBody> {
  const record = await findModAction(deps.db, actionId);
  if (!record || !asked(record, reader)) throw actionNotFound();
  return toModActionBody(record, await readPolledStatus(deps.temporal, modActionStatus, record));
}

import type { Kysely } from 'kysely';
import { findXpChange, type XpChangeRecord } from '../../db/levels/xpChanges.js';
import type { Database } from '../../db/schema.js';
import { xpChangeNotFound } from '../core/errors.js';
import type { TemporalGateway } from '../core/temporal/gateway.js';
import { readOperationStatus } from '../core/temporal/operation.js';
import type { XpChangeBody } from './contract.js';
import { xpChangeOperation, xpChangeStatus } from './xpChangeOperation.js';

export function toXpChangeBody(record: XpChangeRecord, live: Pick<XpChangeBody, 'status' | 'result' | 'error'>): XpChangeBody {
  return {
    changeId: record.changeId,
    userId: record.userId,
    type: record.type,
    unit: record.unit,
    amount: record.amount,
    ...live,
    createdAt: record.createdAt.toISOString(),
    processedAt: record.processedAt?.toISOString() ?? null,
  };
}

/** A change just accepted: its workflow starts after the commit. */
export const pendingXpChangeBody = (record: XpChangeRecord): XpChangeBody => toXpChangeBody(record, { status: 'pending', result: null, error: null });

/**
 * An XP change and its status: the durable record once it ended, the workflow while it runs. Only the API key that
 * asked sees it; any other gets XP_CHANGE_NOT_FOUND.
 */
export async function readXpChange(
  deps: { db: Kysely<Database>; temporal: TemporalGateway },
  asker: { guildId: string; apiKeyId: number },
  changeId: string,
): Promise<XpChangeBody> {
  const record = await findXpChange(deps.db, changeId);
  if (!record || record.apiKeyId !== asker.apiKeyId || record.guildId !== asker.guildId) throw xpChangeNotFound();
  if (record.status === 'done' || record.status === 'failed') {
    return toXpChangeBody(record, { status: record.status, result: record.result, error: record.error });
  }
  const live = await readOperationStatus(deps.temporal, xpChangeOperation.workflowId(record), xpChangeStatus);
  if (live.status === 'done') return toXpChangeBody(record, { status: 'done', result: live.result, error: null });
  if (live.status === 'failed') return toXpChangeBody(record, { status: 'failed', result: null, error: live.error });
  return toXpChangeBody(record, { status: live.status, result: null, error: null });
}

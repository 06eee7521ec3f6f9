import type { Kysely } from 'kysely';
import { findXpChange, type XpChangeRecord } from '../../db/levels/xpChanges.js';
import type { Database } from '../../db/schema.js';
import { xpChangeNotFound } from '../core/errors.js';
import type { TemporalGateway } from '../core/temporal/gateway.js';
import { readPolledStatus } from '../core/temporal/polledStatus.js';
import type { XpChangeBody } from './contract.js';
import { xpChangeStatus, type XpChangeStatus } from './xpChangeOperation.js';

function toXpChangeBody(record: XpChangeRecord, status: XpChangeStatus): XpChangeBody {
  return {
    changeId: record.changeId,
    userId: record.userId,
    type: record.type,
    unit: record.unit,
    amount: record.amount,
    ...status,
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
  return toXpChangeBody(record, await readPolledStatus(deps.temporal, xpChangeStatus, record));
}

import type { Kysely } from 'kysely';
import { lockXpChange, storeXpChangeResult, type XpChangeResult } from '../../db/levels/xpChanges.js';
import type { Database } from '../../db/schema.js';
import { writeAudit } from '../../db/shared/audit.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { moveXp } from './moveXp.js';

/**
 * Applies an accepted change with its audit row and level-up event in the caller's transaction. The stored
 * result marks it applied: a retry after a commit whose answer was lost gets that result and no event.
 * Undefined when no such change exists.
 */
export async function applyPendingXpChange(
  trx: Kysely<Database>,
  changeId: string,
  at: Date,
): Promise<{ result: XpChangeResult; events: OutboxEvent[] } | undefined> {
  const change = await lockXpChange(trx, changeId);
  if (!change) return undefined;
  if (change.result) return { result: change.result, events: [] };
  const { result, events } = await moveXp(trx, { guildId: change.guildId, userId: change.userId, change, at });
  await storeXpChangeResult(trx, changeId, result);
  await writeAudit(trx, {
    guildId: change.guildId,
    actor: 'apiKeyId' in change.asker ? { type: 'api_key', apiKeyId: change.asker.apiKeyId, userId: null } : { type: 'console_user', userId: change.asker.consoleUserId },
    action: 'levels.xpChange',
    target: { type: 'member', id: change.userId },
    data: { changeId, type: change.type, unit: change.unit, amount: change.amount, reason: change.reason, ...result },
  });
  return { result, events };
}

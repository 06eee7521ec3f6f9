import type { Kysely } from 'kysely';
import { claimFlowEffect, storeFlowEffect } from '../../db/flows/effects.js';
import type { Database } from '../../db/schema.js';
import { writeAudit } from '../../db/shared/audit.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { moveXp, type XpMoveResult } from '../levels/moveXp.js';
import type { FlowEffectRef } from './applyFlowBankChange.js';
import type { XpParamsValue } from './effectParams.js';

/**
 * An XP change node, in the caller's transaction, on the levels curve: the audit row and, on a level reached,
 * `levels.levelUp` with source `admin` (a staff-made change, as the spec's sources go); once per run and node.
 */
export async function applyFlowXpChange(
  trx: Kysely<Database>,
  ref: FlowEffectRef,
  p: XpParamsValue,
  at: Date,
): Promise<{ result: XpMoveResult; events: OutboxEvent[] }> {
  const done = await claimFlowEffect(trx, ref.executionId, ref.nodeId);
  if (done !== undefined) return { result: done as XpMoveResult, events: [] };
  const { result, events } = await moveXp(trx, { guildId: ref.guildId, userId: p.userId, change: { type: p.action, unit: p.unit, amount: p.amount }, at });
  await storeFlowEffect(trx, ref.executionId, ref.nodeId, result);
  await writeAudit(trx, {
    guildId: ref.guildId,
    actor: { type: 'system' },
    action: 'levels.xpChange',
    target: { type: 'member', id: p.userId },
    data: { ...p, ...result, flowRun: ref.executionId, node: ref.nodeId },
  });
  return { result, events };
}

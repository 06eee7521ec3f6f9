import type { Kysely } from 'kysely';
import { lockXp, setXp } from '../../db/levels/members.js';
import type { Database } from '../../db/schema.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { recordEvent } from '../events/outbox.js';
import { applyXpChange, levelFromXp, type XpChangeType, type XpUnit } from './curve.js';

export interface XpMoveResult {
  previousLevel: number;
  level: number;
  xp: number;
}

/**
 * Every staff-made XP change goes through here, in the caller's transaction: the member's row locked, the change
 * applied on the curve and, when a level is reached, `levels.levelUp` with source `admin`.
 */
export async function moveXp(
  trx: Kysely<Database>,
  m: { guildId: string; userId: string; change: { type: XpChangeType; unit: XpUnit; amount: number }; at: Date },
): Promise<{ result: XpMoveResult; events: OutboxEvent[] }> {
  const previousXp = await lockXp(trx, m.guildId, m.userId);
  const xp = applyXpChange(previousXp, m.change);
  const result = { previousLevel: levelFromXp(previousXp).level, level: levelFromXp(xp).level, xp };
  await setXp(trx, m.guildId, m.userId, xp, m.at);
  if (result.level <= result.previousLevel) return { result, events: [] };
  const levelUp = await recordEvent(trx, {
    type: 'levels.levelUp',
    guildId: m.guildId,
    createdAt: m.at,
    data: { userId: m.userId, level: result.level, previousLevel: result.previousLevel, source: 'admin' },
  });
  return { result, events: [levelUp] };
}

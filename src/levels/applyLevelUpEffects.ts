import type { Kysely } from 'kysely';
import { findLevelUpEffect, markLevelUpEffectApplied, type LevelEffectRefusal } from '../../db/levels/levelUpEffects.js';
import type { Database } from '../../db/schema.js';
import type { Platform } from '../core/platform.js';
import { applyLevelMoveEffects } from './levelUpEffects.js';

/**
 * The recorded effects of a level reached from activity (recordActivity.ts), applied once: the reward roles and
 * the announcement (applyLevelMoveEffects, keyed `level-up/<event>` as the event that records the level), then
 * marked applied with what the platform refused. Effects already applied are not applied again; an outage throws
 * before the mark, and the retry repeats the idempotent effects. Nothing to do for an event with no effects.
 */
export async function applyLevelUpEffects(
  db: Kysely<Database>,
  platform: Platform,
  eventId: string,
  at: Date,
): Promise<{ refused: LevelEffectRefusal[] }> {
  const effect = await findLevelUpEffect(db, eventId);
  if (!effect) return { refused: [] };
  if (effect.appliedAt) return { refused: effect.refused ?? [] };
  const { refused } = await applyLevelMoveEffects(db, platform, { ...effect, idempotencyKey: `level-up/${eventId}` });
  await markLevelUpEffectApplied(db, eventId, refused, at);
  return { refused };
}

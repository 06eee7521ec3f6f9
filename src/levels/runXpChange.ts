import type { Kysely } from 'kysely';
import { findXpChange, finishXpChange, type XpChangeResult } from '../../db/levels/xpChanges.js';
import type { Database } from '../../db/schema.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { applyPendingXpChange } from './applyPendingXpChange.js';

export interface XpChangeRun {
  result: XpChangeResult;
  events: OutboxEvent[];
  /** False when the level moved: the change stays processing until its reward roles and announcement are applied. */
  finished: boolean;
}

/**
 * The whole change in one transaction: applied like applyPendingXpChange and, when its level did not move (nothing
 * left to do), recorded done in the same transaction. `checkTarget` runs only before the change is applied: a retry
 * after the commit finds it applied and skips it, so a target who left since then does not undo an applied change.
 * Undefined when no such change exists.
 */
export async function runXpChange(
  db: Kysely<Database>,
  changeId: string,
  at: Date,
  checkTarget: () => Promise<void>,
): Promise<XpChangeRun | undefined> {
  const change = await findXpChange(db, changeId);
  if (!change) return undefined;
  if (!change.result) await checkTarget();
  return db.transaction().execute(async (trx) => {
    const applied = await applyPendingXpChange(trx, changeId, at);
    if (!applied) return undefined;
    const finished = applied.result.level === applied.result.previousLevel;
    if (finished) await finishXpChange(trx, changeId, { status: 'done', result: applied.result }, at);
    return { ...applied, finished };
  });
}

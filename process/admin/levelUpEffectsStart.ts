import type { LevelUpEffectRef } from '../../db/levels/levelUpEffects.js';
import { launchOperation } from '../../src/core/temporal/operation.js';
import { levelUpEffectsOperation } from '../../src/levels/levelUpEffectsOperation.js';
import type { AdminContext, FanoutStart } from './command.js';

export const EFFECTS_TEXT: Record<Exclude<FanoutStart, 'none'>, string> = {
  started: 'started on the worker (workflow level-up/<guild>/<event>)',
  relay: "left to the worker's start relay (Temporal not reachable from here; they apply within seconds once a worker runs)",
};

/**
 * Starts the workflows of levels reached by a command, as the start relay would; a failure leaves them to the relay
 * (they are recorded with the XP), so the command's work stands.
 */
export async function startLevelUpEffects(ctx: AdminContext, levelUps: LevelUpEffectRef[]): Promise<FanoutStart> {
  if (levelUps.length === 0) return 'none';
  if (!ctx.temporal) return 'relay';
  try {
    const deps = { db: ctx.db, temporal: await ctx.temporal(), clock: ctx.clock };
    for (const levelUp of levelUps) await launchOperation(deps, levelUpEffectsOperation, levelUp);
    return 'started';
  } catch {
    return 'relay';
  }
}

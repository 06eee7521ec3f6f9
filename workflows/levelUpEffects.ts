import { proxyActivities } from '@temporalio/workflow';
import type { LevelsActivities } from '../activities/levels.js';
import type { LevelEffectRefusal, LevelUpEffectsInput } from '../src/levels/ids.js';
import { PLATFORM_EFFECT } from './activityProfiles.js';

// Retried while the platform is out (no attempt limit, as the XP change's effects); refusals come back as values.
const effects = proxyActivities<LevelsActivities>(PLATFORM_EFFECT);

/** The reward roles and announcement of one level reached from activity (messages), applied once. */
export async function levelUpEffects({ eventId }: LevelUpEffectsInput): Promise<{ refused: LevelEffectRefusal[] }> {
  return effects.applyLevelUpEffects(eventId);
}

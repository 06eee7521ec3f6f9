import type { Clock } from '../core/clock.js';
import type { Platform } from '../core/platform.js';
import { readModerationSituation } from './moderationSituation.js';
import { moderationRefusal, type ModActionType, type ModRefusal } from './refusalRules.js';

/**
 * What the rules would say of an action taken now in a staff member's name, read from the platform as it stands: the
 * console shows a refusal on its form at once instead of accepting an action bound to fail. The action's workflow
 * still checks the same rules when it runs (beginModAction), as the platform then stands.
 */
export async function foreseeModRefusal(
  deps: { platform: Platform; clock: Clock },
  a: { guildId: string; userId: string; action: ModActionType; moderatorId: string },
): Promise<ModRefusal | undefined> {
  const situation = await readModerationSituation(deps.platform, {
    guildId: a.guildId,
    action: a.action,
    targetUserId: a.userId,
    moderatorId: a.moderatorId,
    now: deps.clock.now(),
  });
  return situation ? moderationRefusal(situation) : 'BOT_MISSING_PERMISSIONS';
}

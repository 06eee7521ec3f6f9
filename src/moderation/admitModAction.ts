import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../core/clock.js';
import { memberNotFound } from '../core/errors.js';
import type { Platform } from '../core/platform.js';
import { admitWithinMinuteLimit } from '../requests/rateLimitWindows.js';
import type { ModActionType } from './refusalRules.js';

/** Spec: Limits, moderation write actions. */
export const MOD_ACTIONS_PER_MINUTE = 10;

/** Warn, timeout, untimeout and kick need the target to be a member now; ban and unban do not. */
const ON_MEMBERS_ONLY: ReadonlySet<ModActionType> = new Set(['warn', 'timeout', 'untimeout', 'kick']);

/**
 * What an action request must pass before it is stored (asked of the platform and counted before the write's
 * transaction opens): a target who is a member where the action needs one, and at most 10 actions a minute per key.
 */
export async function admitModAction(
  deps: { db: Kysely<Database>; platform: Platform; clock: Clock },
  request: { guildId: string; userId: string; action: ModActionType; apiKeyId: number },
): Promise<void> {
  if (ON_MEMBERS_ONLY.has(request.action) && !(await deps.platform.getMember(request.guildId, request.userId))) throw memberNotFound();
  const message = `At most ${MOD_ACTIONS_PER_MINUTE} moderation actions per minute per key.`;
  await admitWithinMinuteLimit(deps, `moderation-actions:${request.apiKeyId}`, MOD_ACTIONS_PER_MINUTE, message);
}

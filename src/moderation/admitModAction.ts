import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Clock } from '../core/clock.js';
import { memberNotFound } from '../core/errors.js';
import type { Platform } from '../core/platform.js';
import { admitWithinMinuteLimit } from '../requests/rateLimitWindows.js';
import type { ModActionType } from './refusalRules.js';
import type { ModActionAsker } from './requestModAction.js';

/** Spec: Limits, moderation write actions (per key; a staff member's commands count alike, per member). */
export const MOD_ACTIONS_PER_MINUTE = 10;

/** Warn, timeout, untimeout and kick need the target to be a member now; ban and unban do not. */
const ON_MEMBERS_ONLY: ReadonlySet<ModActionType> = new Set(['warn', 'timeout', 'untimeout', 'kick']);

/**
 * What an action request must pass before it is stored (asked of the platform and counted before the write's
 * transaction opens): a target who is a member where the action needs one, and at most 10 actions a minute per key
 * (or per staff member, for commands).
 */
export async function admitModAction(
  deps: { db: Kysely<Database>; platform: Platform; clock: Clock },
  request: { guildId: string; userId: string; action: ModActionType; by: ModActionAsker },
): Promise<void> {
  if (ON_MEMBERS_ONLY.has(request.action) && !(await deps.platform.getMember(request.guildId, request.userId))) throw memberNotFound();
  const { by } = request;
  const [bucket, message] =
    'apiKeyId' in by
      ? [`moderation-actions:${by.apiKeyId}`, `At most ${MOD_ACTIONS_PER_MINUTE} moderation actions per minute per key.`]
      : [`moderation-actions:${request.guildId}:member:${by.moderatorId}`, `At most ${MOD_ACTIONS_PER_MINUTE} moderation actions per minute per moderator.`];
  await admitWithinMinuteLimit(deps, bucket, MOD_ACTIONS_PER_MINUTE, message);
}

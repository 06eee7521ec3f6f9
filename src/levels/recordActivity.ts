import type { Kysely } from 'kysely';
import { findGuild } from '../../db/guild/guilds.js';
import { addActivity, lockXp } from '../../db/levels/members.js';
import type { Database } from '../../db/schema.js';
import { writeAudit, type AuditActor } from '../../db/shared/audit.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { recordEvent } from '../events/outbox.js';
import { MAX_ACTIVITY_PER_REPORT, xpAfterActivity, type Activity } from './activityXp.js';
import { levelFromXp } from './curve.js';
import { Refusal } from '../core/refusal.js';

export class ActivityRefusal extends Refusal<'GUILD_NOT_FOUND' | 'FEATURE_DISABLED' | 'INVALID_ACTIVITY'> {}

export interface ActivityReport extends Activity {
  guildId: string;
  /** A human member of the server (the caller checks it on the platform, as the bot only counts members' messages). */
  userId: string;
  at: Date;
  actor: AuditActor;
}

export interface ActivityResult {
  userId: string;
  /** What the activity earned (less than its worth only at the XP ceiling). */
  xpEarned: number;
  xp: number;
  previousLevel: number;
  level: number;
  /** The member's totals after this activity. */
  messages: number;
  voiceMinutes: number;
}

/**
 * Counts a member's messages and voice minutes as the bot does, in the caller's transaction: the counters and
 * XP (docs/api-decisions.md, Levels), an audit row, and `levels.levelUp` with source `activity` when a level
 * is reached. Reward roles and the announcement follow on the platform (levelUpEffects.ts).
 */
export async function recordActivity(trx: Kysely<Database>, r: ActivityReport): Promise<{ result: ActivityResult; events: OutboxEvent[] }> {
  const counts = [r.messages, r.voiceMinutes];
  if (counts.some((n) => !Number.isSafeInteger(n) || n < 0 || n > MAX_ACTIVITY_PER_REPORT) || counts.every((n) => n === 0)) {
    throw new ActivityRefusal('INVALID_ACTIVITY', `Messages and voice minutes are whole numbers from 0 to ${MAX_ACTIVITY_PER_REPORT}, not both 0.`);
  }
  const guild = await findGuild(trx, r.guildId);
  if (!guild) throw new ActivityRefusal('GUILD_NOT_FOUND', `Guild ${r.guildId} does not exist.`);
  if (!guild.features.includes('levels')) throw new ActivityRefusal('FEATURE_DISABLED', `The Levels feature is disabled in guild ${r.guildId}.`);

  const previousXp = await lockXp(trx, r.guildId, r.userId);
  const xp = xpAfterActivity(previousXp, r);
  const totals = await addActivity(trx, r.guildId, r.userId, { messages: r.messages, voiceMinutes: r.voiceMinutes, xp, at: r.at });
  const result: ActivityResult = {
    userId: r.userId,
    xpEarned: xp - previousXp,
    xp,
    previousLevel: levelFromXp(previousXp).level,
    level: levelFromXp(xp).level,
    messages: totals.messages,
    voiceMinutes: totals.voiceMinutes,
  };
  await writeAudit(trx, {
    guildId: r.guildId,
    actor: r.actor,
    action: 'levels.activity',
    target: { type: 'member', id: r.userId },
    data: { messages: r.messages, voiceMinutes: r.voiceMinutes, xpEarned: result.xpEarned, previousLevel: result.previousLevel, level: result.level },
  });
  const events: OutboxEvent[] = [];
  if (result.level > result.previousLevel) {
    events.push(
      await recordEvent(trx, {
        type: 'levels.levelUp',
        guildId: r.guildId,
        createdAt: r.at,
        data: { userId: r.userId, level: result.level, previousLevel: result.previousLevel, source: 'activity' },
      }),
    );
  }
  return { result, events };
}

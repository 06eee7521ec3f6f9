import type { Kysely } from 'kysely';
import { findGuild } from '../../db/guild/guilds.js';
import { addActivities as addActivityTotals, lockActivityMembers, type ActivityTotalsChange, type LockedActivityMember } from '../../db/levels/activityBatch.js';
import { insertLevelUpEffects, type LevelUpEffectRef } from '../../db/levels/levelUpEffects.js';
import type { Database } from '../../db/schema.js';
import { writeAudits, type AuditActor } from '../../db/shared/audit.js';
import type { OutboxEvent } from '../events/eventTypes.js';
import { recordEvent } from '../events/outbox.js';
import { MAX_ACTIVITY_PER_REPORT, xpAfterActivity, type Activity, type XpRates } from './activityXp.js';
import { findLevelSettings } from '../../db/levels/members.js';
import { levelFromXp } from './curve.js';
import { Refusal } from '../core/refusal.js';

export class ActivityRefusal extends Refusal<'GUILD_NOT_FOUND' | 'FEATURE_DISABLED' | 'INVALID_ACTIVITY'> {}

export interface ActivityReport extends Activity {
  guildId: string;
  /** A human member of the server (the caller checks it on the platform, as the bot only counts members' messages). */
  userId: string;
  at: Date;
  actor: AuditActor;
  /** A message that earned XP: the member's message cooldown starts again at `at` (countMessage.ts). */
  startsCooldown?: boolean;
  /** Where the activity was (a message's channel): a level it reaches is announced there under `current` settings. */
  channelId?: string | null;
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
 * is reached, with its reward roles and announcement recorded pending (`levelUps`: workflow `level-up/...`
 * applies them, levelUpEffectsOperation.ts).
 */
export async function recordActivity(trx: Kysely<Database>, r: ActivityReport): Promise<{ result: ActivityResult } & RecordedActivities> {
  const { results, ...recorded } = await recordActivities(trx, r.guildId, [r]);
  return { result: results[0]!, ...recorded };
}

interface RecordedActivities {
  /** The `levels.levelUp` events, in order. */
  events: OutboxEvent[];
  /** The levels reached, one a level-up event, their effects recorded pending. */
  levelUps: LevelUpEffectRef[];
}

/**
 * recordActivity for several reports of one server at once, in order: the same rows, audit rows and events as one
 * call per report, in a few statements. Refuses a server that does not exist or has Levels off.
 */
export async function recordActivities(trx: Kysely<Database>, guildId: string, reports: ActivityReport[]): Promise<{ results: ActivityResult[] } & RecordedActivities> {
  for (const r of reports) {
    const counts = [r.messages, r.voiceMinutes];
    if (counts.some((n) => !Number.isSafeInteger(n) || n < 0 || n > MAX_ACTIVITY_PER_REPORT) || counts.every((n) => n === 0)) {
      throw new ActivityRefusal('INVALID_ACTIVITY', `Messages and voice minutes are whole numbers from 0 to ${MAX_ACTIVITY_PER_REPORT}, not both 0.`);
    }
  }
  if (reports.length === 0) return { results: [], events: [], levelUps: [] };
  const guild = await findGuild(trx, guildId);
  if (!guild) throw new ActivityRefusal('GUILD_NOT_FOUND', `Guild ${guildId} does not exist.`);
  if (!guild.features.includes('levels')) throw new ActivityRefusal('FEATURE_DISABLED', `The Levels feature is disabled in guild ${guildId}.`);
  const rates = await findLevelSettings(trx, guildId);
  return addActivities(trx, guildId, reports, await lockActivityMembers(trx, guildId, reports.map((r) => r.userId)), rates);
}

/**
 * The writes of recordActivities for reports already checked (countMessages: one message each, in a server with
 * Levels on), whose members' rows the caller locked in this transaction, at the server's XP rates.
 */
export async function addActivities(
  trx: Kysely<Database>,
  guildId: string,
  reports: ActivityReport[],
  rows: Map<string, LockedActivityMember>,
  rates: XpRates,
): Promise<{ results: ActivityResult[] } & RecordedActivities> {
  const xpOf = new Map([...rows].map(([userId, m]) => [userId, m.xp]));
  const changes = new Map<string, ActivityTotalsChange>();
  const steps = reports.map((r) => {
    const previousXp = xpOf.get(r.userId)!;
    const xp = xpAfterActivity(previousXp, r, rates);
    xpOf.set(r.userId, xp);
    const change = changes.get(r.userId) ?? { userId: r.userId, messages: 0, voiceMinutes: 0, xp, at: r.at, lastMessageXpAt: null };
    changes.set(r.userId, { ...change, messages: change.messages + r.messages, voiceMinutes: change.voiceMinutes + r.voiceMinutes, xp, at: r.at, lastMessageXpAt: r.startsCooldown ? r.at : change.lastMessageXpAt });
    return { r, previousXp, xp };
  });
  const totals = await addActivityTotals(trx, guildId, [...changes.values()]);
  // Each report's totals as they were right after it: the final totals less what the member's later reports added.
  const after = new Map([...totals].map(([userId, t]) => [userId, { ...t }]));
  const results: ActivityResult[] = [];
  for (const { r, previousXp, xp } of [...steps].reverse()) {
    const t = after.get(r.userId)!;
    results.unshift({ userId: r.userId, xpEarned: xp - previousXp, xp, previousLevel: levelFromXp(previousXp).level, level: levelFromXp(xp).level, messages: t.messages, voiceMinutes: t.voiceMinutes });
    after.set(r.userId, { messages: t.messages - r.messages, voiceMinutes: t.voiceMinutes - r.voiceMinutes });
  }
  await writeAudits(
    trx,
    results.map((result, i) => ({
      guildId,
      actor: reports[i]!.actor,
      action: 'levels.activity',
      target: { type: 'member', id: result.userId },
      data: { messages: reports[i]!.messages, voiceMinutes: reports[i]!.voiceMinutes, xpEarned: result.xpEarned, previousLevel: result.previousLevel, level: result.level },
    })),
  );
  const events: OutboxEvent[] = [];
  const levelUps: Array<LevelUpEffectRef & { channelId: string | null; createdAt: Date }> = [];
  for (const [i, result] of results.entries()) {
    if (result.level <= result.previousLevel) continue;
    const { userId, level, previousLevel } = result;
    const event = await recordEvent(trx, { type: 'levels.levelUp', guildId, createdAt: reports[i]!.at, data: { userId, level, previousLevel, source: 'activity' } });
    events.push(event);
    levelUps.push({ eventId: event.id, guildId, userId, previousLevel, level, channelId: reports[i]!.channelId ?? null, createdAt: reports[i]!.at });
  }
  // In the XP's transaction: a level reached always gets its effects, once (the event id is their key).
  await insertLevelUpEffects(trx, levelUps);
  return { results, events, levelUps: levelUps.map(({ channelId: _c, createdAt: _, ...ref }) => ref) };
}

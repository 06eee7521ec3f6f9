import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../schema.js';
import type { LevelUpEffectsTable } from './tables.js';

/** A level move's effect the platform refused for good, with the refusal's code. */
export interface LevelEffectRefusal {
  effect: 'rewardRoles' | 'announcement';
  error: string;
}

/** The effects of one level reached from activity, keyed by its `levels.levelUp` event. */
export interface LevelUpEffectRecord {
  eventId: string;
  guildId: string;
  userId: string;
  previousLevel: number;
  level: number;
  /** The channel of the message that reached the level: where a `current` announcement goes; null for none. */
  channelId: string | null;
  createdAt: Date;
  appliedAt: Date | null;
  refused: LevelEffectRefusal[] | null;
}

export type LevelUpEffectRef = Pick<LevelUpEffectRecord, 'eventId' | 'guildId' | 'userId' | 'previousLevel' | 'level'>;

/** Records level-ups' effects as pending, in the transaction that moved the XP. */
export async function insertLevelUpEffects(
  trx: Kysely<Database>,
  effects: Array<LevelUpEffectRef & Pick<LevelUpEffectRecord, 'channelId' | 'createdAt'>>,
): Promise<void> {
  if (effects.length === 0) return;
  await trx
    .insertInto('level_up_effects')
    .values(
      effects.map((e) => ({
        event_id: e.eventId,
        guild_id: e.guildId,
        user_id: e.userId,
        previous_level: e.previousLevel,
        level: e.level,
        channel_id: e.channelId,
        created_at: e.createdAt,
        workflow_started_at: null,
        applied_at: null,
        refused: null,
      })),
    )
    .execute();
}

export async function findLevelUpEffect(db: Kysely<Database>, eventId: string): Promise<LevelUpEffectRecord | undefined> {
  const row = await db.selectFrom('level_up_effects').selectAll().where('event_id', '=', eventId).executeTakeFirst();
  return row && toRecord(row);
}

/** Marks the effects applied, with what the platform refused; only the first mark counts. */
export async function markLevelUpEffectApplied(db: Kysely<Database>, eventId: string, refused: LevelEffectRefusal[], at: Date): Promise<void> {
  await db
    .updateTable('level_up_effects')
    .set({ applied_at: at, refused: JSON.stringify(refused) })
    .where('event_id', '=', eventId)
    .where('applied_at', 'is', null)
    .execute();
}

export async function markLevelUpEffectStarted(db: Kysely<Database>, e: LevelUpEffectRef, at: Date): Promise<void> {
  await db.updateTable('level_up_effects').set({ workflow_started_at: at }).where('event_id', '=', e.eventId).where('workflow_started_at', 'is', null).execute();
}

/** Effects whose workflow start was not recorded, oldest first. */
export async function listUnstartedLevelUpEffects(db: Kysely<Database>, olderThan: Date, limit: number): Promise<LevelUpEffectRef[]> {
  const rows = await db
    .selectFrom('level_up_effects')
    .select(['event_id', 'guild_id', 'user_id', 'previous_level', 'level'])
    .where('workflow_started_at', 'is', null)
    .where('created_at', '<', olderThan)
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ eventId: r.event_id, guildId: r.guild_id, userId: r.user_id, previousLevel: r.previous_level, level: r.level }));
}

function toRecord(row: Selectable<LevelUpEffectsTable>): LevelUpEffectRecord {
  return {
    eventId: row.event_id,
    guildId: row.guild_id,
    userId: row.user_id,
    previousLevel: row.previous_level,
    level: row.level,
    channelId: row.channel_id,
    createdAt: row.created_at,
    appliedAt: row.applied_at,
    refused: row.refused as LevelEffectRefusal[] | null,
  };
}

import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

// The bulk statements of counted activity: a batch of a server's messages costs a few statements, not a few per message.

/** Claims these message ids as counted; returns the ones that were not counted before (a message delivered twice earns once). */
export async function claimCountedMessages(trx: Kysely<Database>, guildId: string, messageIds: string[], at: Date): Promise<Set<string>> {
  if (messageIds.length === 0) return new Set();
  const { rows } = await sql<{ message_id: string }>`
    INSERT INTO level_counted_messages (guild_id, message_id, counted_at)
    SELECT ${guildId}, id, ${at} FROM unnest(${messageIds}::text[]) AS id
    ON CONFLICT (guild_id, message_id) DO NOTHING
    RETURNING message_id`.execute(trx);
  return new Set(rows.map((r) => r.message_id));
}

/** Forgets the claims made before `before` (no gateway replay reaches that far back); returns how many. */
export async function purgeCountedMessagesBefore(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db.deleteFrom('level_counted_messages').where('counted_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export interface LockedActivityMember {
  xp: number;
  lastMessageXpAt: Date | null;
}

/**
 * The members' level rows, created when missing and locked until the transaction ends (in user id order, so two
 * batches never wait on each other in a cycle).
 */
export async function lockActivityMembers(trx: Kysely<Database>, guildId: string, userIds: string[]): Promise<Map<string, LockedActivityMember>> {
  const ids = [...new Set(userIds)].sort();
  if (ids.length === 0) return new Map();
  await sql`
    INSERT INTO level_members (guild_id, user_id, xp, last_xp_at)
    SELECT ${guildId}, id, 0, NULL FROM unnest(${ids}::text[]) AS id ORDER BY id
    ON CONFLICT (guild_id, user_id) DO NOTHING`.execute(trx);
  const { rows } = await sql<{ user_id: string; xp: string; last_message_xp_at: Date | null }>`
    SELECT user_id, xp, last_message_xp_at FROM level_members
    WHERE guild_id = ${guildId} AND user_id = ANY(${ids}::text[])
    ORDER BY user_id FOR UPDATE`.execute(trx);
  return new Map(rows.map((r) => [r.user_id, { xp: Number(r.xp), lastMessageXpAt: r.last_message_xp_at }]));
}

export interface ActivityTotalsChange {
  userId: string;
  messages: number;
  voiceMinutes: number;
  xp: number;
  at: Date;
  /** Set when a message earned XP: the start of the member's next cooldown. */
  lastMessageXpAt: Date | null;
}

/**
 * Adds counted activity to locked rows: messages and voice minutes summed, XP and lastXpAt set, and the cooldown's
 * start when given. Returns each member's messages and voice minutes as they are now.
 */
export async function addActivities(trx: Kysely<Database>, guildId: string, changes: ActivityTotalsChange[]): Promise<Map<string, { messages: number; voiceMinutes: number }>> {
  if (changes.length === 0) return new Map();
  const col = <K extends keyof ActivityTotalsChange>(key: K) => changes.map((c) => c[key]);
  const { rows } = await sql<{ user_id: string; messages: number; voice_minutes: number }>`
    UPDATE level_members AS m SET
      messages = m.messages + v.messages,
      voice_minutes = m.voice_minutes + v.voice_minutes,
      xp = v.xp,
      last_xp_at = v.at,
      last_message_xp_at = COALESCE(v.last_message_xp_at, m.last_message_xp_at)
    FROM unnest(${col('userId')}::text[], ${col('messages')}::int[], ${col('voiceMinutes')}::int[], ${col('xp').map(String)}::bigint[],
                ${col('at')}::timestamptz[], ${col('lastMessageXpAt')}::timestamptz[])
      AS v(user_id, messages, voice_minutes, xp, at, last_message_xp_at)
    WHERE m.guild_id = ${guildId} AND m.user_id = v.user_id
    RETURNING m.user_id, m.messages, m.voice_minutes`.execute(trx);
  return new Map(rows.map((r) => [r.user_id, { messages: r.messages, voiceMinutes: r.voice_minutes }]));
}

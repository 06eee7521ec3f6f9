import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * Takes the member's message cooldown for a message written at `at`: true (and the member's last XP-earning
 * message is now this one) when their previous one is at least `cooldownSeconds` older, or there is none; false
 * while the cooldown runs. The member's row is created if needed and stays locked until the transaction ends.
 */
export async function takeMessageCooldown(trx: Kysely<Database>, guildId: string, userId: string, at: Date, cooldownSeconds: number): Promise<boolean> {
  const { rows } = await sql<{ user_id: string }>`
    INSERT INTO level_members AS m (guild_id, user_id, xp, last_xp_at, last_message_xp_at)
    VALUES (${guildId}, ${userId}, 0, NULL, ${at})
    ON CONFLICT (guild_id, user_id) DO UPDATE SET last_message_xp_at = EXCLUDED.last_message_xp_at
    WHERE m.last_message_xp_at IS NULL OR m.last_message_xp_at <= EXCLUDED.last_message_xp_at - make_interval(secs => ${cooldownSeconds})
    RETURNING m.user_id`.execute(trx);
  return rows.length > 0;
}

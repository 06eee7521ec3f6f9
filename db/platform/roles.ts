import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * Gives or takes one role. The member row changes only when the role set does, and only then is the
 * change recorded, so a repeated call (a retried activity) is a no-op. Returns whether anything changed.
 */
export async function changeMemberRole(
  db: Kysely<Database>,
  c: { guildId: string; userId: string; roleId: string; action: 'add' | 'remove'; reason: string | null },
): Promise<boolean> {
  const newRoles =
    c.action === 'add' ? sql<string[]>`array_append(role_ids, ${c.roleId})` : sql<string[]>`array_remove(role_ids, ${c.roleId})`;
  const held = sql<boolean>`${c.roleId} = any(role_ids)`;
  const result = await sql<{ changed: number }>`
    WITH updated AS (
      UPDATE platform_members SET role_ids = ${newRoles}
      WHERE guild_id = ${c.guildId} AND user_id = ${c.userId} AND ${c.action === 'add' ? sql`NOT ${held}` : held}
      RETURNING user_id
    )
    INSERT INTO platform_role_changes (guild_id, user_id, role_id, action, reason)
    SELECT ${c.guildId}, user_id, ${c.roleId}, ${c.action}, ${c.reason} FROM updated
    RETURNING 1 AS changed`.execute(db);
  return result.rows.length > 0;
}

export const listRoleChanges = (db: Kysely<Database>, guildId: string, userId: string) =>
  db
    .selectFrom('platform_role_changes')
    .select(['role_id', 'action'])
    .where('guild_id', '=', guildId)
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();

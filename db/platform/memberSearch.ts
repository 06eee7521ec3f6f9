import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * A server's members whose username, global name or nickname starts with `prefix` (either case), by username, at
 * most `limit`. `starts_with` rather than LIKE: a name typed with `%` or `_` is matched as written.
 */
export async function searchPlatformMembers(db: Kysely<Database>, guildId: string, prefix: string, limit: number) {
  const lower = prefix.toLowerCase();
  return db
    .selectFrom('platform_members')
    .select(['user_id', 'username', 'global_name', 'nickname', 'avatar', 'bot', 'role_ids', 'joined_at', 'timed_out_until'])
    .where('guild_id', '=', guildId)
    .where((eb) =>
      eb.or([
        eb(sql<boolean>`starts_with(lower(username), ${lower})`, '=', true),
        eb(sql<boolean>`starts_with(lower(coalesce(global_name, '')), ${lower})`, '=', true),
        eb(sql<boolean>`starts_with(lower(coalesce(nickname, '')), ${lower})`, '=', true),
      ]),
    )
    .orderBy('username')
    .orderBy('user_id')
    .limit(limit)
    .execute();
}

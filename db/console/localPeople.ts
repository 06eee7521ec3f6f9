import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

// The local platform's people, for the console's development sign-in and its server list (PLATFORM=local only).

/** Local platform only: the servers the bot is in where the user is a member (candidates for the manager rule). */
export async function localGuildsOfMember(db: Kysely<Database>, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('platform_members as m')
    .innerJoin('guilds as g', 'g.id', 'm.guild_id')
    .select('g.id')
    .where('m.user_id', '=', userId)
    .orderBy('g.id')
    .execute();
  return rows.map((r) => r.id);
}

/** Local platform only: people the development sign-in offers (humans, by name). */
export async function listLocalPeople(db: Kysely<Database>, limit: number): Promise<Array<{ userId: string; name: string }>> {
  const rows = await db
    .selectFrom('platform_members')
    .select(['user_id', db.fn.max('username').as('username')])
    .where('bot', '=', false)
    .groupBy('user_id')
    .orderBy('user_id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ userId: r.user_id, name: r.username ?? r.user_id }));
}

/** Local platform only: the person with this id, when they are a human member of some server. */
export async function findLocalPerson(db: Kysely<Database>, userId: string): Promise<{ userId: string; name: string } | undefined> {
  const row = await db.selectFrom('platform_members').select(['user_id', 'username']).where('user_id', '=', userId).where('bot', '=', false).limit(1).executeTakeFirst();
  return row && { userId: row.user_id, name: row.username };
}

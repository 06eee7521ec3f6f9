import { sql, type Kysely } from 'kysely';
import type { Feature, Plan } from '../vocabulary.js';
import type { Database, GuildRow } from '../schema.js';

/** A server as the service configures it (plan, features, block); platform facts live behind the Platform port. */
export interface GuildRecord {
  id: string;
  name: string;
  icon: string | null;
  locale: 'en' | 'ru' | 'he';
  plan: Plan;
  features: Feature[];
  blocked: boolean;
}

export type GuildChanges = Partial<Omit<GuildRecord, 'id'>>;

const toRecord = (row: GuildRow): GuildRecord => ({
  id: row.id,
  name: row.name,
  icon: row.icon,
  locale: row.locale as GuildRecord['locale'],
  plan: row.plan as Plan,
  features: row.features as Feature[],
  blocked: row.blocked,
});

export async function findGuild(db: Kysely<Database>, id: string): Promise<GuildRecord | undefined> {
  const row = await db.selectFrom('guilds').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toRecord(row);
}

/** The server's features, its row locked until the transaction ends; undefined for a server the service does not know. */
export async function lockGuildFeatures(trx: Kysely<Database>, id: string): Promise<Feature[] | undefined> {
  const row = await trx.selectFrom('guilds').select('features').where('id', '=', id).forUpdate().executeTakeFirst();
  return row?.features as Feature[] | undefined;
}

export async function insertGuild(db: Kysely<Database>, guild: GuildRecord): Promise<GuildRecord> {
  const row = await db
    .insertInto('guilds')
    .values({ ...guild, updated_at: new Date() })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

export async function updateGuild(
  db: Kysely<Database>,
  id: string,
  changes: GuildChanges,
): Promise<GuildRecord | undefined> {
  const row = await db
    .updateTable('guilds')
    .set({ ...changes, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row && toRecord(row);
}

/** Keeps the last name and icon seen on the platform, so the Guild endpoint can answer during an outage. */
export async function rememberGuildLook(
  db: Kysely<Database>,
  id: string,
  look: { name: string; icon: string | null },
): Promise<void> {
  await db
    .updateTable('guilds')
    .set(look)
    .where('id', '=', id)
    .where((eb) => eb.or([eb('name', '!=', look.name), eb('icon', 'is distinct from', look.icon)]))
    .execute();
}

/** Of these servers, the ids of those with any of `features` on (one query for a gateway session's servers). */
export async function guildsWithAnyFeature(db: Kysely<Database>, ids: readonly string[], features: readonly Feature[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('guilds')
    .select('id')
    .where('id', 'in', [...ids])
    .where(sql<boolean>`features && ${sql.val([...features])}::text[]`)
    .execute();
  return rows.map((r) => r.id);
}

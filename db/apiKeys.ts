import type { Kysely } from 'kysely';
import type { Scope } from '../src/domain/scopes.js';
import type { GuildRecord } from './guilds.js';
import type { ApiKeyRow, Database } from './schema.js';

export interface ApiKeyRecord {
  id: number;
  guildId: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  createdBy: string | null;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

const toRecord = (row: Omit<ApiKeyRow, 'key_hash'>): ApiKeyRecord => ({
  id: row.id,
  guildId: row.guild_id,
  name: row.name,
  prefix: row.prefix,
  scopes: row.scopes as Scope[],
  createdBy: row.created_by,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
});

const PUBLIC_COLUMNS = [
  'id',
  'guild_id',
  'name',
  'prefix',
  'scopes',
  'created_by',
  'created_at',
  'expires_at',
  'revoked_at',
] as const;

export async function findApiKeyByHash(db: Kysely<Database>, hash: Buffer): Promise<ApiKeyRecord | undefined> {
  const row = await db.selectFrom('api_keys').select(PUBLIC_COLUMNS).where('key_hash', '=', hash).executeTakeFirst();
  return row && toRecord(row);
}

export async function countActiveApiKeys(db: Kysely<Database>, guildId: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('guild_id', '=', guildId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface NewApiKey {
  guildId: string;
  name: string;
  prefix: string;
  hash: Buffer;
  scopes: Scope[];
  createdBy: string | null;
  expiresAt: Date | null;
}

export async function insertApiKey(db: Kysely<Database>, key: NewApiKey): Promise<ApiKeyRecord> {
  const row = await db
    .insertInto('api_keys')
    .values({
      guild_id: key.guildId,
      name: key.name,
      prefix: key.prefix,
      key_hash: key.hash,
      scopes: key.scopes,
      created_by: key.createdBy,
      expires_at: key.expiresAt,
    })
    .returning(PUBLIC_COLUMNS)
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

export async function listApiKeys(db: Kysely<Database>, guildId: string): Promise<ApiKeyRecord[]> {
  const rows = await db
    .selectFrom('api_keys')
    .select(PUBLIC_COLUMNS)
    .where('guild_id', '=', guildId)
    .orderBy('id')
    .execute();
  return rows.map(toRecord);
}

/** Returns the key as it is after the call, or undefined when the guild has no such key. */
export async function markApiKeyRevoked(
  db: Kysely<Database>,
  guildId: string,
  id: number,
  at: Date,
): Promise<ApiKeyRecord | undefined> {
  await db
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('guild_id', '=', guildId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
  const row = await db
    .selectFrom('api_keys')
    .select(PUBLIC_COLUMNS)
    .where('guild_id', '=', guildId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toRecord(row);
}

/** The key and its guild in one round trip: authentication runs on every request. */
export async function findCredential(
  db: Kysely<Database>,
  hash: Buffer,
): Promise<{ apiKey: ApiKeyRecord; guild: GuildRecord } | undefined> {
  const row = await db
    .selectFrom('api_keys as k')
    .innerJoin('guilds as g', 'g.id', 'k.guild_id')
    .select(PUBLIC_COLUMNS.map((c) => `k.${c}` as const))
    .select(['g.name as g_name', 'g.icon as g_icon', 'g.locale as g_locale', 'g.plan as g_plan'])
    .select(['g.features as g_features', 'g.blocked as g_blocked'])
    .where('k.key_hash', '=', hash)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    apiKey: toRecord(row),
    guild: {
      id: row.guild_id,
      name: row.g_name,
      icon: row.g_icon,
      locale: row.g_locale as GuildRecord['locale'],
      plan: row.g_plan as GuildRecord['plan'],
      features: row.g_features as GuildRecord['features'],
      blocked: row.g_blocked,
    },
  };
}

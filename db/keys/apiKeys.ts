import { sql, type Kysely } from 'kysely';
import type { Scope } from '../vocabulary.js';
import type { GuildRecord } from '../guild/guilds.js';
import { markHot } from '../pool.js';
import type { ApiKeyRow, Database } from '../schema.js';

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

const toRecord = (row: Omit<ApiKeyRow, 'key_hash' | 'last_used_at' | 'rolled_into'>): ApiKeyRecord => ({
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

/** Keys that count toward the plan limit: not revoked, not expired, not replaced by a roll. */
export async function countActiveApiKeys(db: Kysely<Database>, guildId: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('guild_id', '=', guildId)
    .where('revoked_at', 'is', null)
    // A rolled key in its overlap is on its way out: its replacement is the one that counts.
    .where('rolled_into', 'is', null)
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

export async function findApiKey(db: Kysely<Database>, guildId: string, id: number): Promise<ApiKeyRecord | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .select(PUBLIC_COLUMNS)
    .where('guild_id', '=', guildId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toRecord(row);
}

/** Revokes an active key; undefined when the guild has no such key or it was revoked before. */
export async function markApiKeyRevoked(
  db: Kysely<Database>,
  guildId: string,
  id: number,
  at: Date,
): Promise<ApiKeyRecord | undefined> {
  const row = await db
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('guild_id', '=', guildId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returning(PUBLIC_COLUMNS)
    .executeTakeFirst();
  return row && toRecord(row);
}

type CredentialRow = Omit<ApiKeyRow, 'key_hash' | 'last_used_at' | 'rolled_into'> & {
  g_name: string;
  g_icon: string | null;
  g_locale: string;
  g_plan: string;
  g_features: string[];
  g_blocked: boolean;
};

const toCredential = (row: CredentialRow): { apiKey: ApiKeyRecord; guild: GuildRecord } => ({
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
});

const credentialQuery = (db: Kysely<Database>, hash: Buffer) =>
  db
    .selectFrom('api_keys as k')
    .innerJoin('guilds as g', 'g.id', 'k.guild_id')
    .select(PUBLIC_COLUMNS.map((c) => `k.${c}` as const))
    .select(['g.name as g_name', 'g.icon as g_icon', 'g.locale as g_locale', 'g.plan as g_plan'])
    .select(['g.features as g_features', 'g.blocked as g_blocked'])
    .where('k.key_hash', '=', hash);

/** The key and its guild in one round trip. */
export async function findCredential(
  db: Kysely<Database>,
  hash: Buffer,
): Promise<{ apiKey: ApiKeyRecord; guild: GuildRecord } | undefined> {
  const row = await credentialQuery(db, hash).executeTakeFirst();
  return row && toCredential(row);
}

export interface AuthenticationLookup {
  credential?: { apiKey: ApiKeyRecord; guild: GuildRecord };
  /** Failed authentications of the caller's address in the current window. */
  addressFailures: number;
}

/**
 * Everything authentication needs, in one round trip on the hot path: the key, its guild and the address's
 * failure count. Written as one fixed statement, prepared once per connection (db/pool.ts markHot).
 */
export async function lookUpCredential(
  db: Kysely<Database>,
  input: { hash: Buffer; addressBucket: string; windowStart: Date },
): Promise<AuthenticationLookup> {
  const query = sql<CredentialRow & { address_failures: number | null }>`
    select ${sql.join(PUBLIC_COLUMNS.map((c) => sql.ref(`k.${c}`)))},
      g.name as g_name, g.icon as g_icon, g.locale as g_locale, g.plan as g_plan, g.features as g_features, g.blocked as g_blocked,
      (select count from rate_limit_counters where bucket = ${input.addressBucket} and window_start = ${input.windowStart}) as address_failures
    from (values (1)) as one
    left join (api_keys k join guilds g on g.id = k.guild_id) on k.key_hash = ${input.hash}`.compile(db);
  markHot(query.sql);
  const { rows } = await db.executeQuery(query);
  const { address_failures, ...credential } = rows[0]!;
  return {
    credential: credential.id ? toCredential(credential as CredentialRow) : undefined,
    addressFailures: address_failures ?? 0,
  };
}

/**
 * Before the purge deletes ended rate-limit windows, keeps each key's latest window start (its last use, to the
 * minute) in api_keys.last_used_at.
 */
export async function foldKeyUseBefore(db: Kysely<Database>, before: Date): Promise<void> {
  await sql`
    UPDATE api_keys k SET last_used_at = GREATEST(k.last_used_at, w.latest)
    FROM (
      SELECT substring(bucket FROM 5)::integer AS id, max(window_start) AS latest
      FROM rate_limit_counters
      WHERE bucket ~ '^key:[0-9]+$' AND window_start < ${before}
      GROUP BY 1
    ) w
    WHERE k.id = w.id`.execute(db);
}

/** When each of the guild's keys was last used, to the minute (null: never, or not since the service kept it). */
export async function findKeysLastUse(db: Kysely<Database>, guildId: string): Promise<Map<number, Date | null>> {
  const rows = await sql<{ id: number; last_used: Date | null }>`
    SELECT k.id, GREATEST(k.last_used_at, (SELECT max(window_start) FROM rate_limit_counters r WHERE r.bucket = 'key:' || k.id)) AS last_used
    FROM api_keys k WHERE k.guild_id = ${guildId}`.execute(db);
  return new Map(rows.rows.map((r) => [r.id, r.last_used]));
}

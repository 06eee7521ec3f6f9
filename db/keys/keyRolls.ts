import type { Kysely } from 'kysely';
import type { Scope } from '../vocabulary.js';
import type { Database } from '../schema.js';

export interface RollableKey {
  id: number;
  name: string;
  prefix: string;
  scopes: Scope[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  rolledInto: number | null;
}

/** One of the guild's keys; `lock` holds it until the transaction ends (a second roll of it waits for the first). */
export async function findKeyForRoll(db: Kysely<Database>, guildId: string, id: number, lock: boolean): Promise<RollableKey | undefined> {
  const query = db
    .selectFrom('api_keys')
    .select(['id', 'name', 'prefix', 'scopes', 'expires_at', 'revoked_at', 'rolled_into'])
    .where('guild_id', '=', guildId)
    .where('id', '=', id);
  const row = await (lock ? query.forUpdate() : query).executeTakeFirst();
  return (
    row && {
      id: row.id,
      name: row.name,
      prefix: row.prefix,
      scopes: row.scopes as Scope[],
      expiresAt: row.expires_at,
      revokedAt: row.revoked_at,
      rolledInto: row.rolled_into,
    }
  );
}

/** The end of the overlap of the key this one replaced, while that key still works; undefined otherwise. */
export async function findLiveRollPredecessor(db: Kysely<Database>, id: number, now: Date): Promise<Date | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .select('expires_at')
    .where('rolled_into', '=', id)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row?.expires_at ?? undefined;
}

export async function markKeyRolled(db: Kysely<Database>, id: number, into: number, expiresAt: Date): Promise<void> {
  await db.updateTable('api_keys').set({ rolled_into: into, expires_at: expiresAt }).where('id', '=', id).execute();
}

/** The guild's rolled keys: each one's replacement. */
export async function findKeyRolls(db: Kysely<Database>, guildId: string): Promise<Map<number, number>> {
  const rows = await db.selectFrom('api_keys').select(['id', 'rolled_into']).where('guild_id', '=', guildId).where('rolled_into', 'is not', null).execute();
  return new Map(rows.map((r) => [r.id, r.rolled_into!]));
}

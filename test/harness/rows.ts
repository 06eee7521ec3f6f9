import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** Row counts of the tables a write may touch, to assert that a refused request changed nothing. */
export async function countWrites(db: Kysely<Database>, guildId: string) {
  const count = async (table: 'bank_ledger' | 'bank_accounts' | 'events' | 'audit_log') => {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('guild_id', '=', guildId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const idem = await db
    .selectFrom('idempotency_records as r')
    .innerJoin('api_keys as k', 'k.id', 'r.api_key_id')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('k.guild_id', '=', guildId)
    .executeTakeFirstOrThrow();
  return {
    ledger: await count('bank_ledger'),
    accounts: await count('bank_accounts'),
    events: await count('events'),
    audit: await count('audit_log'),
    idempotency: Number(idem.n),
  };
}

/** Who the audit log names for a server's rows of `action`, oldest first. */
export const auditActorsOf = (db: Kysely<Database>, guildId: string, action: string) =>
  db.selectFrom('audit_log').select(['actor_type', 'actor_id']).where('guild_id', '=', guildId).where('action', '=', action).orderBy('id').execute();

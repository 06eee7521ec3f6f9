import { sql, type Kysely } from 'kysely';
import { saveBankSettings } from '../db/bank/accounts.js';
import { findGuild } from '../db/guild/guilds.js';
import type { Database } from '../db/schema.js';
import { systemClock } from '../src/core/clock.js';
import { FEATURES } from '../src/core/features.js';
import { SCOPES } from '../src/core/scopes.js';
import { createGuild } from '../src/guild/guildManagement.js';
import { createApiKey } from '../src/keys/keyManagement.js';

export const BENCH_GUILD_ID = '1200000000000000001';
/** Member i has user id FIRST_MEMBER_ID + i. */
export const FIRST_MEMBER_ID = 1_300_000_000_000_000_000n;

export const memberId = (i: number) => String(FIRST_MEMBER_ID + BigInt(i));

/**
 * The benchmark server: `members` members, each with a bank account whose balance is backed by one
 * starting-balance ledger row. Seeded once; later runs find it and reuse it.
 */
export async function seedBenchGuild(db: Kysely<Database>, members: number, log: (line: string) => void): Promise<void> {
  if (!(await findGuild(db, BENCH_GUILD_ID))) {
    await createGuild(db, {
      id: BENCH_GUILD_ID,
      name: 'Benchmark Guild',
      icon: null,
      locale: 'en',
      plan: 'pro',
      features: [...FEATURES],
      blocked: false,
      ownerId: '1200000000000000002',
      botUserId: '1200000000000000003',
      actor: { type: 'system' },
    });
    await saveBankSettings(db, BENCH_GUILD_ID, {
      currency: { name: 'coin', plural: 'coins', emoji: '🪙' },
      startingBalance: 0,
      maxBalance: null,
      logChannelId: '1200000000000000004',
    });
  }
  const existing = await db
    .selectFrom('bank_accounts')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('guild_id', '=', BENCH_GUILD_ID)
    .executeTakeFirstOrThrow();
  if (Number(existing.n) >= members) return;
  log(`Seeding ${members.toLocaleString('en-US')} members with bank accounts...`);
  const first = sql.lit(FIRST_MEMBER_ID.toString());
  await sql`
    INSERT INTO platform_members (guild_id, user_id, username, bot, role_ids, joined_at)
    SELECT ${BENCH_GUILD_ID}, (${first}::numeric + i)::text, 'member' || i, false, '{}', now()
    FROM generate_series(0, ${members - 1}) AS i
    ON CONFLICT DO NOTHING`.execute(db);
  await sql`
    INSERT INTO bank_accounts (guild_id, user_id, balance, updated_at)
    SELECT ${BENCH_GUILD_ID}, (${first}::numeric + i)::text, (i * 7919) % 1000000, now()
    FROM generate_series(0, ${members - 1}) AS i
    ON CONFLICT DO NOTHING`.execute(db);
  await sql`
    INSERT INTO bank_ledger (guild_id, user_id, type, amount, balance_after, created_at)
    SELECT a.guild_id, a.user_id, 'starting_balance', a.balance, a.balance, now()
    FROM bank_accounts a
    WHERE a.guild_id = ${BENCH_GUILD_ID}
      AND NOT EXISTS (SELECT 1 FROM bank_ledger l WHERE l.guild_id = a.guild_id AND l.user_id = a.user_id)`.execute(db);
  await sql`ANALYZE`.execute(db);
}

/** A fresh key with every scope for this run (keys are shown once, so none is kept between runs). */
export async function createBenchKey(db: Kysely<Database>): Promise<string> {
  await db.updateTable('api_keys').set({ revoked_at: new Date() }).where('guild_id', '=', BENCH_GUILD_ID).where('revoked_at', 'is', null).execute();
  const created = await createApiKey(db, systemClock, {
    guildId: BENCH_GUILD_ID,
    name: 'bench',
    scopes: [...SCOPES],
    expiresInDays: 30,
    createdBy: '1200000000000000002',
    actor: { type: 'system' },
  });
  return created.key;
}

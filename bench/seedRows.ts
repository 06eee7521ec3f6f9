import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { BENCH_GUILD_ID, FIRST_MEMBER_ID } from './seed.js';

/** Rows per INSERT ... SELECT generate_series: one statement per million keeps each transaction's WAL and locks bounded. */
const CHUNK_ROWS = 1_000_000;

export interface MemberRowsSeed {
  table: 'level_members' | 'invite_members';
  rows: number;
  /** The INSERT ... SELECT of seeded members `from` to `to` (inclusive) of the bench guild. */
  insertChunk(from: number, to: number): Promise<void>;
  /** Run once rows were added or removed (row triggers were off meanwhile: rebuild what they keep). */
  afterChange?(): Promise<void>;
  log(line: string): void;
}

/**
 * Brings the bench guild's rows of `table` to exactly `rows` members (the first `rows` seeded ids): a million rows
 * per statement with generate_series, never row by row, so 10,000,000 rows take minutes. The rows are seeded in id
 * order, so the count says which exist; rows past `rows` are removed, so a figure is always for the size asked.
 */
export async function seedMemberRows(db: Kysely<Database>, seed: MemberRowsSeed): Promise<number> {
  const count = async () =>
    Number(
      (
        await db
          .selectFrom(seed.table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('guild_id', '=', BENCH_GUILD_ID)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const existing = await count();
  if (existing === seed.rows) return existing;
  const started = performance.now();
  if (existing > seed.rows) {
    seed.log(`Removing ${seed.table} rows past ${seed.rows.toLocaleString('en-US')}...`);
    await db.transaction().execute(async (trx) => {
      await sql`SET LOCAL session_replication_role = replica`.execute(trx);
      await sql`DELETE FROM ${sql.table(seed.table)} WHERE guild_id = ${BENCH_GUILD_ID}
        AND user_id::numeric >= ${sql.lit(FIRST_MEMBER_ID.toString())}::numeric + ${seed.rows}`.execute(trx);
    });
  }
  for (let from = Math.floor(Math.min(existing, seed.rows) / CHUNK_ROWS) * CHUNK_ROWS; from < seed.rows; from += CHUNK_ROWS) {
    const to = Math.min(seed.rows, from + CHUNK_ROWS) - 1;
    seed.log(`Seeding ${seed.table} rows ${from.toLocaleString('en-US')} to ${to.toLocaleString('en-US')}...`);
    await seed.insertChunk(from, to);
  }
  await seed.afterChange?.();
  await sql`VACUUM ANALYZE ${sql.table(seed.table)}`.execute(db);
  const seeded = await count();
  seed.log(`${seed.table}: ${seeded.toLocaleString('en-US')} rows in ${Math.round((performance.now() - started) / 1000)} s`);
  return seeded;
}

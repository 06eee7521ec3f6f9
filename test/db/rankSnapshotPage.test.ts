import { CompiledQuery, sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { INVITE_RANKS, inviteSnapshotPage } from '../../db/invites/ranks.js';
import type { Database } from '../../db/schema.js';
import { snapshotPageQuery } from '../../db/shared/rankBoards.js';
import { useTestDatabase } from '../harness/database.js';
import { createTestGuild } from '../harness/fixtures.js';

// A snapshot page (both boards share the query) under the statistics a server's first recount leaves behind: analyzed
// while its rows were not committed yet, they say the server has none of them.

const database = useTestDatabase();
const db = () => database.db;

/** Fills `guildId`'s snapshot with `rows` positions (ranks as positions, no ties). */
const fillSnapshot = (into: Kysely<Database>, guildId: string, rows: number) =>
  sql`insert into invite_rank_snapshots (guild_id, position, rank, user_id, invites, verified, bonus)
    select ${guildId}, p, p, (1000000000000000000 + p)::text, 100000 - p, 100000 - p, 0 from generate_series(1, ${rows}) p`.execute(into);

/** Blocks of the table and its indexes the page's plan touched (EXPLAIN ANALYZE, BUFFERS). */
async function blocksTouched(query: CompiledQuery): Promise<{ rows: number; blocks: number }> {
  const { rows } = await db().executeQuery<{ 'QUERY PLAN': Array<{ Plan: Record<string, number> }> }>(
    CompiledQuery.raw(`explain (analyze, buffers, format json) ${query.sql}`, [...query.parameters]),
  );
  const plan = rows[0]!['QUERY PLAN'][0]!.Plan;
  return { rows: plan['Actual Rows']!, blocks: plan['Shared Hit Blocks']! + plan['Shared Read Blocks']! };
}

describe('a rank snapshot page', () => {
  it('reads its own positions only, while the statistics still say the server has no rows', async () => {
    const { id } = await createTestGuild(db());
    // Autovacuum would analyze the table again at any moment: off for this table of this test's database.
    await sql`alter table invite_rank_snapshots set (autovacuum_enabled = false)`.execute(db());
    await fillSnapshot(db(), id, 50_000);
    await sql`analyze invite_rank_snapshots`.execute(db());
    // Dropped (as a crash empties the unlogged table), then recounted: an analyze while the recount's rows are not
    // committed yet (from another session) finds the table's pages and no row in them.
    await sql`delete from invite_rank_snapshots where guild_id = ${id}`.execute(db());
    await sql`vacuum invite_rank_snapshots`.execute(db());
    await db().transaction().execute(async (recount) => {
      await fillSnapshot(recount, id, 50_000);
      await sql`analyze invite_rank_snapshots`.execute(db());
    });

    const page = await blocksTouched(snapshotPageQuery(db(), INVITE_RANKS, id, 30_000, 25).compile());
    expect(page.rows).toBe(25);
    // An index descent and the heap pages of 25 rows; a plan of every row of the server reads hundreds.
    expect(page.blocks).toBeLessThan(20);
    const rows = await inviteSnapshotPage(db(), id, 30_000, 25);
    expect(rows.map((r) => r.rank)).toEqual(Array.from({ length: 25 }, (_, i) => 30_001 + i));
  });

  it('ends at the last position', async () => {
    const { id } = await createTestGuild(db());
    await fillSnapshot(db(), id, 30);
    expect((await inviteSnapshotPage(db(), id, 25, 25)).map((r) => r.rank)).toEqual([26, 27, 28, 29, 30]);
    expect(await inviteSnapshotPage(db(), id, 30, 25)).toEqual([]);
  });
});

import { randomInt } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { countAbove, countRanked } from '../../../db/invites/board.js';
import { findInviteRankSnapshot, refreshInviteRankSnapshot } from '../../../db/invites/ranks.js';
import * as scoreTotalsMigration from '../../../db/migrations/2026-11-30-140-invite-score-totals.js';
import { MAX_CONTENTION, restMs, type ChunkCost } from '../../../db/shared/rankRecount.js';
import { useTestDatabase } from '../../harness/database.js';
import { createTestGuild, snowflake } from '../../harness/fixtures.js';

// What keeps large boards cheap: the per-count tallies behind live ranks (migration 2026-11-24-051) and the totals
// beside them (2026-11-30-140), checked against the member rows they summarise, and the rank snapshot recount skipped
// while nothing moved (052).

const database = useTestDatabase();
const db = () => database.db;

/**
 * The tallies and total as the triggers kept them (empty counts left out) and as the member rows say they should be;
 * the total is read as the boards read it.
 */
async function talliesOf(guildId: string) {
  const kept = await sql<{ invites: number; members: number }>`
    select invites, members from invite_score_counts where guild_id = ${guildId} and members <> 0 order by invites`.execute(db());
  const truth = await sql<{ invites: number; members: number }>`
    select invites, count(*)::bigint as members from invite_members where guild_id = ${guildId} and invites > 0 group by invites order by invites`.execute(db());
  return {
    kept: { counts: kept.rows, total: await countRanked(db(), { guildId }) },
    truth: { counts: truth.rows, total: truth.rows.reduce((sum, r) => sum + Number(r.members), 0) },
  };
}

const setCounts = (guildId: string, userId: string, verified: number, bonus: number) =>
  db()
    .insertInto('invite_members')
    .values({ guild_id: guildId, user_id: userId, verified, bonus, total: verified, updated_at: new Date() })
    .onConflict((oc) => oc.columns(['guild_id', 'user_id']).doUpdateSet({ verified, bonus }))
    .execute();

describe('invite score tallies', () => {
  it('follow inserts, updates (also to and from 0 invites), untouched counts and deletes', async () => {
    const { id } = await createTestGuild(db());
    const [a, b, c] = [snowflake(), snowflake(), snowflake()];
    await setCounts(id, a, 3, 0);
    await setCounts(id, b, 3, 2);
    await setCounts(id, c, 0, 0);
    expect(await countRanked(db(), { guildId: id })).toBe(2);
    expect(await countAbove(db(), { guildId: id }, 3)).toBe(1);

    await setCounts(id, a, 5, 0); // 3 -> 5: ties b
    await setCounts(id, c, 1, 0); // 0 -> 1
    await setCounts(id, b, 2, -5); // 5 -> 0 (GREATEST(0, -3))
    await db().updateTable('invite_members').set({ pending: 4 }).where('user_id', '=', a).execute(); // invites unchanged
    const tallies = await talliesOf(id);
    expect(tallies.kept).toEqual({ counts: [{ invites: 1, members: 1 }, { invites: 5, members: 1 }], total: 2 });
    expect(tallies.kept).toEqual(tallies.truth);
    expect([await countRanked(db(), { guildId: id }), await countAbove(db(), { guildId: id }, 1), await countAbove(db(), { guildId: id }, 5)]).toEqual([2, 1, 0]);

    await db().deleteFrom('invite_members').where('user_id', '=', a).execute();
    await db().deleteFrom('invite_members').where('user_id', '=', b).execute(); // unranked: the total stays
    expect((await talliesOf(id)).kept).toEqual({ counts: [{ invites: 1, members: 1 }], total: 1 });
  });

  it('stay exact under 200 concurrent changes that move members past each other, without deadlocks', async () => {
    const { id } = await createTestGuild(db());
    const users = Array.from({ length: 20 }, () => snowflake());
    for (const user of users) await setCounts(id, user, randomInt(0, 6), 0);
    const changes = Array.from({ length: 200 }, () => () => setCounts(id, users[randomInt(0, users.length)]!, randomInt(0, 6), randomInt(-2, 3)));
    for (let i = 0; i < changes.length; i += 20) await Promise.all(changes.slice(i, i + 20).map((change) => change()));
    const { kept, truth } = await talliesOf(id);
    expect(kept).toEqual(truth);
    expect(truth.total).toBeGreaterThan(0);
  });

  it('are kept per season too', async () => {
    const { id } = await createTestGuild(db());
    const season = await db()
      .insertInto('invite_seasons')
      .values({ guild_id: id, number: 1, name: null, started_at: new Date() } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const scope = { seasonId: season.id };
    for (const [user, verified] of [[snowflake(), 2], [snowflake(), 2], [snowflake(), 7], [snowflake(), 0]] as const) {
      await db().insertInto('invite_season_members').values({ season_id: season.id, user_id: user, verified, bonus: 0 }).execute();
    }
    expect([await countRanked(db(), scope), await countAbove(db(), scope, 2), await countAbove(db(), scope, 0)]).toEqual([3, 1, 3]);
    await db().updateTable('invite_season_members').set({ bonus: -7 }).where('season_id', '=', season.id).where('verified', '=', 7).execute();
    expect([await countRanked(db(), scope), await countAbove(db(), scope, 0)]).toEqual([2, 2]);
    await db().deleteFrom('invite_season_members').where('season_id', '=', season.id).where('verified', '=', 2).execute();
    expect([await countRanked(db(), scope), await countAbove(db(), scope, 0)]).toEqual([0, 0]);
  });
});

describe('the totals migration', () => {
  it('starts each total from the tallies of the members already there, and the triggers go on from it', async () => {
    const [{ id: first }, { id: second }] = [await createTestGuild(db()), await createTestGuild(db())];
    for (const verified of [1, 4, 4, 0]) await setCounts(first, snowflake(), verified, 0);
    await setCounts(second, snowflake(), 2, 0);
    await db().transaction().execute(async (trx) => {
      await scoreTotalsMigration.down(trx);
      await scoreTotalsMigration.up(trx);
    });
    expect([await countRanked(db(), { guildId: first }), await countRanked(db(), { guildId: second })]).toEqual([3, 1]);
    await setCounts(first, snowflake(), 1, 0);
    const { kept, truth } = await talliesOf(first);
    expect(kept).toEqual(truth);
    expect(truth.total).toBe(4);
  });
});

describe('rank snapshot refresh', () => {
  it('recounts a guild without a snapshot or whose invites changed; skips one where nothing moved', async () => {
    const { id } = await createTestGuild(db());
    const [a, b] = [snowflake(), snowflake()];
    await setCounts(id, a, 2, 0);
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 24, 10, minute));
    expect(await refreshInviteRankSnapshot(db(), id, at(1))).toEqual({ total: 1, written: 1 });
    expect(await refreshInviteRankSnapshot(db(), id, at(2))).toEqual({ total: 1, written: 0 });
    expect((await findInviteRankSnapshot(db(), id))!.refreshedAt).toEqual(at(1));

    await db().updateTable('invite_members').set({ pending: 3 }).where('user_id', '=', a).execute(); // invites unchanged
    expect(await refreshInviteRankSnapshot(db(), id, at(3))).toEqual({ total: 1, written: 0 });
    expect((await findInviteRankSnapshot(db(), id))!.refreshedAt).toEqual(at(1));

    await setCounts(id, b, 5, 0);
    expect(await refreshInviteRankSnapshot(db(), id, at(4))).toEqual({ total: 2, written: 2 });
    expect(await findInviteRankSnapshot(db(), id)).toEqual({ total: 2, refreshedAt: at(4) });
    const ranks = await db().selectFrom('invite_rank_snapshots').select(['user_id', 'rank']).where('guild_id', '=', id).orderBy('position').execute();
    expect(ranks).toEqual([{ user_id: b, rank: 1 }, { user_id: a, rank: 2 }]);

    await db().deleteFrom('invite_members').where('user_id', '=', b).execute();
    expect(await refreshInviteRankSnapshot(db(), id, at(5))).toEqual({ total: 1, written: 2 });
  });

  it('recounts in chunks to the same ranks as one sort, ties running across chunks, rewriting only moved rows', async () => {
    const { id } = await createTestGuild(db());
    const users = Array.from({ length: 23 }, () => snowflake());
    for (const [i, user] of users.entries()) await setCounts(id, user, 1 + (i % 4), i % 3 === 0 ? 1 : 0);
    expect(await refreshInviteRankSnapshot(db(), id, new Date(), BY_THREES)).toEqual({ total: 23, written: 23 });
    expect(await snapshotOf(id)).toEqual(await boardOf(id));

    const before = await boardOf(id);
    await setCounts(id, users[4]!, 4, 0); // 2 -> 4: passes the members on 3 and ties those on 4
    await setCounts(id, users[9]!, 0, 0); // 2 -> 0: leaves the board, which ends a position earlier
    const after = await boardOf(id);
    const moved = after.filter((row, i) => JSON.stringify(row) !== JSON.stringify(before[i])).length + (before.length - after.length);
    const recount = await refreshInviteRankSnapshot(db(), id, new Date(), BY_THREES);
    expect(recount).toEqual({ total: 22, written: moved });
    expect(moved).toBeLessThan(22);
    expect(await snapshotOf(id)).toEqual(after);
  });

  it('reads one state throughout: readers keep the old snapshot meanwhile, and a change made during it waits for the next', async () => {
    const { id } = await createTestGuild(db());
    const users = Array.from({ length: 7 }, () => snowflake());
    for (const [i, user] of users.entries()) await setCounts(id, user, 10 - i, 0);
    await refreshInviteRankSnapshot(db(), id, new Date());
    await setCounts(id, users[6]!, 20, 0); // last to first: every position moves
    const marked = await boardOf(id);
    let rests = 0;
    const pace = {
      chunkRows: 2,
      async rest() {
        rests += 1;
        if (rests !== 1) return;
        // From another connection, between the first and second chunk.
        expect((await snapshotOf(id))[0]!.user_id).toBe(users[0]);
        await setCounts(id, users[5]!, 30, 0); // not yet read by the recount
      },
    };
    expect(await refreshInviteRankSnapshot(db(), id, new Date(), pace)).toMatchObject({ total: 7 });
    expect(rests).toBe(3);
    expect(await snapshotOf(id)).toEqual(marked);
    await refreshInviteRankSnapshot(db(), id, new Date());
    expect((await snapshotOf(id))[0]).toEqual({ position: 1, rank: 1, user_id: users[5], invites: 30 });
  });
});

describe('recount pace', () => {
  it('hands each rest the chunk it follows: rows read and rows written', async () => {
    const { id } = await createTestGuild(db());
    const users = Array.from({ length: 7 }, () => snowflake());
    for (const [i, user] of users.entries()) await setCounts(id, user, 10 + i, 0);
    const chunks: Array<{ rows: number; written: number }> = [];
    const pace = { chunkRows: 3, rest: async ({ rows, written }: ChunkCost) => void chunks.push({ rows, written }) };
    await refreshInviteRankSnapshot(db(), id, new Date(), pace);
    expect(chunks).toEqual([{ rows: 3, written: 3 }, { rows: 3, written: 3 }]);

    chunks.length = 0;
    await setCounts(id, users[0]!, 9, 0); // the last one loses an invite and stays last: only the last chunk rewrites
    expect(await refreshInviteRankSnapshot(db(), id, new Date(), pace)).toEqual({ total: 7, written: 1 });
    expect(chunks).toEqual([{ rows: 3, written: 0 }, { rows: 3, written: 0 }]);
  });

  it('rests as long as a chunk that only read, four times as long after one that rewrote all it read', () => {
    expect(restMs({ ms: 100, rows: 10_000, written: 0, fastestMs: 100 })).toBe(100);
    expect(restMs({ ms: 100, rows: 10_000, written: 5_000, fastestMs: 100 })).toBe(250);
    expect(restMs({ ms: 100, rows: 10_000, written: 10_000, fastestMs: 100 })).toBe(400);
  });

  it('rests longer after a chunk slower than the fastest one so far, up to MAX_CONTENTION times', () => {
    expect(restMs({ ms: 200, rows: 10_000, written: 0, fastestMs: 100 })).toBe(400);
    expect(restMs({ ms: 200, rows: 10_000, written: 5_000, fastestMs: 100 })).toBe(1_000);
    expect(restMs({ ms: 1_000, rows: 10_000, written: 0, fastestMs: 100 })).toBe(1_000 * MAX_CONTENTION);
  });

  it("compares each chunk with the recount's fastest so far, the first with itself", async () => {
    const { id } = await createTestGuild(db());
    for (let i = 0; i < 10; i++) await setCounts(id, snowflake(), 10 + i, 0);
    const chunks: ChunkCost[] = [];
    const pace = { chunkRows: 3, rest: async (chunk: ChunkCost) => void chunks.push(chunk) };
    await refreshInviteRankSnapshot(db(), id, new Date(), pace);
    expect(chunks).toHaveLength(3);
    // Chunks of equal rows: the fastest so far is the shortest so far.
    for (const [i, chunk] of chunks.entries()) expect(chunk.fastestMs).toBeCloseTo(Math.min(...chunks.slice(0, i + 1).map((c) => c.ms)), 9);
  });
});

const BY_THREES = { chunkRows: 3, rest: async () => {} };

/** The snapshot's rows in order, and what one sort of the member rows says they should be. */
const snapshotOf = (guildId: string) =>
  db().selectFrom('invite_rank_snapshots').select(['position', 'rank', 'user_id', 'invites']).where('guild_id', '=', guildId).orderBy('position').execute();

async function boardOf(guildId: string) {
  const { rows } = await sql<{ position: number; rank: number; user_id: string; invites: number }>`
    select (row_number() over w)::int as position, (rank() over (order by invites desc))::int as rank, user_id, invites
    from invite_members where guild_id = ${guildId} and invites > 0 window w as (order by invites desc, user_id)`.execute(db());
  return rows;
}

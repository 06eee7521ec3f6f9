import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { refreshRankSnapshot } from '../../../db/levels/ranks.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { bearer, createTestGuild, createTestKey, type TestGuild } from '../../harness/fixtures.js';

// Large servers read level ranks from a snapshot recounted in chunks (db/shared/rankRecount.ts). The recount must
// give the ranks of one sort (ties by user id, across chunk edges), write only what moved, and leave readers on the
// old snapshot until it commits, so that pages stay consistent with one another meanwhile.

const { database, app } = useApiTestBed();
const db = () => database.db;

const BY_THREES = { chunkRows: 3, rest: async () => {} };

async function setup() {
  const guild = await createTestGuild(db(), { features: ['levels'] });
  const { key } = await createTestKey(db(), guild, { scopes: ['levels:read'] });
  return { guild, key };
}

const setXp = (guild: TestGuild, userId: string, xp: number, hidden = false) =>
  db()
    .insertInto('level_members')
    .values({ guild_id: guild.id, user_id: userId, xp, hidden, last_xp_at: new Date() })
    .onConflict((oc) => oc.columns(['guild_id', 'user_id']).doUpdateSet({ xp, hidden }))
    .execute();

/** The snapshot's rows in order, and what one sort of the member rows says they should be. */
const snapshotOf = (guild: TestGuild) =>
  db().selectFrom('level_rank_snapshots').select(['position', 'user_id', 'xp']).where('guild_id', '=', guild.id).orderBy('position').execute();

async function boardOf(guild: TestGuild) {
  const { rows } = await sql<{ position: number; user_id: string; xp: number }>`
    select (row_number() over (order by xp desc, user_id))::int as position, user_id, xp
    from level_members where guild_id = ${guild.id} and xp > 0`.execute(db());
  return rows;
}

const get = (guild: TestGuild, key: string, path: string) => app.http('GET', `/guilds/${guild.id}${path}`, { headers: bearer(key) });

const pageOf = async (guild: TestGuild, key: string, cursor: number, limit: number) => {
  const res = await get(guild, key, `/levels/leaderboard?limit=${limit}&cursor=${cursor}`);
  expect(res.status).toBe(200);
  return res.body as { items: Array<{ rank: number; userId: string | null; xp: number }>; total: number; nextCursor: string | null };
};

describe('level rank snapshot recount', () => {
  it('gives the ranks of one sort, ties by user id across chunk edges, rewriting only moved rows', async () => {
    const { guild } = await setup();
    // Fixed ids, so the ties (broken by user id) and the rows that move are the same on every run.
    const users = Array.from({ length: 14 }, (_, i) => `2000000000000000${i + 10}`);
    for (const [i, user] of users.entries()) await setXp(guild, user, 100 * (1 + (i % 4)));
    expect(await refreshRankSnapshot(db(), guild.id, new Date(), BY_THREES)).toEqual({ total: 14, written: 14 });
    expect(await snapshotOf(guild)).toEqual(await boardOf(guild));
    expect(await refreshRankSnapshot(db(), guild.id, new Date(), BY_THREES)).toEqual({ total: 14, written: 0 });

    const before = await boardOf(guild);
    await setXp(guild, users[0]!, 400); // 100 -> 400: up into the top tie
    await setXp(guild, users[3]!, 150); // 400 -> 150: down past the members on 300 and 200
    await setXp(guild, users[6]!, 0); // 300 -> 0: leaves the board, which ends a position earlier
    const after = await boardOf(guild);
    const moved = after.filter((row, i) => JSON.stringify(row) !== JSON.stringify(before[i])).length + (before.length - after.length);
    expect(await refreshRankSnapshot(db(), guild.id, new Date(), BY_THREES)).toEqual({ total: 13, written: moved });
    expect(moved).toBeLessThan(13);
    expect(await snapshotOf(guild)).toEqual(after);
  });

  it('keeps readers on the old snapshot until it commits: pages read meanwhile agree with one another', async () => {
    const { guild, key } = await setup();
    const users = Array.from({ length: 8 }, (_, i) => `10000000000000000${i + 1}`);
    for (const [i, user] of users.entries()) await setXp(guild, user, 1_000 - 100 * i, i === 2);
    await refreshRankSnapshot(db(), guild.id, new Date(), BY_THREES);
    await setXp(guild, users[7]!, 5_000); // last to first: every position moves
    const seen: string[][] = [];
    const pace = {
      chunkRows: 3,
      async rest() {
        // Over HTTP, between two chunks: the old order on the first page, the deep page and a member's rank.
        if (seen.length > 0) return;
        const first = await pageOf(guild, key, 0, 4);
        const deep = await pageOf(guild, key, 4, 4);
        seen.push([...first.items, ...deep.items].map((r) => `${r.rank}:${r.userId}`));
        expect((await get(guild, key, `/levels/members/${users[7]}`)).body.rank).toBe(8);
      },
    };
    expect(await refreshRankSnapshot(db(), guild.id, new Date(), pace)).toEqual({ total: 8, written: 8 });
    const old = users.map((user, i) => `${i + 1}:${i === 2 ? null : user}`);
    expect(seen).toEqual([old]);
    const first = await pageOf(guild, key, 0, 4);
    expect(first.items.map((r) => `${r.rank}:${r.userId}`)).toEqual([`1:${users[7]}`, `2:${users[0]}`, `3:${users[1]}`, '4:null']);
    expect(first.nextCursor).toBe('4');
    expect((await get(guild, key, `/levels/members/${users[7]}`)).body.rank).toBe(1);
  });

  it('serves a deep cursor from the snapshot, counts a member new since it live, and reports the snapshot total', async () => {
    const { guild, key } = await setup();
    const users = Array.from({ length: 12 }, (_, i) => `1000000000000000${String(i + 10)}`);
    for (const [i, user] of users.entries()) await setXp(guild, user, 50 + (i % 3) * 10); // ties on 70, 60 and 50
    await refreshRankSnapshot(db(), guild.id, new Date(), BY_THREES);
    const board = await boardOf(guild);
    const deep = await pageOf(guild, key, 9, 5);
    expect(deep.items.map((r) => [r.rank, r.userId, r.xp])).toEqual(board.slice(9).map((r) => [r.position, r.user_id, r.xp]));
    expect(deep).toMatchObject({ total: 12, nextCursor: null });

    const newcomer = '100000000000000005'; // lowest user id: first in the tie on 70
    await setXp(guild, newcomer, 70);
    expect((await get(guild, key, `/levels/members/${newcomer}`)).body.rank).toBe(1);
    expect((await pageOf(guild, key, 0, 1)).total).toBe(12);
  });
});

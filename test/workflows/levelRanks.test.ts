import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createLevelsActivities } from '../../activities/levels.js';
import { systemClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { RANK_SNAPSHOT_THRESHOLD } from '../../src/levels/leaderboard.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { bearer, createTestGuild, createTestKey } from '../harness/fixtures.js';
import { testGateway } from '../harness/temporal.js';

const { database, app } = useApiTestBed();
const FIRST = 1_400_000_000_000_000_000n;

describe('rank snapshots of large servers', () => {
  it('serve pages and ranks from the snapshot until the next refresh, then the new order', async () => {
    const guild = await createTestGuild(database.db);
    const { key } = await createTestKey(database.db, guild, { scopes: ['levels:read'] });
    const members = RANK_SNAPSHOT_THRESHOLD + 5;
    // Member i has 10 + i XP: the highest index ranks first.
    await sql`INSERT INTO level_members (guild_id, user_id, xp, hidden, last_xp_at)
      SELECT ${guild.id}, (${sql.lit(FIRST.toString())}::numeric + i)::text, 10 + i, i % 1000 = 0, now()
      FROM generate_series(0, ${members - 1}) AS i`.execute(database.db);
    const refresh = createLevelsActivities({
      db: database.db,
      clock: systemClock,
      platform: createLocalPlatform(database.db),
      logger: createLogger('silent', 'test'),
      temporal: testGateway(),
      webhooks: { allowInsecureLocal: true },
    }).refreshLevelRankSnapshots;
    expect((await refresh()).refreshed).toBeGreaterThanOrEqual(1);

    const top = (FIRST + BigInt(members - 1)).toString();
    const deep = await app.http('GET', `/guilds/${guild.id}/levels/leaderboard?cursor=10000&limit=3`, { headers: bearer(key) });
    expect(deep.body.total).toBe(members);
    expect(deep.body.items.map((r: { rank: number; xp: number }) => [r.rank, r.xp])).toEqual([
      [10_001, 14],
      [10_002, 13],
      [10_003, 12],
    ]);
    expect((await app.http('GET', `/guilds/${guild.id}/levels/members/${top}`, { headers: bearer(key) })).body.rank).toBe(1);

    // The lowest member overtakes everybody: the snapshot shows it after the next refresh.
    const last = FIRST.toString();
    await database.db.updateTable('level_members').set({ xp: 1_000_000 }).where('guild_id', '=', guild.id).where('user_id', '=', last).execute();
    expect((await app.http('GET', `/guilds/${guild.id}/levels/members/${last}`, { headers: bearer(key) })).body).toMatchObject({ xp: 1_000_000, rank: members });
    await refresh();
    expect((await app.http('GET', `/guilds/${guild.id}/levels/members/${last}`, { headers: bearer(key) })).body.rank).toBe(1);
    const first = await app.http('GET', `/guilds/${guild.id}/levels/leaderboard?limit=1`, { headers: bearer(key) });
    expect(first.body.items[0]).toMatchObject({ rank: 1, userId: null, hidden: true, xp: 1_000_000 });
  });
});

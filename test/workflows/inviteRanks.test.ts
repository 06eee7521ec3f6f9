import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createInvitesActivities } from '../../activities/invites.js';
import { systemClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { INVITE_RANK_SNAPSHOT_THRESHOLD } from '../../src/invites/leaderboard.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { bearer, createTestGuild, createTestKey } from '../harness/fixtures.js';
import { testGateway } from '../harness/temporal.js';

const { database, app } = useApiTestBed();
const FIRST = 1_500_000_000_000_000_000n;

describe('invite rank snapshots of large servers', () => {
  it('serve pages and ranks (ties shared) from the snapshot until the next refresh, then the new order', async () => {
    const guild = await createTestGuild(database.db);
    const { key } = await createTestKey(database.db, guild, { scopes: ['invites:read'] });
    const members = INVITE_RANK_SNAPSHOT_THRESHOLD + 5;
    // Member i has 1 + floor(i / 2) verified invites: pairs tie, the highest index ranks first.
    await sql`INSERT INTO invite_members (guild_id, user_id, verified, total, updated_at)
      SELECT ${guild.id}, (${sql.lit(FIRST.toString())}::numeric + i)::text, 1 + i / 2, 1 + i / 2, now()
      FROM generate_series(0, ${members - 1}) AS i`.execute(database.db);
    const activities = createInvitesActivities({
      db: database.db,
      clock: systemClock,
      platform: createLocalPlatform(database.db),
      logger: createLogger('silent', 'test'),
      temporal: testGateway(),
      webhooks: { allowInsecureLocal: true },
    });
    expect(await activities.refreshInviteRankSnapshots()).toMatchObject({ refreshed: 1 });

    const deep = await app.http('GET', `/guilds/${guild.id}/invites/leaderboard?cursor=10000&limit=4`, { headers: bearer(key) });
    expect(deep.body.total).toBe(members);
    // Member 10004 has 5003 invites alone, then pairs share a rank: positions 10000-10001 (3 invites) share 10000.
    expect(deep.body.items.map((r: { rank: number; invites: number }) => [r.rank, r.invites])).toEqual([
      [10_000, 3],
      [10_002, 2],
      [10_002, 2],
      [10_004, 1],
    ]);
    expect(deep.body.nextCursor).toBe('10004');

    // The lowest member overtakes everybody: its count and rank (counted live) show at once, its place on the board
    // after the next refresh.
    const last = FIRST.toString();
    await database.db.updateTable('invite_members').set({ bonus: 1_000_000 }).where('guild_id', '=', guild.id).where('user_id', '=', last).execute();
    expect((await app.http('GET', `/guilds/${guild.id}/invites/members/${last}`, { headers: bearer(key) })).body).toMatchObject({ invites: 1_000_001, rank: 1 });
    const board = (limit: number) => app.http('GET', `/guilds/${guild.id}/invites/leaderboard?limit=${limit}`, { headers: bearer(key) });
    expect((await board(1)).body.items[0]).toMatchObject({ rank: 1, invites: 5_003 });
    await activities.refreshInviteRankSnapshots();
    expect((await board(1)).body.items[0]).toMatchObject({ rank: 1, userId: last, invites: 1_000_001 });

    // Once the server shrinks below the threshold its snapshot is dropped and ranks are live again.
    await database.db.deleteFrom('invite_members').where('guild_id', '=', guild.id).where('user_id', '!=', last).execute();
    expect(await activities.refreshInviteRankSnapshots()).toMatchObject({ dropped: 1 });
    expect((await app.http('GET', `/guilds/${guild.id}/invites/leaderboard`, { headers: bearer(key) })).body.total).toBe(1);
  });
});

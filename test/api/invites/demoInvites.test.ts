import { describe, expect, it } from 'vitest';
import { DEMO_GUILD_ID, DEMO_BOT_ID, DEMO_OWNER_ID, seedDemoGuild } from '../../../process/demo/demoGuild.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { bearer, createTestKey } from '../../harness/fixtures.js';

// The demo guild's invite tracking, as the API shows it.
const NOW = new Date('2026-11-24T12:00:00.000Z');
const { db, app } = useApiTestBed({ now: NOW });
const member = (i: number) => `11000000000000${String(1000 + i).padStart(5, '0')}`;

const snapshot = async () => ({
  members: await db().selectFrom('invite_members').selectAll().where('guild_id', '=', DEMO_GUILD_ID).orderBy('user_id').execute(),
  joins: await db().selectFrom('invite_joins').selectAll().where('guild_id', '=', DEMO_GUILD_ID).orderBy('user_id').execute(),
  seasons: await db().selectFrom('invite_seasons').selectAll().where('guild_id', '=', DEMO_GUILD_ID).orderBy('number').execute(),
});

describe('demo invites', () => {
  it('has inviters in every bucket, an ended and an active season and a milestone; seeded once', async () => {
    await seedDemoGuild(db(), NOW);
    const first = await snapshot();
    await seedDemoGuild(db(), NOW);
    expect(await snapshot()).toEqual(first);
    expect(first.seasons.map((s) => [s.number, s.name, s.ended_at !== null])).toEqual([
      [1, 'Autumn', true],
      [2, 'Winter', false],
    ]);

    const { key } = await createTestKey(db(), { id: DEMO_GUILD_ID, ownerId: DEMO_OWNER_ID, botUserId: DEMO_BOT_ID }, { scopes: ['invites:read'] });
    const all = await app.http('GET', `/guilds/${DEMO_GUILD_ID}/invites/leaderboard`, { headers: bearer(key) });
    expect(all.status).toBe(200);
    expect(all.body.items.map((r: { rank: number; userId: string; invites: number }) => [r.rank, r.userId, r.invites])).toEqual([
      [1, member(0), 7],
      [1, member(2), 7],
      [3, member(1), 5],
      [4, member(3), 3],
    ]);
    expect(all.body.season).toMatchObject({ number: 2, name: 'Winter', endsAt: null });
    const season = await app.http('GET', `/guilds/${DEMO_GUILD_ID}/invites/leaderboard?period=season`, { headers: bearer(key) });
    expect(season.body.items.map((r: { userId: string; score: number }) => [r.userId, r.score])).toEqual([
      [member(2), 7],
      [member(0), 3],
    ]);
    const basil = await app.http('GET', `/guilds/${DEMO_GUILD_ID}/invites/members/${member(1)}`, { headers: bearer(key) });
    expect(basil.body).toMatchObject({ invites: 5, verified: 3, fake: 1, bonus: 2, total: 4, rank: 3, season: { number: 2, invites: 0, rank: null } });
    const pending = await app.http('GET', `/guilds/${DEMO_GUILD_ID}/invites/members/${member(3)}`, { headers: bearer(key) });
    expect(pending.body).toMatchObject({ invites: 3, verified: 3, pending: 1, total: 4 });
    // Milestone checks wait for the worker (its start relay) in `npm run dev`.
    expect(await db().selectFrom('invite_milestone_checks').selectAll().where('guild_id', '=', DEMO_GUILD_ID).execute()).not.toHaveLength(0);
  });
});

import { describe, expect, it } from 'vitest';
import { addBonusInvites } from '../../../src/invites/addBonusInvites.js';
import { joinThroughInvite } from '../../../src/guild/joinThroughInvite.js';
import { judgeInviteJoin } from '../../../src/invites/judgeInviteJoin.js';
import { endInviteSeason, startInviteSeason } from '../../../src/invites/seasons.js';
import { leaveMember } from '../../../src/guild/leaveMember.js';
import { useApiTestBed } from '../../harness/apiTestBed.js';
import { addTestMember, bearer, createTestGuild, createTestKey, snowflake, type TestGuild } from '../../harness/fixtures.js';

const { database, app } = useApiTestBed();
const actor = { type: 'system' } as const;

async function seasonGuild() {
  const guild = await createTestGuild(database.db);
  const { key } = await createTestKey(database.db, guild, { scopes: ['invites:read', 'invites:write'] });
  return { guild, key };
}

const tx = <T>(fn: (trx: typeof database.db) => Promise<T>) => database.db.transaction().execute(fn);
const join = (guild: TestGuild, userId: string, inviterId: string) =>
  tx((trx) => joinThroughInvite(trx, { guildId: guild.id, userId, username: 'u', bot: false, roleIds: [], inviterId, inviteCode: null, at: new Date(), actor }));
const verify = (guild: TestGuild, userId: string) => tx((trx) => judgeInviteJoin(trx, { guildId: guild.id, userId, verdict: 'verify', at: new Date(), actor }));
const leave = (guild: TestGuild, userId: string) => tx((trx) => leaveMember(trx, { guildId: guild.id, userId, at: new Date(), actor }));
const start = (guild: TestGuild, name: string | null = null) => tx((trx) => startInviteSeason(trx, { guildId: guild.id, name, at: new Date(), actor }));
const end = (guild: TestGuild) => tx((trx) => endInviteSeason(trx, { guildId: guild.id, at: new Date(), actor }));
const bonus = (guild: TestGuild, userId: string, amount: number) =>
  tx((trx) => addBonusInvites(trx, { guildId: guild.id, userId, amount, reason: null, actor, at: new Date() })).then((r) => r.result);
const getMember = (guild: TestGuild, key: string, userId: string) =>
  app.http('GET', `/guilds/${guild.id}/invites/members/${userId}`, { headers: bearer(key) });
const getBoard = (guild: TestGuild, key: string, query: string) =>
  app.http('GET', `/guilds/${guild.id}/invites/leaderboard${query}`, { headers: bearer(key) });

describe('seasons', () => {
  it('counts verified joins and bonus of the window, shows the season on member and board, and freezes it at its end', async () => {
    const { guild, key } = await seasonGuild();
    const [inviter, other] = [snowflake(), snowflake()];
    const [before, during, late] = [snowflake(), snowflake(), snowflake()];
    await join(guild, before, inviter);
    await verify(guild, before); // before any season: all-time only
    const season = await start(guild, 'Winter');
    await join(guild, during, inviter);
    await verify(guild, during);
    await bonus(guild, inviter, 2);
    await bonus(guild, other, 1);

    const member = await getMember(guild, key, inviter);
    expect(member.body).toMatchObject({ invites: 4, verified: 2, bonus: 2, rank: 1 });
    expect(member.body.season).toEqual({
      id: season.id,
      number: 1,
      name: 'Winter',
      startsAt: season.startedAt.toISOString(),
      endsAt: null,
      invites: 3,
      rank: 1,
    });
    const board = await getBoard(guild, key, '?period=season');
    expect(board.body).toEqual({
      period: 'season',
      season: { id: season.id, number: 1, name: 'Winter', startsAt: season.startedAt.toISOString(), endsAt: null },
      items: [
        { rank: 1, userId: inviter, score: 3, invites: 3, verified: 1, bonus: 2 },
        { rank: 2, userId: other, score: 1, invites: 1, verified: 0, bonus: 1 },
      ],
      total: 2,
      nextCursor: null,
    });
    expect((await getBoard(guild, key, '?period=all')).body.season).toMatchObject({ id: season.id });

    // A verified join of the season that leaves no longer counts in it.
    await leave(guild, during);
    expect((await getMember(guild, key, inviter)).body.season).toMatchObject({ invites: 2 });

    await end(guild);
    await addTestMember(database.db, guild, { userId: late });
    await bonus(guild, inviter, 5); // after the end: all-time only
    const frozen = await database.db.selectFrom('invite_season_members').selectAll().where('season_id', '=', season.id).orderBy('user_id').execute();
    expect(frozen.find((r) => r.user_id === inviter)).toMatchObject({ verified: 0, bonus: 2, invites: 2 });
    const after = await getMember(guild, key, inviter);
    expect(after.body).toMatchObject({ invites: 8, verified: 1, bonus: 7, season: null });
    expect((await getBoard(guild, key, '?period=season')).body).toEqual({ period: 'season', season: null, items: [], total: 0, nextCursor: null });

    // The next season starts from zero.
    const second = await start(guild);
    expect(second.number).toBe(2);
    expect((await getMember(guild, key, inviter)).body.season).toMatchObject({ number: 2, invites: 0, rank: null });
  });

  it('counts a join verified in an earlier season nowhere once it rejoins in a later one', async () => {
    const { guild, key } = await seasonGuild();
    const [inviter, user] = [snowflake(), snowflake()];
    await start(guild);
    await join(guild, user, inviter);
    await verify(guild, user);
    await end(guild);
    await start(guild);
    await leave(guild, user);
    await join(guild, user, snowflake());
    const member = await getMember(guild, key, inviter);
    expect(member.body).toMatchObject({ invites: 1, verified: 1, left: 0, total: 1, season: { number: 2, invites: 0 } });
  });

  it('lands each concurrent bonus in the season or after its end, never both, and without deadlocks', async () => {
    const { guild, key } = await seasonGuild();
    const userId = await addTestMember(database.db, guild);
    const season = await start(guild);
    const posts = Array.from({ length: 20 }, () =>
      app.http('POST', `/guilds/${guild.id}/invites/members/${userId}/bonus`, { headers: bearer(key), body: { amount: 1 } }),
    );
    const [ended, ...results] = await Promise.all([end(guild), ...posts]);
    expect(ended.endedAt).not.toBeNull();
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    const audit = await database.db.selectFrom('audit_log').select('data').where('guild_id', '=', guild.id).where('action', '=', 'invites.bonus').execute();
    const inSeason = audit.filter((a) => (a.data as { seasonId: number | null }).seasonId === season.id).length;
    const row = await database.db.selectFrom('invite_season_members').selectAll().where('season_id', '=', season.id).where('user_id', '=', userId).executeTakeFirst();
    expect(row?.bonus ?? 0).toBe(inSeason);
    expect((await getMember(guild, key, userId)).body).toMatchObject({ bonus: 20, invites: 20, season: null });
  });
});

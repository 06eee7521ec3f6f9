import { describe, expect, it } from 'vitest';
import { addLevelReward, saveLevelSettings } from '../../db/levels/members.js';
import { listPlatformMessages } from '../../db/platform/messages.js';
import { deletePlatformMember, upsertPlatformRoles } from '../../db/platform/local.js';
import { listRoleChanges } from '../../db/platform/roles.js';
import { totalXpForLevel } from '../../src/levels/curve.js';
import { EVENT_DATA_SCHEMAS } from '../../src/events/contract.js';
import { relayUnstarted } from '../../src/core/temporal/operation.js';
import { xpChangeOperation } from '../../src/levels/xpChangeOperation.js';
import { systemClock } from '../../src/core/clock.js';
import type { TemporalGateway } from '../../src/core/temporal/gateway.js';
import { Client, Connection } from '@temporalio/client';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';
import { eventually } from '../harness/eventually.js';
import { addTestMember, bearer, createTestGuild, createTestKey, snowflake, type TestGuild } from '../harness/fixtures.js';
import { startTestApp } from '../harness/testApp.js';

const { database, gateway, app } = useWorkflowTestBed();

async function levelsGuild() {
  const guild = await createTestGuild(database.db);
  const { key } = await createTestKey(database.db, guild, { scopes: ['levels:read', 'levels:write'] });
  const userId = await addTestMember(database.db, guild);
  return { guild, key, userId };
}

const postChange = (guild: TestGuild, key: string, userId: string, body: unknown, headers: Record<string, string> = {}) =>
  app.http('POST', `/guilds/${guild.id}/levels/members/${userId}/xp-changes`, { headers: { ...bearer(key), ...headers }, body });

const poll = (guild: TestGuild, key: string, changeId: string) =>
  app.http('GET', `/guilds/${guild.id}/levels/xp-changes/${changeId}`, { headers: bearer(key) });

async function untilFinished(guild: TestGuild, key: string, changeId: string) {
  const res = await eventually(() => poll(guild, key, changeId), (r) => r.body?.status === 'done' || r.body?.status === 'failed');
  return res.body;
}

async function xpOf(guild: TestGuild, key: string, userId: string) {
  return (await app.http('GET', `/guilds/${guild.id}/levels/members/${userId}`, { headers: bearer(key) })).body;
}

describe('XP changes', () => {
  it('answers 202 pending and finishes done with the result', async () => {
    const { guild, key, userId } = await levelsGuild();
    const res = await postChange(guild, key, userId, { type: 'add', amount: 120, reason: 'event win' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      changeId: expect.stringMatching(/^xpc_/),
      userId,
      type: 'add',
      unit: 'xp',
      amount: 120,
      status: 'pending',
      result: null,
      error: null,
      createdAt: expect.any(String),
      processedAt: null,
    });
    const done = await untilFinished(guild, key, res.body.changeId);
    expect(done).toMatchObject({ status: 'done', result: { previousLevel: 0, level: 1, xp: 120 }, error: null });
    expect(done.processedAt).toEqual(expect.any(String));
    expect(await xpOf(guild, key, userId)).toMatchObject({ xp: 120, level: 1, xpIntoLevel: 20, xpForNext: 155, rank: 1 });
  });

  it.each([
    ['remove below zero stops at 0', 50, { type: 'remove', amount: 500 }, 0],
    ['set replaces the total', 50, { type: 'set', amount: 7 }, 7],
    ['add levels keeps the progress inside the level', 130, { type: 'add', amount: 2, unit: 'levels' }, totalXpForLevel(3) + 30],
    ['remove levels keeps the progress', totalXpForLevel(3) + 30, { type: 'remove', amount: 1, unit: 'levels' }, totalXpForLevel(2) + 30],
    ['set levels moves to the level', 130, { type: 'set', amount: 5, unit: 'levels' }, totalXpForLevel(5) + 30],
  ])('%s', async (_label, startXp, body, expectedXp) => {
    const { guild, key, userId } = await levelsGuild();
    const seed = await postChange(guild, key, userId, { type: 'set', amount: startXp });
    await untilFinished(guild, key, seed.body.changeId);
    const res = await postChange(guild, key, userId, body);
    const done = await untilFinished(guild, key, res.body.changeId);
    expect(done.status).toBe('done');
    expect(done.result.xp).toBe(expectedXp);
    expect((await xpOf(guild, key, userId)).xp).toBe(expectedXp);
  });

  it('gives reward roles, removes the previous one, announces once and emits levels.levelUp', async () => {
    const { guild, key, userId } = await levelsGuild();
    const [bronze, silver, channel] = [snowflake(), snowflake(), snowflake()];
    await upsertPlatformRoles(database.db, guild.id, [
      { roleId: bronze, name: 'Bronze', position: 1 },
      { roleId: silver, name: 'Silver', position: 2 },
    ]);
    await addLevelReward(database.db, guild.id, { level: 1, roleId: bronze });
    await addLevelReward(database.db, guild.id, { level: 3, roleId: silver });
    await saveLevelSettings(database.db, guild.id, {
      announceChannelId: channel,
      announceTemplate: '{user} is now level {level}',
      removePreviousRewards: true,
    });
    const first = await postChange(guild, key, userId, { type: 'add', amount: 1, unit: 'levels' });
    await untilFinished(guild, key, first.body.changeId);
    const second = await postChange(guild, key, userId, { type: 'set', amount: 3, unit: 'levels' });
    expect((await untilFinished(guild, key, second.body.changeId)).result).toEqual({ previousLevel: 1, level: 3, xp: totalXpForLevel(3) });

    expect(await listRoleChanges(database.db, guild.id, userId)).toEqual([
      { role_id: bronze, action: 'add' },
      { role_id: silver, action: 'add' },
      { role_id: bronze, action: 'remove' },
    ]);
    const messages = await listPlatformMessages(database.db, guild.id, channel);
    expect(messages.map((m) => m.content)).toEqual([`<@${userId}>\n**Level 1**\n<@${userId}> is now level 1`, `<@${userId}>\n**Level 3**\n<@${userId}> is now level 3`]);
    const events = await database.db.selectFrom('events').select(['type', 'data']).where('guild_id', '=', guild.id).orderBy('seq').execute();
    for (const e of events) EVENT_DATA_SCHEMAS['levels.levelUp'].strict().parse(e.data);
    expect(events).toEqual([
      { type: 'levels.levelUp', data: { userId, level: 1, previousLevel: 0, source: 'admin' } },
      { type: 'levels.levelUp', data: { userId, level: 3, previousLevel: 1, source: 'admin' } },
    ]);
    const audit = await database.db.selectFrom('audit_log').select('action').where('guild_id', '=', guild.id).where('action', '=', 'levels.xpChange').execute();
    expect(audit).toHaveLength(2);
  });

  it('fails with MEMBER_NOT_FOUND when the member left before the bot applied it, and changes nothing', async () => {
    const { guild, key, userId } = await levelsGuild();
    // Temporal unreachable at accept time: the change is stored and its start is left to the relay.
    const unreachable = { client: new Client({ connection: Connection.lazy({ address: '127.0.0.1:1' }) }), taskQueue: gateway.taskQueue };
    const res = await postChangeWithoutWorker(guild, key, userId, { type: 'add', amount: 10 }, unreachable);
    await deletePlatformMember(database.db, guild.id, userId);
    await database.db.updateTable('xp_changes').set({ created_at: new Date(Date.now() - 60_000) }).where('change_id', '=', res.changeId).execute();
    expect(await relayUnstarted({ db: database.db, temporal: gateway, clock: systemClock }, xpChangeOperation)).toBeGreaterThanOrEqual(1);
    const failed = await untilFinished(guild, key, res.changeId);
    expect(failed).toMatchObject({ status: 'failed', result: null, error: 'MEMBER_NOT_FOUND' });
    expect(await database.db.selectFrom('level_members').selectAll().where('guild_id', '=', guild.id).execute()).toEqual([]);
    expect(await database.db.selectFrom('events').selectAll().where('guild_id', '=', guild.id).execute()).toEqual([]);
  });

  it('answers pending while no worker runs the change', async () => {
    const { guild, key, userId } = await levelsGuild();
    const res = await postChangeWithoutWorker(guild, key, userId, { type: 'add', amount: 10 }, { ...gateway, taskQueue: `idle-${snowflake()}` });
    const polled = await poll(guild, key, res.changeId);
    expect(polled.status).toBe(200);
    expect(polled.body).toMatchObject({ changeId: res.changeId, status: 'pending', result: null });
  });
});

/** Accepts a change through an api whose workflows go elsewhere (an unpolled task queue, or nowhere). */
async function postChangeWithoutWorker(guild: TestGuild, key: string, userId: string, body: unknown, temporal: TemporalGateway) {
  const idleApp = await startTestApp(database.db, { deps: { temporal } });
  try {
    const res = await idleApp.http('POST', `/guilds/${guild.id}/levels/members/${userId}/xp-changes`, { headers: bearer(key), body });
    expect(res.status).toBe(202);
    return res.body as { changeId: string; userId: string; type: 'add'; unit: 'xp'; amount: number };
  } finally {
    await idleApp.close();
  }
}

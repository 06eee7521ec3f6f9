import { Context } from '@temporalio/activity';
import { describe, expect, it } from 'vitest';
import { addLevelReward, saveLevelSettings } from '../../db/levels/members.js';
import { listPlatformMessages } from '../../db/platform/messages.js';
import { upsertPlatformRoles } from '../../db/platform/local.js';
import { listRoleChanges } from '../../db/platform/roles.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import type { Platform } from '../../src/core/platform.js';
import { useApiTestBed } from '../harness/apiTestBed.js';
import { eventually } from '../harness/eventually.js';
import { addTestMember, bearer, createTestGuild, createTestKey, snowflake } from '../harness/fixtures.js';
import { startStoppableWorker } from '../harness/temporal.js';

// The test starts and stops its workers itself: the bed's gateway has none.
const { database, gateway, app } = useApiTestBed({ temporal: true });

const startWorker = (platform: Platform) => startStoppableWorker(database.db, gateway, platform);

describe('a worker that dies in the middle of an XP change', () => {
  it('leaves the change to the next worker, which finishes it with every effect exactly once', async () => {
    const guild = await createTestGuild(database.db);
    const { key } = await createTestKey(database.db, guild, { scopes: ['levels:write'] });
    const userId = await addTestMember(database.db, guild);
    const [reward, channel] = [snowflake(), snowflake()];
    await upsertPlatformRoles(database.db, guild.id, [{ roleId: reward, name: 'Level 2', position: 1 }]);
    await addLevelReward(database.db, guild.id, { level: 2, roleId: reward });
    await saveLevelSettings(database.db, guild.id, { announceChannelId: channel, announceTemplate: 'up {level}', removePreviousRewards: false });

    const real = createLocalPlatform(database.db);
    let posted!: () => void;
    const postedOnce = new Promise<void>((resolve) => (posted = resolve));
    // The first worker posts the announcement, then never answers: its process is about to die.
    const dying: Platform = {
      ...real,
      async postMessage(...args) {
        await real.postMessage(...args);
        posted();
        await new Promise((_, reject) => Context.current().cancellationSignal.addEventListener('abort', () => reject(new Error('worker died'))));
        return '';
      },
    };
    const first = await startWorker(dying);
    const res = await app.http('POST', `/guilds/${guild.id}/levels/members/${userId}/xp-changes`, {
      headers: bearer(key),
      body: { type: 'set', amount: 2, unit: 'levels' },
    });
    await postedOnce;
    await first.stop();
    const mid = await app.http('GET', `/guilds/${guild.id}/levels/xp-changes/${res.body.changeId}`, { headers: bearer(key) });
    expect(mid.body.status).toBe('processing');

    const second = await startWorker(real);
    try {
      const done = await eventually(
        () => app.http('GET', `/guilds/${guild.id}/levels/xp-changes/${res.body.changeId}`, { headers: bearer(key) }),
        (r) => r.body.status === 'done',
      );
      expect(done.body.result).toEqual({ previousLevel: 0, level: 2, xp: 255 });
    } finally {
      await second.stop();
    }
    expect(await listRoleChanges(database.db, guild.id, userId)).toEqual([{ role_id: reward, action: 'add' }]);
    expect((await listPlatformMessages(database.db, guild.id, channel)).map((m) => m.content)).toEqual([`<@${userId}>\n**Level 2**\nup 2`]);
    const ledger = await database.db.selectFrom('level_members').select('xp').where('guild_id', '=', guild.id).execute();
    expect(ledger).toEqual([{ xp: 255 }]);
    const events = await database.db.selectFrom('events').select('type').where('guild_id', '=', guild.id).execute();
    expect(events).toEqual([{ type: 'levels.levelUp' }]);
  });
});

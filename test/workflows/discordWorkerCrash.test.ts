import { afterAll, describe, expect, it } from 'vitest';
import { addLevelReward, saveLevelSettings } from '../../db/levels/members.js';
import { systemClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { createDiscordPlatform } from '../../src/platform/discord/discordPlatform.js';
import { startFakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { activityCancellation } from '../../process/platform.js';
import { useTestDatabase } from '../harness/database.js';
import { createDiscordGuild, discordPlatformOn } from '../harness/discordGuild.js';
import { eventually } from '../harness/eventually.js';
import { bearer } from '../harness/fixtures.js';
import { startStoppableWorker, testGateway } from '../harness/temporal.js';
import { useTestApp } from '../harness/testApp.js';

// A worker killed between Discord's taking a post and its answer: the next worker's retry carries the same nonce,
// so Discord (the fake) answers with the first message and the channel holds one.

const fake = await startFakeDiscord();
afterAll(() => fake.close());
const database = useTestDatabase();
const gateway = testGateway();
afterAll(() => gateway.client.connection.close());
// The test starts and stops its workers itself; the app reads members from Discord (the fake).
const app = useTestApp(() => database.db, { deps: { temporal: gateway, platform: discordPlatformOn(fake) } });

// As the worker process builds it: each Discord call also ends when its activity is cancelled.
const startWorker = () =>
  startStoppableWorker(
    database.db,
    gateway,
    createDiscordPlatform({ token: fake.token, apiUrl: fake.apiUrl, clock: systemClock, logger: createLogger('silent', 'crash'), callSignal: activityCancellation }),
  );

describe('a worker that dies while Discord holds its answer', () => {
  it('the next worker finishes the XP change with one role and one announcement', async () => {
    const g = await createDiscordGuild(database.db, fake);
    const userId = g.addMember();
    await addLevelReward(database.db, g.id, { level: 2, roleId: g.roles.reward });
    await saveLevelSettings(database.db, g.id, { announceChannelId: g.channels.general, announceTemplate: 'up {level}', removePreviousRewards: false });
    const announcements = () => fake.requests.filter((r) => r.method === 'POST' && r.path === `/channels/${g.channels.general}/messages`);
    fake.fail({ method: 'POST', path: `/channels/${g.channels.general}/messages`, holdAnswer: true });

    const first = await startWorker();
    const res = await app.http('POST', `/guilds/${g.id}/levels/members/${userId}/xp-changes`, { headers: bearer(g.key), body: { type: 'set', amount: 2, unit: 'levels' } });
    expect(res.body).toMatchObject({ status: 'pending' });
    await eventually(async () => announcements().length, (n) => n === 1);
    await first.stop();
    const mid = await app.http('GET', `/guilds/${g.id}/levels/xp-changes/${res.body.changeId}`, { headers: bearer(g.key) });
    expect(mid.body).toMatchObject({ status: 'processing' });

    const second = await startWorker();
    try {
      const done = await eventually(
        () => app.http('GET', `/guilds/${g.id}/levels/xp-changes/${res.body.changeId}`, { headers: bearer(g.key) }),
        (r) => r.body.status === 'done',
      );
      expect(done.body.result).toMatchObject({ level: 2 });
    } finally {
      await second.stop();
    }
    expect(announcements()).toHaveLength(2);
    expect(new Set(announcements().map((r) => r.body?.nonce)).size).toBe(1);
    expect([...fake.state.messages.values()].filter((m) => m.channel_id === g.channels.general).map((m) => [m.content, m.embeds[0]?.description])).toEqual([[`<@${userId}>`, 'up 2']]);
    expect(fake.state.guilds.get(g.id)!.members.get(userId)!.roles).toEqual([g.roles.member, g.roles.reward]);
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { saveModerationSettings } from '../../db/moderation/settings.js';
import { buttonPressPayload, startFakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { appealOpenButtonId } from '../../src/appeals/appealForm.js';
import { FEATURES } from '../../src/core/features.js';
import { createDiscordGuild, discordPlatformOn, type DiscordGuild } from '../harness/discordGuild.js';
import { eventually } from '../harness/eventually.js';
import { bearer } from '../harness/fixtures.js';
import { useWorkflowTestBed } from '../harness/workflowTestBed.js';

// The ban DM carries the Appeal button when the server takes appeals: the bot's own DM is the one place on Discord
// where a banned user can press it (they are no longer in the server). Without appeals, the DM has no button.

const fake = await startFakeDiscord();
afterAll(() => fake.close());
const platform = discordPlatformOn(fake);
const { db, app } = useWorkflowTestBed({ worker: { platform }, app: { deps: { platform } } });

async function ban(g: { id: string; key: string }, userId: string, body: unknown = { reason: 'raids' }) {
  const res = await app.http('POST', `/guilds/${g.id}/moderation/users/${userId}/ban`, { headers: bearer(g.key), body });
  expect(res.status).toBe(202);
  const done = await eventually(
    () => app.http('GET', `/guilds/${g.id}/moderation/actions/${res.body.actionId}`, { headers: bearer(g.key) }),
    (r) => r.body?.status === 'done' || r.body?.status === 'failed',
  );
  expect(done.body).toMatchObject({ status: 'done' });
}

/** The bot's DMs to the user on the fake, oldest first. */
const dmsTo = (userId: string) => [...fake.state.messages.values()].filter((m) => m.channel_id === fake.state.dmChannels.get(userId));

async function discordGuildWith(appeals: boolean): Promise<DiscordGuild> {
  const g = await createDiscordGuild(db(), fake, { features: FEATURES.filter((f) => appeals || f !== 'appeals') });
  await saveModerationSettings(db(), g.id, { dmMembers: true, logChannelId: null, warningExpirySeconds: null });
  return g;
}

describe('the ban DM', () => {
  it.each([
    ['a ban', {}],
    ['a tempban', { durationSeconds: 86_400 }],
  ])('%s, appeals on: the DM says how to appeal and carries the Appeal button, which the banned user can press', async (_, extra) => {
    const g = await discordGuildWith(true);
    const target = g.addMember();
    await ban(g, target, { reason: 'raids', ...extra });
    const [dm] = dmsTo(target);
    expect(dm!.content).toContain('To appeal, press Appeal below.');
    expect(dm!.components).toEqual([{ type: 1, components: [{ type: 2, style: 1, custom_id: appealOpenButtonId(g.id), label: 'Appeal' }] }]);
    expect(buttonPressPayload(fake.state, { messageId: dm!.id, customId: appealOpenButtonId(g.id), userId: target })).toMatchObject({
      user: { id: target },
      data: { custom_id: appealOpenButtonId(g.id) },
    });
  });

  it('appeals off: the DM has no button and no appeal line; a kick never offers one', async () => {
    const g = await discordGuildWith(false);
    const target = g.addMember();
    await ban(g, target);
    const [dm] = dmsTo(target);
    expect(dm!.content).toBe('You were banned from Discord Test Guild.\nReason: raids');
    expect(dm!.components).toEqual([]);

    const on = await discordGuildWith(true);
    const kicked = on.addMember();
    const res = await app.http('POST', `/guilds/${on.id}/moderation/users/${kicked}/kick`, { headers: bearer(on.key), body: { reason: 'spam' } });
    await eventually(
      () => app.http('GET', `/guilds/${on.id}/moderation/actions/${res.body.actionId}`, { headers: bearer(on.key) }),
      (r) => r.body?.status === 'done',
    );
    expect(dmsTo(kicked).map((m) => [m.content, m.components])).toEqual([['You were kicked from Discord Test Guild.\nReason: spam', []]]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { createDiscordPlatform } from '../../src/platform/discord/discordPlatform.js';
import { BOT_INVITE_PERMISSIONS, addGuild, startFakeDiscord, type FakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { snowflake } from '../harness/fixtures.js';

// The Discord adapter sends the port's embeds and pings as Discord's JSON, fitted within Discord's limits, so the
// fake (as strict as Discord) takes every one.

let fake: FakeDiscord;
beforeAll(async () => {
  fake = await startFakeDiscord();
});
afterAll(() => fake.close());

function setup() {
  const [guildId, general, botRole, pingRole, alice] = [snowflake(), snowflake(), snowflake(), snowflake(), snowflake()];
  addGuild(fake.state, {
    id: guildId,
    name: 'Messages',
    ownerId: snowflake(),
    roles: [
      { id: botRole, name: 'Bot', position: 2, managed: true, permissions: BOT_INVITE_PERMISSIONS },
      { id: pingRole, name: 'Giveaways', position: 1 },
    ],
    channels: [{ id: general, type: 0, name: 'general' }],
    members: [
      { id: fake.state.bot.id, username: 'bot', bot: true, roles: [botRole] },
      { id: alice, username: 'alice' },
    ],
  });
  const platform = createDiscordPlatform({ token: fake.token, apiUrl: fake.apiUrl, clock: fixedClock(new Date('2026-11-29T10:00:00Z')), logger: createLogger('silent', 'messages') });
  const from = fake.requests.length;
  const writes = () => fake.requests.slice(from).filter((r) => r.method !== 'GET');
  return { guildId, general, pingRole, alice, platform, writes };
}

const card = {
  title: 'Nitro',
  description: 'Ends <t:1796032800:R>',
  color: 0xd94cff,
  thumbnailUrl: 'https://img.example/t.png',
  imageUrl: 'https://img.example/i.png',
  footer: '1 winner · Ends',
  timestamp: new Date('2026-12-01T10:00:00Z'),
  fields: [{ name: 'Host', value: '<@200000000000000001>', inline: true }],
};

describe('Discord adapter: embeds and pings', () => {
  it('sends embeds as Discord JSON and names exactly who may be pinged, the role included', async () => {
    const s = setup();
    await s.platform.postMessage(s.guildId, s.general, `<@&${s.pingRole}> giveaway`, 'msg/1', { embeds: [card], mentions: { userIds: [], roleIds: [s.pingRole] } });
    expect(s.writes()[0]!.body).toMatchObject({
      content: `<@&${s.pingRole}> giveaway`,
      embeds: [
        {
          title: 'Nitro',
          description: 'Ends <t:1796032800:R>',
          color: 0xd94cff,
          thumbnail: { url: 'https://img.example/t.png' },
          image: { url: 'https://img.example/i.png' },
          footer: { text: '1 winner · Ends' },
          timestamp: '2026-12-01T10:00:00.000Z',
          fields: [{ name: 'Host', value: '<@200000000000000001>', inline: true }],
        },
      ],
      allowed_mentions: { parse: [], users: [], roles: [s.pingRole] },
    });
    const [message] = [...fake.state.messages.values()].filter((m) => m.channel_id === s.general);
    expect(message).toMatchObject({ mention_roles: [s.pingRole], embeds: [expect.objectContaining({ title: 'Nitro' })] });
  });

  it('without mentions given, pings the users the content names and nothing else (@everyone in a text stays quiet)', async () => {
    const s = setup();
    await s.platform.postMessage(s.guildId, s.general, `@everyone <@${s.alice}> <@&${s.pingRole}>`, 'msg/2');
    expect(s.writes()[0]!.body).toMatchObject({ allowed_mentions: { parse: [], users: [s.alice], roles: [] } });
    const [message] = [...fake.state.messages.values()].filter((m) => m.channel_id === s.general);
    expect(message).toMatchObject({ mentions: [{ id: s.alice }], mention_roles: [], mention_everyone: false });
  });

  it('a message past every limit is fitted, never refused: 2,001 characters of content, a 5,000-character description', async () => {
    const s = setup();
    await s.platform.postMessage(s.guildId, s.general, 'x'.repeat(2001), 'msg/3', { embeds: [{ title: 'T', description: 'd'.repeat(5000) }] });
    const [write] = s.writes();
    expect(write!.status).toBe(200);
    const body = write!.body as { content: string; embeds: Array<{ description: string }> };
    expect([body.content.length, body.embeds[0]!.description.length]).toEqual([2000, 4096]);
    expect(body.content.endsWith('…')).toBe(true);
  });

  it('an edit replaces the embeds it is given, [] takes them away, and none given leaves them', async () => {
    const s = setup();
    const id = await s.platform.postMessage(s.guildId, s.general, 'Giveaway', 'msg/4', { embeds: [card] });
    expect(await s.platform.editMessage(s.guildId, s.general, id, 'Ended', { embeds: [{ title: 'Ended', color: 0x4e5058 }] })).toBe(true);
    expect(fake.state.messages.get(id)).toMatchObject({ content: 'Ended', embeds: [{ title: 'Ended', color: 0x4e5058 }] });
    expect(await s.platform.editMessage(s.guildId, s.general, id, 'Ended again')).toBe(true);
    expect(fake.state.messages.get(id)).toMatchObject({ content: 'Ended again', embeds: [{ title: 'Ended' }] });
    expect(await s.platform.editMessage(s.guildId, s.general, id, 'Bare', { embeds: [] })).toBe(true);
    expect(fake.state.messages.get(id)).toMatchObject({ content: 'Bare', embeds: [] });
    expect(s.writes().map((w) => w.status)).toEqual([200, 200, 200, 200]);
  });

  it('a DM carries its embeds too, with an empty content', async () => {
    const s = setup();
    expect(await s.platform.sendDirectMessage(s.guildId, s.alice, '', 'dm/1', { embeds: [{ title: 'Level 3', description: 'GG' }] })).toBe('sent');
    const dm = [...fake.state.messages.values()].find((m) => m.channel_id === fake.state.dmChannels.get(s.alice));
    expect(dm).toMatchObject({ content: '', embeds: [{ title: 'Level 3', description: 'GG' }] });
  });
});

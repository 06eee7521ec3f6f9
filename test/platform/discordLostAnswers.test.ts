import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { PlatformUnavailableError } from '../../src/core/platform.js';
import { createDiscordPlatform } from '../../src/platform/discord/discordPlatform.js';
import { BOT_INVITE_PERMISSIONS, addGuild, startFakeDiscord, type FakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { snowflake } from '../harness/fixtures.js';

// A post Discord made whose answer never reached the adapter (the connection closed after the fake applied it): the
// call fails as an outage, and the caller's retry, with the same idempotency key, sends the same nonce with
// enforce_nonce, so Discord answers the message it already made. Channel posts and DMs alike.

let fake: FakeDiscord;
beforeAll(async () => {
  fake = await startFakeDiscord();
});
afterAll(() => fake.close());

function setup() {
  const [guildId, general, alice, botRole] = [snowflake(), snowflake(), snowflake(), snowflake()];
  addGuild(fake.state, {
    id: guildId,
    name: 'Lost answers',
    ownerId: snowflake(),
    roles: [{ id: botRole, name: 'Bot', position: 2, managed: true, permissions: BOT_INVITE_PERMISSIONS }],
    channels: [{ id: general, type: 0, name: 'general' }],
    members: [
      { id: alice, username: 'alice' },
      { id: fake.state.bot.id, username: 'bot', bot: true, roles: [botRole] },
    ],
  });
  const platform = createDiscordPlatform({ token: fake.token, apiUrl: fake.apiUrl, clock: fixedClock(new Date()), logger: createLogger('silent', 'lost-answers') });
  const messagesIn = (channelId: string | undefined) => [...fake.state.messages.values()].filter((m) => m.channel_id === channelId);
  return { guildId, general, alice, platform, messagesIn };
}

describe('Discord adapter: a post whose answer is lost', () => {
  it('a channel post: the first call fails as an outage, the retry answers the message Discord made; one message', async () => {
    const { platform, guildId, general, messagesIn } = setup();
    fake.fail({ method: 'POST', path: `/channels/${general}/messages`, dropAnswer: true });
    const lost = await platform.postMessage(guildId, general, 'Giveaway!', `giveaway-message/${guildId}/1`).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(PlatformUnavailableError);
    expect(messagesIn(general)).toHaveLength(1);
    const id = await platform.postMessage(guildId, general, 'Giveaway!', `giveaway-message/${guildId}/1`);
    expect(messagesIn(general).map((m) => m.id)).toEqual([id]);
  });

  it('a DM: the retry opens the same DM channel and answers the DM already sent; one message', async () => {
    const { platform, guildId, alice, messagesIn } = setup();
    fake.fail({ method: 'POST', path: /^\/channels\/\d+\/messages$/, dropAnswer: true });
    const lost = await platform.sendDirectMessage(guildId, alice, 'You won', `giveaway-dm/${guildId}/1/1/${alice}`).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(PlatformUnavailableError);
    expect(await platform.sendDirectMessage(guildId, alice, 'You won', `giveaway-dm/${guildId}/1/1/${alice}`)).toBe('sent');
    expect(messagesIn(fake.state.dmChannels.get(alice)).map((m) => m.content)).toEqual(['You won']);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findApiKey } from '../../db/keys/apiKeys.js';
import { findGuild } from '../../db/guild/guilds.js';
import { findPlatformGuild } from '../../db/platform/local.js';
import { fixedClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { createDiscordPlatform } from '../../src/platform/discord/discordPlatform.js';
import { addGuild, serverError, startFakeDiscord, type FakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { useTestDatabase } from '../harness/database.js';
import { snowflake } from '../harness/fixtures.js';
import { cli } from './cli.js';

// `npm run admin -- guild create` with PLATFORM=discord: the server is read from Discord (here, the fake).

const database = useTestDatabase();
const clock = fixedClock(new Date('2026-11-22T10:00:00Z'));
let fake: FakeDiscord;
beforeAll(async () => {
  fake = await startFakeDiscord();
});
afterAll(() => fake.close());

const discordAdmin = (token = fake.token) =>
  cli(() => database.db, clock, { platform: createDiscordPlatform({ token, apiUrl: fake.apiUrl, clock, logger: createLogger('silent', 'admin-test') }) });

function serverOnDiscord() {
  const id = snowflake();
  const ownerId = snowflake();
  addGuild(fake.state, {
    id,
    name: 'Dragon Riders',
    ownerId,
    icon: 'a1b2c3',
    roles: [{ id: snowflake(), name: 'Rider', position: 1 }],
    channels: [
      { id: snowflake(), type: 0, name: 'general' },
      { id: snowflake(), type: 4, name: 'Info' },
    ],
    members: [
      { id: ownerId, username: 'owner' },
      { id: fake.state.bot.id, username: 'Community Bot', bot: true },
    ],
  });
  return { id, ownerId };
}

describe('guild create with PLATFORM=discord', () => {
  it("registers the server the bot is in with Discord's name, icon, owner and bot; key create records the owner as creator", async () => {
    const { id, ownerId } = serverOnDiscord();
    const admin = discordAdmin();
    const res = await admin('guild', 'create', '--id', id, '--plan', 'pro', '--json');
    expect(res.stderr).toBe('');
    expect(res.json()).toMatchObject({
      id,
      name: 'Dragon Riders',
      icon: 'a1b2c3',
      plan: 'pro',
      ownerId,
      discord: { roleCount: 2, channelCount: 2, memberCount: 2 },
    });
    expect(await findPlatformGuild(database.db, id)).toMatchObject({ owner_id: ownerId, bot_user_id: fake.state.bot.id });
    const key = await admin('key', 'create', '--guild', id, '--name', 'ops', '--scopes', 'all', '--json');
    expect(key.code).toBe(0);
    expect(await findApiKey(database.db, id, key.json().id)).toMatchObject({ createdBy: ownerId });
  });

  it('--name overrides the name read from Discord; the text output names what Discord has', async () => {
    const { id } = serverOnDiscord();
    const res = await discordAdmin()('guild', 'create', '--id', id, '--name', 'Riders');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`Guild ${id} "Riders"`);
    expect(res.stdout).toContain('  discord   2 roles, 2 channels, about 2 members');
  });

  it('a server the bot is not in is refused with a clear error and nothing is registered', async () => {
    const id = snowflake();
    const res = await discordAdmin()('guild', 'create', '--id', id, '--json');
    expect(res.code).toBe(1);
    expect(res.error()).toEqual({
      error: 'BOT_NOT_IN_GUILD',
      message: `The bot is not in server ${id} (or it does not exist): invite the bot first (README, "Discord mode"), then run this again.`,
    });
    expect(await findGuild(database.db, id)).toBeUndefined();
  });

  it('--owner and --bot are refused as usage errors: Discord says who they are', async () => {
    const { id } = serverOnDiscord();
    const res = await discordAdmin()('guild', 'create', '--id', id, '--owner', snowflake(), '--json');
    expect(res.code).toBe(2);
    expect(res.error().error).toBe('NOT_ON_LOCAL_PLATFORM');
    expect(await findGuild(database.db, id)).toBeUndefined();
  });

  it.each([
    ['a refused token', () => discordAdmin('d3Jvbmc.dG9rZW4.bm90LXRoZS1ib3Q'), 'PLATFORM_UNAUTHORIZED'],
    [
      'Discord down',
      () => {
        fake.fail({ method: 'GET', path: /^\/guilds\/\d+$/, answer: serverError(503) });
        return discordAdmin();
      },
      'PLATFORM_UNAVAILABLE',
    ],
  ])('%s: the command fails with %s and registers nothing', async (_, admin, code) => {
    const { id } = serverOnDiscord();
    const res = await admin()('guild', 'create', '--id', id, '--json');
    expect(res.code).toBe(1);
    expect(res.error().error).toBe(code);
    expect(await findGuild(database.db, id)).toBeUndefined();
  });
});

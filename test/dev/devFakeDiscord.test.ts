import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/logger.js';
import { createLocalPlatform } from '../../src/platform/localPlatform.js';
import { DEMO_BOT_ID, DEMO_GUILD_ID, DEMO_OWNER_ID, seedDemoGuild } from '../../process/demo/demoGuild.js';
import { startDevBot } from '../../process/dev/devBot.js';
import { DEV_OAUTH_CLIENT, devPlatformChoice, startDevFakeDiscord } from '../../process/dev/devFakeDiscord.js';
import { createPlatform } from '../../process/platform.js';
import { memberMessage } from '../bot/payloads.js';
import { useTestDatabase } from '../harness/database.js';
import { snowflake } from '../harness/fixtures.js';

// `npm run dev -- --platform fake-discord`: the launcher's pieces, without starting the dev stack (fixed ports).

const database = useTestDatabase();

describe('dev --platform', () => {
  it.each([
    [[], 'configured'],
    [['--platform', 'fake-discord'], 'fake-discord'],
    [['--platform=fake-discord'], 'fake-discord'],
  ])('%o chooses %s', (argv, choice) => {
    expect(devPlatformChoice(argv)).toBe(choice);
  });

  it.each([
    [['--platform', 'discord'], /--platform must be fake-discord \(got "discord"\)/],
    [['--verbose'], /Unknown option '--verbose'/],
  ])('%o is refused with a line that says why', (argv, message) => {
    expect(() => devPlatformChoice(argv)).toThrow(message);
  });
});

describe('the fake Discord of npm run dev', () => {
  it('holds the demo guild as the local platform does, and the config points the Discord adapter at it', async () => {
    await seedDemoGuild(database.db);
    const { fake, config } = await startDevFakeDiscord(database.db, DEMO_GUILD_ID, loadConfig({}));
    try {
      expect(config.platform).toEqual({ kind: 'discord', token: fake.token, apiUrl: fake.apiUrl });
      const discord = createPlatform(config, database.db, createLogger('silent', 'dev-test'));
      const local = createLocalPlatform(database.db);
      const guild = await discord.getGuild(DEMO_GUILD_ID);
      expect(guild).toMatchObject({ id: DEMO_GUILD_ID, ownerId: DEMO_OWNER_ID, botUserId: DEMO_BOT_ID });
      expect(guild).toEqual({ ...(await local.getGuild(DEMO_GUILD_ID)), iconUrl: guild!.iconUrl });
      const byId = <T extends { id: string }>(items: T[]) => [...items].sort((a, b) => a.id.localeCompare(b.id));
      expect(byId(await discord.listRoles(DEMO_GUILD_ID))).toEqual(byId(await local.listRoles(DEMO_GUILD_ID)));
      expect(byId(await discord.listChannels(DEMO_GUILD_ID))).toEqual(byId(await local.listChannels(DEMO_GUILD_ID)));
      const owner = await discord.getMember(DEMO_GUILD_ID, DEMO_OWNER_ID);
      expect(owner).toMatchObject({ userId: DEMO_OWNER_ID, roleIds: (await local.getMember(DEMO_GUILD_ID, DEMO_OWNER_ID))!.roleIds });
      const ban = await database.db.selectFrom('platform_bans').select(['user_id', 'reason']).where('guild_id', '=', DEMO_GUILD_ID).executeTakeFirstOrThrow();
      expect(await discord.getBan(DEMO_GUILD_ID, ban.user_id)).toEqual({ reason: ban.reason });
      // The console's Discord sign-in goes through the fake, which approves as the owner.
      expect(config.console.discordOAuth).toMatchObject({ clientId: DEV_OAUTH_CLIENT.clientId, redirectUri: 'http://127.0.0.1:3000/console/oauth/callback' });
      const authorize = new URL(config.console.discordOAuth!.authorizeUrl);
      authorize.search = new URLSearchParams({ response_type: 'code', client_id: DEV_OAUTH_CLIENT.clientId, scope: 'identify guilds', state: 's', redirect_uri: config.console.discordOAuth!.redirectUri, code_challenge: 'c', code_challenge_method: 'S256' }).toString();
      const answer = await fetch(authorize, { redirect: 'manual' });
      expect(new URL(answer.headers.get('location')!).searchParams.get('code')).toMatch(/^[0-9a-f]+$/);
    } finally {
      await fake.close();
    }
  });
});

describe('the bot of npm run dev with the fake Discord', () => {
  it("connects to the fake's gateway and counts a member's message of the demo guild, its probes on BOT_PORT", async () => {
    await seedDemoGuild(database.db);
    const { fake, config } = await startDevFakeDiscord(database.db, DEMO_GUILD_ID, loadConfig({ BOT_PORT: '0' }));
    const lines: string[] = [];
    const dev = await startDevBot(config, database.db, createLogger('silent', 'dev-test'), (line) => lines.push(line), fake);
    try {
      const ready = await fetch(`${dev.probes.origin}/readyz`);
      expect(ready.status).toBe(200);
      const user = snowflake();
      const handled = new Promise((resolve) => dev.bot.events.on('handled', (t: string) => t === 'MESSAGE_CREATE' && resolve(t)));
      dev.gateway!.dispatch('MESSAGE_CREATE', memberMessage(DEMO_GUILD_ID, user, new Date()));
      await handled;
      const row = await database.db.selectFrom('level_members').select('messages').where('guild_id', '=', DEMO_GUILD_ID).where('user_id', '=', user).executeTakeFirst();
      expect(row).toEqual({ messages: 1 });
      expect(lines).toEqual([]);
    } finally {
      await dev.stop();
      await fake.close();
    }
  });
});

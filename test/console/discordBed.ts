import { afterAll, beforeAll } from 'vitest';
import { addGuild, addMember, attachFakeOAuth, startFakeDiscord, type FakeDiscord, type FakeOAuth } from '../../process/infra/fakeDiscord/index.js';
import { freePort } from '../../process/infra/freePort.js';
import { captureLogs, type CapturedLogs } from '../harness/capturedLogs.js';
import { useTestDatabase } from '../harness/database.js';
import { fixedClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { createDiscordPlatform } from '../../src/platform/discord/discordPlatform.js';
import { createDiscordGuild, type DiscordGuild } from '../harness/discordGuild.js';
import { snowflake } from '../harness/fixtures.js';
import { startTestApp, type TestApp } from '../harness/testApp.js';

export const CLIENT_ID = '1300000000000000001';
export const CLIENT_SECRET = 'console-test-client-secret';

export interface DiscordConsoleBed {
  fake: FakeDiscord;
  oauth: FakeOAuth;
  app: TestApp;
  redirectUri: string;
  /** What the api logged (info and above). */
  logs: CapturedLogs;
  /** The app's and the Discord adapter's clock: its member cache (5 minutes) moves only with it. */
  clock: ReturnType<typeof fixedClock>;
  /** A server on the fake and in the service, with a member holding its Admin role (Administrator). */
  guild(): Promise<DiscordGuild & { adminId: string; memberId: string }>;
  /** A server on the fake where the bot is not (the service does not know it); the user is its owner. */
  guildWithoutBot(ownerId: string): string;
}

/** The api in discord mode on the fake Discord, whose OAuth2 endpoints the console's sign-in uses; `env` adds settings. */
export function useDiscordConsole(env: Record<string, string> = {}): DiscordConsoleBed {
  const database = useTestDatabase();
  const bed = { clock: fixedClock(new Date('2026-05-01T09:00:00.000Z')), logs: captureLogs() } as DiscordConsoleBed;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    bed.fake = await startFakeDiscord();
    bed.oauth = attachFakeOAuth(bed.fake, { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
    const port = await freePort();
    bed.redirectUri = `http://127.0.0.1:${port}/console/oauth/callback`;
    const started = await startTestApp(database.db, {
      port,
      env: {
        PLATFORM: 'discord',
        DISCORD_TOKEN: bed.fake.token,
        DISCORD_API_URL: bed.fake.apiUrl,
        DISCORD_CLIENT_ID: CLIENT_ID,
        DISCORD_CLIENT_SECRET: CLIENT_SECRET,
        CONSOLE_REDIRECT_URI: bed.redirectUri,
        DISCORD_OAUTH_AUTHORIZE_URL: `${new URL(bed.fake.apiUrl).origin}/oauth2/authorize`,
        CONSOLE_SIGN_IN_LIMIT: '1000',
        ...env,
      },
      clock: bed.clock,
      deps: { logger: bed.logs.logger, platform: createDiscordPlatform({ token: bed.fake.token, apiUrl: bed.fake.apiUrl, clock: bed.clock, logger: createLogger('silent', 'console-discord') }) },
    });
    bed.app = started;
    close = started.close;
  });
  afterAll(async () => {
    await close?.();
    await bed.fake?.close();
  });
  bed.guild = async () => {
    const g = await createDiscordGuild(database.db, bed.fake);
    const fakeGuild = bed.fake.state.guilds.get(g.id)!;
    const adminId = snowflake();
    addMember(bed.fake.state, fakeGuild, { id: adminId, username: 'admin', roles: [g.roles.admin] });
    return { ...g, adminId, memberId: g.addMember() };
  };
  bed.guildWithoutBot = (ownerId) => {
    const id = snowflake();
    addGuild(bed.fake.state, { id, name: 'No Bot Here', ownerId, roles: [], channels: [], members: [{ id: ownerId, username: 'owner' }] });
    return id;
  };
  return bed;
}

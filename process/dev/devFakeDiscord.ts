import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import { findPlatformGuild, listPlatformChannels, listPlatformMembers, listPlatformRoles } from '../../db/platform/local.js';
import type { Database } from '../../db/schema.js';
import type { Config } from '../../src/core/config.js';
import { attachFakeOAuth, startFakeDiscord, type FakeDiscord, type FakeGuildSeed } from '../infra/fakeDiscord/index.js';

/** Which platform `npm run dev` uses: the configured one, or the fake Discord (`npm run dev -- --platform fake-discord`). */
export function devPlatformChoice(argv: string[]): 'configured' | 'fake-discord' {
  const { values } = parseArgs({ args: argv, options: { platform: { type: 'string' } }, strict: true });
  if (values.platform === undefined) return 'configured';
  if (values.platform === 'fake-discord') return 'fake-discord';
  throw new Error(`--platform must be fake-discord (got "${values.platform}"); PLATFORM=discord with DISCORD_TOKEN points dev at real Discord.`);
}

const DISCORD_CHANNEL_TYPE: Record<string, number> = { text: 0, voice: 2, category: 4, announcement: 5, stage: 13, forum: 15, media: 16, thread: 11 };

/** The fake Discord's copy of a server the local platform tables hold (the demo guild): same ids, roles, channels, members, bans. */
export async function fakeSeedOfLocalGuild(db: Kysely<Database>, guildId: string): Promise<{ seed: FakeGuildSeed; botUserId: string }> {
  const guild = (await findPlatformGuild(db, guildId))!;
  const [roles, channels, members, bans] = await Promise.all([
    listPlatformRoles(db, guildId),
    listPlatformChannels(db, guildId),
    listPlatformMembers(db, guildId),
    db.selectFrom('platform_bans').select(['user_id', 'reason']).where('guild_id', '=', guildId).execute(),
  ]);
  const seed: FakeGuildSeed = {
    id: guildId,
    name: guild.name,
    ownerId: guild.owner_id,
    icon: guild.icon,
    roles: roles.map((r) => ({ id: r.role_id, name: r.name, position: r.position, color: r.color ?? 0, managed: r.managed, hoist: r.hoist, mentionable: r.mentionable, permissions: r.permissions })),
    channels: channels.map((c) => ({ id: c.channel_id, type: DISCORD_CHANNEL_TYPE[c.type] ?? 0, name: c.name, parent_id: c.parent_id, position: c.position })),
    members: members.map((m) => ({
      id: m.user_id,
      username: m.username,
      globalName: m.global_name,
      nick: m.nickname,
      bot: m.bot,
      roles: m.role_ids.filter((id) => id !== guildId),
      joinedAt: m.joined_at.toISOString(),
      dmsClosed: !m.accepts_dms,
    })),
    bans: bans.map((b) => ({ userId: b.user_id, reason: b.reason })),
  };
  return { seed, botUserId: guild.bot_user_id };
}

/** The console's OAuth2 application on the fake (not a secret: the fake is a laptop's). */
export const DEV_OAUTH_CLIENT = { clientId: '1100000000000000099', clientSecret: 'dev-console-secret' };

/**
 * Starts the fake Discord with the server copied in, and the config that points the adapter at it. The console's
 * "Sign in with Discord" goes through the fake's OAuth2, which approves as the server's owner.
 */
export async function startDevFakeDiscord(db: Kysely<Database>, guildId: string, config: Config): Promise<{ fake: FakeDiscord; config: Config }> {
  const { seed, botUserId } = await fakeSeedOfLocalGuild(db, guildId);
  const fake = await startFakeDiscord({ guilds: [seed], bot: { id: botUserId, username: 'community-bot' } });
  attachFakeOAuth(fake, DEV_OAUTH_CLIENT).signInAs(seed.ownerId);
  const { host, port, publicBaseUrl } = config.http;
  const origin = publicBaseUrl ? new URL(publicBaseUrl).origin : `http://${host}:${port}`;
  const discordOAuth = { ...DEV_OAUTH_CLIENT, redirectUri: `${origin}/console/oauth/callback`, authorizeUrl: `${new URL(fake.apiUrl).origin}/oauth2/authorize` };
  return {
    fake,
    config: { ...config, platform: { kind: 'discord', token: fake.token, apiUrl: fake.apiUrl }, console: { ...config.console, discordOAuth } },
  };
}

import type { Kysely } from 'kysely';
import { listPlatformMessages } from '../../../db/platform/messages.js';
import { upsertPlatformChannels, upsertPlatformGuild, upsertPlatformMember, upsertPlatformRoles } from '../../../db/platform/local.js';
import { banPlatformUser, listPlatformDirectMessages, setPlatformAcceptsDms } from '../../../db/platform/moderation.js';
import type { Database } from '../../../db/schema.js';
import { fixedClock } from '../../../src/core/clock.js';
import { createLogger } from '../../../src/core/logger.js';
import type { Platform, PlatformChannelType } from '../../../src/core/platform.js';
import { createDiscordPlatform } from '../../../src/platform/discord/discordPlatform.js';
import { createLocalPlatform } from '../../../src/platform/localPlatform.js';
import { BOT_INVITE_PERMISSIONS, addGuild, type FakeDiscord } from '../../../process/infra/fakeDiscord/index.js';
import { snowflake } from '../../harness/fixtures.js';

/** A server as both adapters can be seeded with it. */
export interface World {
  guildId: string;
  name: string;
  ownerId: string;
  botUserId: string;
  roles: Array<{ id: string; name: string; position: number; permissions: bigint }>;
  channels: Array<{ id: string; name: string; type: 'text' | 'category' | 'thread'; parentId: string | null; position: number }>;
  members: Array<{ userId: string; username: string; roleIds: string[]; bot?: boolean; dmsClosed?: boolean }>;
  bans: Array<{ userId: string; username: string; reason: string }>;
}

/** One adapter under test, with the means to seed it and to see effects the port cannot read back. */
export interface Subject {
  platform: Platform;
  seed(world: World): Promise<void>;
  messagesIn(guildId: string, channelId: string): Promise<string[]>;
  directMessagesTo(guildId: string, userId: string): Promise<string[]>;
  /** The buttons under each message in the channel (or the user's DMs with `dm`), in order of posting. */
  buttonsIn(guildId: string, where: { channelId: string } | { dm: string }): Promise<Array<Array<{ id: string; label: string }>>>;
}

export const NOW = new Date('2026-06-01T12:00:00.000Z');

export function newWorld(botUserId: string): World {
  const guildId = snowflake();
  const category = snowflake();
  const botRole = snowflake();
  return {
    guildId,
    name: 'Conformance',
    ownerId: snowflake(),
    botUserId,
    roles: [
      { id: guildId, name: '@everyone', position: 0, permissions: 0n },
      { id: snowflake(), name: 'Moderator', position: 5, permissions: 1n << 2n },
      { id: snowflake(), name: 'Member', position: 1, permissions: 0n },
      // Above the others, with the invite link's permissions: on Discord the bot's roles decide what it may do.
      { id: botRole, name: 'Community Bot', position: 6, permissions: BigInt(BOT_INVITE_PERMISSIONS) },
    ],
    channels: [
      { id: category, name: 'Info', type: 'category', parentId: null, position: 0 },
      { id: snowflake(), name: 'general', type: 'text', parentId: category, position: 1 },
      { id: snowflake(), name: 'ticket-7', type: 'thread', parentId: null, position: 0 },
    ],
    members: [
      { userId: botUserId, username: 'bot', roleIds: [botRole], bot: true },
      { userId: snowflake(), username: 'alice', roleIds: [] },
      { userId: snowflake(), username: 'bob', roleIds: [], dmsClosed: true },
    ],
    bans: [{ userId: snowflake(), username: 'mallory', reason: 'spam' }],
  };
}

export function localSubject(db: () => Kysely<Database>): Subject {
  return {
    get platform() {
      return createLocalPlatform(db());
    },
    async seed(w) {
      await upsertPlatformGuild(db(), { guildId: w.guildId, name: w.name, ownerId: w.ownerId, botUserId: w.botUserId });
      await upsertPlatformRoles(db(), w.guildId, w.roles.map((r) => ({ roleId: r.id, name: r.name, position: r.position, permissions: r.permissions })));
      await upsertPlatformChannels(db(), w.guildId, w.channels.map((c) => ({ channelId: c.id, name: c.name, type: c.type, parentId: c.parentId, position: c.position })));
      for (const m of w.members) {
        await upsertPlatformMember(db(), { guildId: w.guildId, userId: m.userId, username: m.username, bot: m.bot ?? false, roleIds: m.roleIds });
        if (m.dmsClosed) await setPlatformAcceptsDms(db(), w.guildId, m.userId, false);
      }
      for (const b of w.bans) await banPlatformUser(db(), { guildId: w.guildId, userId: b.userId, reason: b.reason });
    },
    messagesIn: async (guildId, channelId) => (await listPlatformMessages(db(), guildId, channelId)).map((m) => m.content),
    directMessagesTo: async (guildId, userId) => (await listPlatformDirectMessages(db(), guildId, userId)).map((m) => m.content),
    async buttonsIn(guildId, where) {
      const rows = 'dm' in where ? await listPlatformDirectMessages(db(), guildId, where.dm) : await listPlatformMessages(db(), guildId, where.channelId);
      return rows.map((m) => (m.buttons as Array<{ id: string; label: string }> | null) ?? []);
    },
  };
}

const DISCORD_CHANNEL_TYPE: Record<Exclude<PlatformChannelType, never>, number> = {
  text: 0,
  voice: 2,
  category: 4,
  announcement: 5,
  stage: 13,
  forum: 15,
  media: 16,
  thread: 11,
  other: 14,
};

// One adapter per fake, as a process has one REST client: a client per test would each keep their own global limit,
// together past Discord's (the fake answers them a global 429, as Discord would).
const adapters = new WeakMap<FakeDiscord, Platform>();

export function discordSubject(fake: () => FakeDiscord): Subject {
  return {
    get platform() {
      let platform = adapters.get(fake());
      if (!platform) {
        platform = createDiscordPlatform({ token: fake().token, apiUrl: fake().apiUrl, clock: fixedClock(NOW), logger: createLogger('silent', 'conformance') });
        adapters.set(fake(), platform);
      }
      return platform;
    },
    async seed(w) {
      addGuild(fake().state, {
        id: w.guildId,
        name: w.name,
        ownerId: w.ownerId,
        roles: w.roles.map((r) => ({ id: r.id, name: r.name, position: r.position, permissions: String(r.permissions) })),
        channels: w.channels.map((c) => ({ id: c.id, name: c.name, type: DISCORD_CHANNEL_TYPE[c.type], parent_id: c.parentId, position: c.position })),
        members: w.members.map((m) => ({ id: m.userId, username: m.username, roles: m.roleIds, bot: m.bot, dmsClosed: m.dmsClosed })),
        bans: w.bans.map((b) => ({ userId: b.userId, username: b.username, reason: b.reason })),
      });
    },
    async messagesIn(_guildId, channelId) {
      return [...fake().state.messages.values()].filter((m) => m.channel_id === channelId).map((m) => m.content);
    },
    async directMessagesTo(_guildId, userId) {
      const channelId = fake().state.dmChannels.get(userId);
      return [...fake().state.messages.values()].filter((m) => m.channel_id === channelId).map((m) => m.content);
    },
    async buttonsIn(_guildId, where) {
      const channelId = 'dm' in where ? fake().state.dmChannels.get(where.dm) : where.channelId;
      return [...fake().state.messages.values()]
        .filter((m) => m.channel_id === channelId)
        .map((m) => (m.components ?? []).flatMap((row) => (row as unknown as { components: Array<{ custom_id: string; label: string }> }).components.map((b) => ({ id: b.custom_id, label: b.label }))));
    },
  };
}

import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { FEATURES, type Feature } from '../../src/core/features.js';
import { createLogger } from '../../src/core/logger.js';
import { systemClock } from '../../src/core/clock.js';
import type { Platform } from '../../src/core/platform.js';
import { createGuild } from '../../src/guild/guildManagement.js';
import { PERMISSION } from '../../src/moderation/refusalRules.js';
import { createDiscordPlatform } from '../../src/platform/discord/discordPlatform.js';
import { BOT_INVITE_PERMISSIONS, addGuild, addMember, type FakeDiscord } from '../../process/infra/fakeDiscord/index.js';
import { createTestKey, snowflake } from './fixtures.js';

const MODERATION = PERMISSION.kickMembers | PERMISSION.banMembers | PERMISSION.moderateMembers;

/** The Discord adapter on the fake, as PLATFORM=discord builds it (short waits, so retries show within a test). */
export const discordPlatformOn = (fake: FakeDiscord, options: { callDeadlineMs?: number } = {}): Platform =>
  createDiscordPlatform({ token: fake.token, apiUrl: fake.apiUrl, clock: systemClock, logger: createLogger('silent', 'discord-test'), ...options });

export interface DiscordGuild {
  id: string;
  ownerId: string;
  botUserId: string;
  roles: { admin: string; bot: string; moderator: string; member: string; reward: string };
  channels: { general: string; log: string };
  moderatorId: string;
  key: string;
  keyId: number;
  /** A member on Discord (the fake) with the member role. */
  addMember(options?: { dmsClosed?: boolean }): string;
}

/**
 * A server registered with the service whose platform side lives on the fake Discord: the role ladder of
 * test/harness/moderationGuild.ts (admin 9, bot 8, moderator 6, member 2, a reward role 1), #general and #mod-log,
 * and a key made by a moderator.
 */
export async function createDiscordGuild(db: Kysely<Database>, fake: FakeDiscord, options: { features?: Feature[] } = {}): Promise<DiscordGuild> {
  const id = snowflake();
  const ownerId = snowflake();
  const botUserId = fake.state.bot.id;
  const roles = { admin: snowflake(), bot: snowflake(), moderator: snowflake(), member: snowflake(), reward: snowflake() };
  const channels = { general: snowflake(), log: snowflake() };
  const moderatorId = snowflake();
  const guild = addGuild(fake.state, {
    id,
    name: 'Discord Test Guild',
    ownerId,
    roles: [
      { id: roles.admin, name: 'Admin', position: 9, permissions: String(PERMISSION.administrator) },
      { id: roles.bot, name: 'Bot', position: 8, managed: true, permissions: BOT_INVITE_PERMISSIONS },
      { id: roles.moderator, name: 'Moderator', position: 6, permissions: String(MODERATION) },
      { id: roles.member, name: 'Member', position: 2 },
      { id: roles.reward, name: 'Level 2', position: 1 },
    ],
    channels: [
      { id: channels.general, type: 0, name: 'general', position: 0 },
      { id: channels.log, type: 0, name: 'mod-log', position: 1 },
    ],
    members: [
      { id: ownerId, username: 'owner' },
      { id: botUserId, username: 'Community Bot', bot: true, roles: [roles.bot] },
      { id: moderatorId, username: 'mod', roles: [roles.moderator, roles.member] },
    ],
  });
  await createGuild(db, {
    id,
    name: 'Discord Test Guild',
    icon: null,
    locale: 'en',
    plan: 'pro',
    features: options.features ?? [...FEATURES],
    blocked: false,
    ownerId,
    botUserId,
    actor: { type: 'system' },
  });
  const created = await createTestKey(db, { id, ownerId, botUserId }, { createdBy: moderatorId, name: 'mod key' });
  return {
    id,
    ownerId,
    botUserId,
    roles,
    channels,
    moderatorId,
    key: created.key,
    keyId: created.id,
    addMember(memberOptions = {}) {
      const userId = snowflake();
      addMember(fake.state, guild, { id: userId, username: `user${userId.slice(-4)}`, roles: [roles.member], ...memberOptions });
      return userId;
    },
  };
}

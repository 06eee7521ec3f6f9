import type { Kysely } from 'kysely';
import { upsertPlatformMember, upsertPlatformRoles } from '../../db/platform/local.js';
import type { Database } from '../../db/schema.js';
import { PERMISSION } from '../../src/moderation/refusalRules.js';
import type { Feature } from '../../src/core/features.js';
import { addTestMember, createTestGuild, createTestKey, snowflake, type TestGuild } from './fixtures.js';

const MODERATION = PERMISSION.kickMembers | PERMISSION.banMembers | PERMISSION.moderateMembers;

/**
 * A server with a role ladder, highest first: admin (9, administrator), bot (8), moderator (6, kick, ban,
 * timeout), helper (5, timeout only), member (2); the key is made by a moderator.
 */
export interface ModerationGuild extends TestGuild {
  roles: { admin: string; bot: string; moderator: string; helper: string; member: string };
  moderatorId: string;
  key: string;
  keyId: number;
  /** A plain member to act on. */
  addMember(roleIds?: string[]): Promise<string>;
}

export async function createModerationGuild(db: Kysely<Database>, options: { features?: Feature[] } = {}): Promise<ModerationGuild> {
  const guild = await createTestGuild(db, options);
  const roles = { admin: snowflake(), bot: snowflake(), moderator: snowflake(), helper: snowflake(), member: snowflake() };
  await upsertPlatformRoles(db, guild.id, [
    { roleId: guild.id, name: '@everyone', position: 0 },
    { roleId: roles.admin, name: 'Admin', position: 9, permissions: PERMISSION.administrator },
    { roleId: roles.bot, name: 'Bot', position: 8, managed: true, permissions: MODERATION },
    { roleId: roles.moderator, name: 'Moderator', position: 6, permissions: MODERATION },
    { roleId: roles.helper, name: 'Helper', position: 5, permissions: PERMISSION.moderateMembers },
    { roleId: roles.member, name: 'Member', position: 2 },
  ]);
  await upsertPlatformMember(db, { guildId: guild.id, userId: guild.botUserId, username: 'bot', bot: true, roleIds: [roles.bot] });
  const moderatorId = await addTestMember(db, guild, { username: 'mod', roleIds: [roles.moderator, roles.member] });
  const created = await createTestKey(db, guild, { scopes: ['moderation:read', 'moderation:write'], createdBy: moderatorId, name: 'mod key' });
  return {
    ...guild,
    roles,
    moderatorId,
    key: created.key,
    keyId: created.id,
    addMember: (roleIds = [roles.member]) => addTestMember(db, guild, { roleIds }),
  };
}

import { findGuild } from '../../db/guilds.js';
import { deletePlatformMember, listPlatformMembers, upsertPlatformMember } from '../../db/platformLocal.js';
import { SNOWFLAKE_PATTERN } from '../domain/snowflake.js';
import { parseFlags, snowflakeFlag } from './args.js';
import type { AdminCommand, AdminContext } from './context.js';
import { AdminError, print, table, usageError } from './io.js';

async function requireGuild(ctx: AdminContext, id: string) {
  if (!(await findGuild(ctx.db, id))) throw new AdminError('GUILD_NOT_FOUND', `Guild ${id} does not exist.`);
}

function rolesFlag(value: string | undefined): string[] {
  const roles = (value ?? '').split(',').map((r) => r.trim()).filter(Boolean);
  const bad = roles.filter((r) => !SNOWFLAKE_PATTERN.test(r));
  if (bad.length > 0) throw usageError(`--roles must be role ids (17 to 20 digits); not ids: ${bad.join(', ')}.`);
  return roles;
}

/** Members of the local platform adapter (the Discord adapter reads real members instead). */
export const memberCommands: Record<string, AdminCommand> = {
  async add(argv, ctx) {
    const flags = parseFlags(argv, { guild: { type: 'string' }, user: { type: 'string' }, username: { type: 'string' }, bot: { type: 'boolean' }, roles: { type: 'string' } });
    const guildId = snowflakeFlag(flags.guild, 'guild');
    const userId = snowflakeFlag(flags.user, 'user');
    await requireGuild(ctx, guildId);
    const member = { userId, username: flags.username ?? `user${userId.slice(-4)}`, bot: flags.bot ?? false, roles: rolesFlag(flags.roles) };
    await upsertPlatformMember(ctx.db, { guildId, userId, username: member.username, bot: member.bot, roleIds: member.roles });
    print(ctx.io, flags.json ?? false, member, () => [`Member ${userId} (${member.username}) is in guild ${guildId}.`]);
  },
  async remove(argv, ctx) {
    const flags = parseFlags(argv, { guild: { type: 'string' }, user: { type: 'string' } });
    const guildId = snowflakeFlag(flags.guild, 'guild');
    const userId = snowflakeFlag(flags.user, 'user');
    if (!(await deletePlatformMember(ctx.db, guildId, userId))) {
      throw new AdminError('MEMBER_NOT_FOUND', `User ${userId} is not a member of guild ${guildId}.`);
    }
    print(ctx.io, flags.json ?? false, { userId, removed: true }, () => [`Member ${userId} left guild ${guildId}.`]);
  },
  async list(argv, ctx) {
    const flags = parseFlags(argv, { guild: { type: 'string' } });
    const guildId = snowflakeFlag(flags.guild, 'guild');
    await requireGuild(ctx, guildId);
    const items = (await listPlatformMembers(ctx.db, guildId)).map((m) => ({ userId: m.user_id, username: m.username, bot: m.bot, roles: m.role_ids }));
    print(ctx.io, flags.json ?? false, { items }, () =>
      table([['USER', 'USERNAME', 'BOT', 'ROLES'], ...items.map((m) => [m.userId, m.username, String(m.bot), m.roles.join(',')])]),
    );
  },
};

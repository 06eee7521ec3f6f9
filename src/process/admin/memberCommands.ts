import { deletePlatformMember, listPlatformMembers, upsertPlatformMember } from '../../../db/platform/local.js';
import { optional, snowflake, text, type FlagSpec } from './args.js';
import { defineCommand, type CommandGroup } from './command.js';
import { AdminError } from './errors.js';
import { table } from './output.js';
import { requireGuild } from './requireGuild.js';

const MEMBER_FLAGS = {
  guild: { type: 'string', placeholder: 'ID', required: true, help: 'the guild id' },
  user: { type: 'string', placeholder: 'ID', required: true, help: "the member's user id" },
} as const satisfies FlagSpec;

const roleIds = (value: string) =>
  value
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean)
    .map((r) => snowflake(r, 'roles'));

/** Members of the local platform adapter, where the demo guild and tests keep the chat platform's state. */
export const memberGroup: CommandGroup = {
  name: 'member',
  summary: 'members of a guild on the local platform',
  commands: [
    defineCommand({
      name: 'add',
      summary: 'add a member, or replace the username, bot flag and roles of an existing one',
      flags: {
        ...MEMBER_FLAGS,
        username: { type: 'string', placeholder: 'N', help: 'username (default: user + the last 4 digits of the id)' },
        bot: { type: 'boolean', help: 'the member is a bot account' },
        roles: { type: 'string', placeholder: 'a,b', help: 'role ids the member holds' },
      },
      async run(flags, ctx) {
        const guildId = snowflake(flags.guild, 'guild');
        const userId = snowflake(flags.user, 'user');
        const member = {
          userId,
          username: optional(flags.username, (v) => text(v, 'username', 32)) ?? `user${userId.slice(-4)}`,
          bot: flags.bot,
          roles: optional(flags.roles, roleIds) ?? [],
        };
        await requireGuild(ctx.db, guildId);
        await upsertPlatformMember(ctx.db, { guildId, userId, username: member.username, bot: member.bot, roleIds: member.roles });
        return { json: member, text: [`Member ${userId} (${member.username}) is in guild ${guildId}.`] };
      },
    }),
    defineCommand({
      name: 'remove',
      summary: 'remove a member (as if they left the server)',
      flags: MEMBER_FLAGS,
      async run(flags, ctx) {
        const guildId = snowflake(flags.guild, 'guild');
        const userId = snowflake(flags.user, 'user');
        if (!(await deletePlatformMember(ctx.db, guildId, userId))) {
          throw new AdminError('MEMBER_NOT_FOUND', `User ${userId} is not a member of guild ${guildId}.`);
        }
        return { json: { userId, removed: true }, text: [`Member ${userId} left guild ${guildId}.`] };
      },
    }),
    defineCommand({
      name: 'list',
      summary: 'list the members of a guild',
      flags: { guild: MEMBER_FLAGS.guild },
      async run(flags, ctx) {
        const guildId = snowflake(flags.guild, 'guild');
        await requireGuild(ctx.db, guildId);
        const items = (await listPlatformMembers(ctx.db, guildId)).map((m) => ({
          userId: m.user_id,
          username: m.username,
          bot: m.bot,
          roles: m.role_ids,
        }));
        return {
          json: { items },
          text: table([
            ['USER', 'USERNAME', 'BOT', 'ROLES'],
            ...items.map((m) => [m.userId, m.username, m.bot ? 'yes' : 'no', m.roles.join(',') || '-']),
          ]),
        };
      },
    }),
  ],
};

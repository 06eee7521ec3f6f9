import { listPlatformMembers } from '../../db/platform/local.js';
import { joinMember } from '../../src/guild/joinMember.js';
import { leaveMember } from '../../src/guild/leaveMember.js';
import { optional, snowflake, text, type FlagSpec } from './args.js';
import { defineCommand, GUILD_FLAG, OPERATOR_FLAG, operatorActor, type CommandGroup } from './command.js';
import { table } from './output.js';
import { requireGuild } from './requireGuild.js';

export const MEMBER_FLAGS = {
  ...GUILD_FLAG,
  user: { type: 'string', placeholder: 'ID', required: true, help: "the member's user id" },
} as const satisfies FlagSpec;

export const MEMBER_DETAIL_FLAGS = {
  username: { type: 'string', placeholder: 'N', help: 'username (default: user + the last 4 digits of the id)' },
  bot: { type: 'boolean', help: 'the member is a bot account' },
  roles: { type: 'string', placeholder: 'a,b', help: 'role ids the member holds' },
} as const satisfies FlagSpec;

const roleIds = (value: string) =>
  value
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean)
    .map((r) => snowflake(r, 'roles'));

/** The member a `member add` or `simulate member-join` describes. */
export function memberFromFlags(flags: { guild: string; user: string; username?: string; bot: boolean; roles?: string }) {
  const userId = snowflake(flags.user, 'user');
  return {
    guildId: snowflake(flags.guild, 'guild'),
    userId,
    username: optional(flags.username, (v) => text(v, 'username', 32)) ?? `user${userId.slice(-4)}`,
    bot: flags.bot,
    roleIds: optional(flags.roles, roleIds) ?? [],
  };
}

/**
 * Members of the local platform adapter, where the demo guild and tests keep the chat platform's state. A new
 * member and a removal are a join and a leave (`members.joined`, `members.left` with the Members feature on).
 */
export const memberGroup: CommandGroup = {
  name: 'member',
  summary: 'members of a guild on the local platform',
  commands: [
    defineCommand({
      name: 'add',
      summary: 'add a member (a join: members.joined), or replace the username, bot flag and roles of an existing one',
      flags: { ...MEMBER_FLAGS, ...MEMBER_DETAIL_FLAGS, ...OPERATOR_FLAG },
      async run(flags, ctx) {
        const m = memberFromFlags(flags);
        await requireGuild(ctx.db, m.guildId);
        const { events } = await ctx.db.transaction().execute((trx) =>
          joinMember(trx, { ...m, inviterId: null, inviteCode: null, at: ctx.clock.now(), actor: operatorActor(ctx, flags.operator), ifMember: 'update' }),
        );
        await ctx.startFanouts(events);
        return {
          json: { userId: m.userId, username: m.username, bot: m.bot, roles: m.roleIds },
          text: [`Member ${m.userId} (${m.username}) is in guild ${m.guildId}.`],
        };
      },
    }),
    defineCommand({
      name: 'remove',
      summary: 'remove a member (as if they left the server: members.left)',
      flags: { ...MEMBER_FLAGS, ...OPERATOR_FLAG },
      async run(flags, ctx) {
        const guildId = snowflake(flags.guild, 'guild');
        const userId = snowflake(flags.user, 'user');
        const { events } = await ctx.db.transaction().execute((trx) =>
          leaveMember(trx, { guildId, userId, at: ctx.clock.now(), actor: operatorActor(ctx, flags.operator) }),
        );
        await ctx.startFanouts(events);
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
